/// Finds the labels that markdown source defines (`[label]:`) or may use (`[label]`), as keys
/// that compare the way cmark-gfm matches labels (case-insensitive, runs of whitespace as one
/// space, trimmed). A footnote label keeps its caret (`^1`).
///
/// The scan is a conservative byte scan, not a parse: it may report labels the source does not
/// really define or use (a bracket inside code), never the other way round. Callers use it to
/// choose which definitions a parse needs, where an extra one costs a few bytes and a missing one
/// would be wrong.
///
/// A footnote reference whose brackets stand on different lines is looked up by cmark-gfm under a
/// label of its own making: as many bytes after the caret as the columns of the two brackets
/// differ by, less two, where a column counts from the start of the line's content (after its
/// container markers and indentation; on a paragraph's first line, from the paragraph's start).
/// The scan does not know where the content starts, only that it is at most the line's leading
/// markers and blanks away: it reports the label of every length that leaves open. On one line,
/// blanks after the caret do not count (`[^ 1]` references `[^1]:`).
enum ReferenceLabels {
  /// cmark-gfm's longest link label, in bytes before trimming (`MAX_LINK_LABEL_LENGTH`: a label
  /// of 1,000 bytes links, one of 1,001 is text). A footnote label has no limit: cmark-gfm reads
  /// a footnote reference after the link lookup failed, whatever its length.
  static let maximumLength = 1000

  /// Labels of every `[...]` in `bytes` (no nested brackets, at most ``maximumLength`` bytes
  /// unless a footnote's).
  ///
  /// A footnote label spanning lines stands in the set as ``anyFootnote``, not as the labels of
  /// every length its columns allow (as many as its closing line's leading marker bytes, each a
  /// prefix of its first word: a set of m·w bytes).
  ///
  /// - Complexity: O(n).
  static func used(in bytes: ArraySlice<UInt8>) -> Set<String> {
    var labels: Set<String> = []
    forEachUsed(in: bytes, footnoteLengths: []) { labels.insert($0) }
    return labels
  }

  /// What ``used(in:)`` holds for a footnote label spanning lines: it may be any footnote label
  /// (a key no definition has: cmark-gfm reads a NUL as U+FFFD).
  static let anyFootnote = "^\u{0}"

  /// Calls `body` with the label of every `[...]` in `bytes`, as ``used(in:)`` finds them, in
  /// order and as often as they occur; for a footnote label spanning lines, also the labels
  /// cmark-gfm may look it up under (see the type's summary).
  ///
  /// With `footnoteLengths` (the lengths of the footnote labels that can match, after the caret),
  /// a footnote label spanning lines is reported only under those lengths; with none of them, as
  /// ``anyFootnote``.
  ///
  /// - Complexity: O(n) plus, per footnote label spanning lines (for each of at most 32 caret
  ///   openers kept open, at up to 32 `]` of each later line, the line's columns counted once):
  ///   the lengths its columns leave open, each looked up in `footnoteLengths`, and its first word
  ///   read once (O(w), at most four times the longest footnote label) and each label reported
  ///   once per opener (O(w) each). Bytes other than `\`, `` ` ``, `<`, `[` and `]` are skipped
  ///   sixteen at a time.
  static func forEachUsed(in bytes: ArraySlice<UInt8>, footnoteLengths: Set<Int>? = nil, _ body: (String) -> Void) {
    bytes.withUnsafeBufferPointer { buffer in
      var open = -1
      // The `[` not yet closed, as cmark-gfm's bracket stack holds them (the last few): a `]`
      // closes the latest, and an outer `[^` whose inner brackets made no link still makes a
      // footnote reference (`[^1[]` and `]` on the next line).
      var openers: [Int] = []
      // The caret openers (`[^`, `[\^`) among them, kept apart: the `[` of a code span after a
      // `[^` (no bracket to cmark-gfm) must not push it out of the few kept (fuzz seed 1259:
      // 38 of them).
      var carets: [CaretOpener] = []
      // The last backtick, `<` or `](`: a `]` after one may stand in a code span, inline HTML, an
      // autolink or a destination, no bracket to cmark-gfm.
      var lastSpanStart = -1
      var lineColumns = LineColumns()
      let longestFootnote = footnoteLengths?.max()
      var cursor = ByteSetCursor()
      var index = cursor.next(Self.scanned, in: buffer, from: 0, to: buffer.count)
      while index < buffer.count {
        switch buffer[index] {
        case ASCII.backslash:
          index += 1
        case ASCII.backtick, UInt8(ascii: "<"):
          lastSpanStart = index
        case UInt8(ascii: "["):
          open = index
          if openers.count == Self.trackedOpeners { openers.removeFirst() }
          openers.append(index)
          if labelStart(in: buffer, open: index) != nil {
            if carets.count == Self.trackedOpeners { carets.removeFirst() }
            carets.append(CaretOpener(open: index))
          }
        case UInt8(ascii: "]"):
          let latest = openers.popLast() ?? -1
          // A caret opener stays open to a `]` that may be in a code span (`[^1`]`` and `]` on
          // the next line: fuzz seed 1259), inline HTML (`<a b="]">`) or an autolink.
          if latest >= 0, carets.last?.open == latest, lastSpanStart < latest { carets.removeLast() }
          if open >= 0, index - open - 1 <= maximumLength || labelStart(in: buffer, open: open) != nil {
            reportLabel(in: buffer, open: open, close: index, lengths: footnoteLengths, body)
          } else if latest >= 0 && latest != open && labelStart(in: buffer, open: latest) != nil {
            reportLabel(in: buffer, open: latest, close: index, lengths: footnoteLengths, body)
          }
          // A `[` in a code span is no bracket to cmark-gfm, which then closes the `[^` before
          // it (`[^1`[`` and `]` on the next line: fuzz seed 1234): its label is reported too,
          // at the first `]` after it only, so the scan stays linear (fuzz seed 1235: a `[^`
          // followed by thousands of `[x]`). Every caret opener still open is such a `[^`, under
          // any number of such `[` (`` `[` `` twice: fuzz seed 1251; 38 times: seed 1259), and
          // the latest may itself be in a code span (`` `[^[` ``: seed 1260).
          for caret in carets.indices where carets[caret].open != open {
            let outer = carets[caret].open
            let firstReport = !carets[caret].reported
            if firstReport {
              reportLabel(in: buffer, open: outer, close: index, lengths: footnoteLengths, body)
              carets[caret].reported = true
            }
            if let start = labelStart(in: buffer, open: outer) {
              // On a later line, the `]` that closes it may be this one (`[^1[]`, `` `[` `` and
              // `]` on the next line: fuzz seed 1248), and not only the line's first: a `[]`
              // before it on the line takes the first (`[]`]` under `[^1[]`]``: fuzz seed 1267).
              // Only the labels its columns allow, at up to ``trackedOpeners`` `]` of each line
              // (the opener's column is kept, the line's columns are counted once). The first
              // report may itself be on a later line, where the `]` of its own line stood in a
              // code span (`` [^1`]` ``, then `` []`] ``: fuzz seed 1279).
              let checked = firstReport ? outer : carets[caret].checked
              if UnsafeBufferPointer(rebasing: buffer[checked..<index]).contains(where: isLineBreak) {
                carets[caret].checksOnLine = 0
              }
              carets[caret].checked = index
              if carets[caret].checksOnLine >= 0 && carets[caret].checksOnLine < Self.trackedOpeners {
                carets[caret].checksOnLine += 1
                let opening = carets[caret].column ?? openerColumn(in: buffer, of: outer)
                carets[caret].column = opening
                var closing = lineColumns.column(of: index, in: buffer)
                // A code span, inline HTML or autolink after the caret may hold a line break,
                // which moves no column of cmark-gfm's: the `]` then stands further right than
                // its line says (`[^1`, `` []` ``, `` `] ``: fuzz seed 1358). Any length up to the
                // brackets' distance is let in, where the lengths that can match bound the labels
                // (without them every length would be reported, on every line).
                if lastSpanStart > outer && footnoteLengths != nil { closing.2 += index - outer }
                forEachColumnLabel(
                  in: buffer, from: start, open: outer, close: index, openColumn: opening,
                  closeColumn: closing, lengths: footnoteLengths,
                  longest: longestFootnote, cache: &carets[caret].words, body)
              }
            }
          }
          // A link's or image's destination and title may hold `]` that are no brackets either
          // (`[^1![x](/a]b)` then `]` on the next line: a review).
          if index + 1 < buffer.count && buffer[index + 1] == UInt8(ascii: "(") { lastSpanStart = index }
          open = -1
        default:
          break
        }
        index = cursor.next(Self.scanned, in: buffer, from: index + 1, to: buffer.count)
      }
    }
  }

  /// Where `line` goes on after `[label]:` when it starts so (a non-empty label up to its first
  /// unescaped `]`, with no unescaped `[` inside, right before a colon); else nil. A line break
  /// inside ends the label unless `spansLines` (cmark-gfm reads a label over lines, up to
  /// ``maximumLength`` bytes, and so does the scan then: `text` is the lines of one paragraph, with no blank line).
  ///
  /// - Complexity: O(n) in the label's length.
  static func definitionLabelEnd(in line: ArraySlice<UInt8>, spansLines: Bool = false) -> Int? {
    guard line.first == ASCII.openBracket, line.dropFirst().first != ASCII.closeBracket else { return nil }
    var escaped = false
    for index in line.indices.dropFirst() {
      let byte = line[index]
      if escaped {
        escaped = false
      } else if byte == ASCII.backslash {
        escaped = true
      } else if byte == ASCII.openBracket || (isLineBreak(byte) && !spansLines) {
        return nil
      } else if byte == ASCII.closeBracket {
        guard index - line.startIndex - 1 <= maximumLength else { return nil }
        return index + 1 < line.endIndex && line[index + 1] == ASCII.colon ? index + 2 : nil
      } else if index - line.startIndex > maximumLength {
        return nil
      }
    }
    return nil
  }

  /// A `[^` (or `[\^`) that ``forEachUsed(in:footnoteLengths:_:)`` keeps open.
  private struct CaretOpener {
    /// Where its `[` is.
    let open: Int
    /// Whether its label up to a later `]` was reported.
    var reported = false
    /// Where the scan last looked for a line break after that report.
    var checked = 0
    /// How many `]` of the current line were looked at as its closer; -1 before a later line.
    var checksOnLine = -1
    /// Its column, as ``column(in:of:)`` gives it, once known.
    var column: (Int, Int, Int)?
    /// What its checks on later lines keep: its word and the lengths already reported.
    var words = ColumnLabelCache()
  }

  /// What the checks of one caret opener on later lines share (``forEachColumnLabel``): where the
  /// word after the caret starts and its key, once the word is known whole, and the lengths
  /// already reported, so a line of many `]` reads the word once and reports each label once.
  private struct ColumnLabelCache {
    var lead: Lead?
    var keys: [Int: [UInt8]] = [:]
    var reported: Set<String> = []
  }

  /// How many unclosed `[` the scan keeps, and how many caret openers among them (see
  /// ``forEachUsed(in:footnoteLengths:_:)``).
  static let trackedOpeners = 32

  /// Calls `body` with the key of the label between `open` and `close` in `buffer`, and, for a
  /// footnote label spanning lines, with the labels cmark-gfm may look it up under.
  private static func reportLabel(
    in buffer: UnsafeBufferPointer<UInt8>, open: Int, close: Int, lengths: Set<Int>?, _ body: (String) -> Void
  ) {
    let label = UnsafeBufferPointer(rebasing: buffer[(open + 1)..<close])
    let key = normalized(label)
    if !key.isEmpty { body(key) }
    if let inQuote = quoteMarkersRemoved(label) {
      let quoted = normalized(inQuote[...])
      if !quoted.isEmpty && quoted != key { body(quoted) }
    }
    guard let start = labelStart(in: buffer, open: open) else { return }
    if label.contains(where: isLineBreak) {
      var cache = ColumnLabelCache()
      forEachColumnLabel(
        in: buffer, from: start, open: open, close: close, lengths: lengths, longest: lengths?.max(), cache: &cache,
        body)
    } else if buffer[open + 1] == ASCII.caret, start < close, ASCII.isSpace(buffer[start]) {
      // cmark-gfm looks a footnote up by the text after the caret, normalized on its own:
      // `[^ 1]` is a reference to `[^1]:` (fuzz seed 1245), while a link definition would need
      // the label `^ 1`, reported above.
      let footnote = normalized(UnsafeBufferPointer(rebasing: buffer[start..<close]))
      if !footnote.isEmpty { body("^" + footnote) }
    }
  }

  /// Where the label of the footnote reference that the `[` at `open` may open starts: after
  /// `[^`, or after `[\^`, which cmark-gfm takes for a footnote's too (the escaped caret is a
  /// text node of its own, and the label is read from the input after it; fuzz seed 1239); `nil`
  /// when no caret follows.
  @inline(__always) static func labelStart(in buffer: UnsafeBufferPointer<UInt8>, open: Int) -> Int? {
    guard open + 1 < buffer.count else { return nil }
    if buffer[open + 1] == ASCII.caret { return open + 2 }
    if buffer[open + 1] == ASCII.backslash && open + 2 < buffer.count && buffer[open + 2] == ASCII.caret {
      return open + 3
    }
    return nil
  }

  /// Calls `body` with the keys of the labels cmark-gfm may look up the footnote reference whose
  /// `[` is at `open` and whose `]` is at `close`, on a later line, in `buffer` (see the type's
  /// summary): the bytes after the caret, as many as the brackets' content columns differ by,
  /// less two, read from `start` (just after the caret). A label with whitespace inside matches no
  /// footnote definition, so a length past the first word stands for the word itself.
  private static func forEachColumnLabel(
    in buffer: UnsafeBufferPointer<UInt8>, from start: Int, open: Int, close: Int,
    openColumn known: (Int, Int, Int)? = nil, closeColumn knownClose: (Int, Int, Int)? = nil, lengths: Set<Int>?,
    longest: Int?, cache: inout ColumnLabelCache, _ body: (String) -> Void
  ) {
    let (openColumn, openMarkers, openSlack) = known ?? openerColumn(in: buffer, of: open)
    let (closeColumn, closeMarkers, closeSlack) = knownClose ?? column(in: buffer, of: close)
    // A tab a container marker takes part of leaves up to three columns as spaces; bytes that are
    // not UTF-8 leave the columns uncertain.
    let slack = openSlack + closeSlack
    guard start <= close else { return }
    // Blanks and line breaks right after the caret are part of the bytes taken, and normalizing
    // drops them: the label is a prefix of the word after them (`[^`, `1` and `]` on three lines:
    // fuzz seed 1264). Kept once a byte other than a blank ends them before `close`.
    // cmark-gfm holds a paragraph's later lines without their quote markers and leading blanks,
    // so where the caret ends its line the bytes it takes count those out (`[^`, ` 1`,
    // `\u{FFFD}>]`: fuzz seed 1324); the bytes as written are tried too.
    let lead: Lead
    if let known = cache.lead {
      lead = known
    } else {
      lead = Lead(in: buffer, from: start, to: close)
      if start + lead.raw < close { cache.lead = lead }
    }
    let variants =
      lead.raw == lead.stripped && lead.strippedWord == start + lead.raw
      ? [(lead.raw, start + lead.raw)] : [(lead.raw, start + lead.raw), (lead.stripped, lead.strippedWord)]
    let highest = closeColumn - max(0, openColumn - openMarkers) - 2 + slack - lead.stripped
    guard max(1, closeColumn - closeMarkers - openColumn - 2 - slack - lead.raw) <= highest else { return }
    if let lengths, lengths.isEmpty {
      if start + lead.raw < close, !ASCII.isSpace(buffer[start + lead.raw]), cache.reported.insert(anyFootnote).inserted
      {
        body(anyFootnote)
      }
      return
    }
    for (taken, wordStart) in variants {
      let key: [UInt8]
      if let known = cache.keys[wordStart] {
        key = known
      } else {
        // Past `highest` bytes the word makes no label, and past four times the longest footnote
        // label (case folding shortens a few characters, never below a third) no length that can
        // match: the scan stops there.
        guard wordStart < close else { continue }
        var end = min(close, wordStart + highest + 1)
        if let longest { end = min(end, wordStart + 4 * (longest + 1)) }
        let word = UnsafeBufferPointer(rebasing: buffer[wordStart..<end]).prefix { !ASCII.isSpace($0) }
        guard !word.isEmpty else { continue }
        key = Array(normalized(UnsafeBufferPointer(rebasing: word)).utf8)
        // The whole word, ended by a blank before every limit: the same for every later `]`.
        if wordStart + word.count < end { cache.keys[wordStart] = key }
      }
      func report(_ length: Int) {
        guard cache.reported.insert(String(decoding: key[..<length], as: UTF8.self)).inserted else { return }
        body("^" + String(decoding: key[..<length], as: UTF8.self))
      }
      let lowest = max(1, closeColumn - closeMarkers - openColumn - 2 - slack - taken)
      let highest = closeColumn - max(0, openColumn - openMarkers) - 2 + slack - taken
      let top = min(highest, key.count)
      if lowest <= top {
        if let lengths, lengths.count <= top - lowest {
          for length in lengths where lowest <= length && length <= top { report(length) }
        } else {
          for length in lowest...top where lengths?.contains(length) ?? true { report(length) }
        }
      }
      if highest > key.count && lowest > key.count && lengths?.contains(key.count) ?? true {
        report(key.count)
      }
    }
  }

  /// The bytes after a footnote reference's caret before its first word, as written (`raw`)
  /// and as cmark-gfm holds them (`stripped`: the blanks on the caret's line and the line
  /// break; the next line's quote markers and blanks are not in its paragraph), and where the
  /// word starts in the latter reading.
  private struct Lead {
    var raw = 0
    var stripped = 0
    var strippedWord = 0

    init(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to close: Int) {
      var afterBreak = false
      while start + raw < close, ASCII.isSpace(buffer[start + raw]) {
        if isLineBreak(buffer[start + raw]) {
          afterBreak = true
          stripped += 1
        } else if !afterBreak {
          stripped += 1
        }
        raw += 1
      }
      strippedWord = start + raw
      if afterBreak {
        while strippedWord < close, ASCII.isBlank(buffer[strippedWord]) || buffer[strippedWord] == UInt8(ascii: ">") {
          strippedWord += 1
        }
      }
    }
  }

  /// ``column(in:of:)`` of the caret opener's `[` at `open` as cmark-gfm counts the footnote
  /// reference's start: from the `!` before it where the two open an image (`![\^1`: with the
  /// caret escaped, `![` is one opener; `![^` is a `!` and a bracket), so its label on a later
  /// line takes one byte more (`[^1]:`, then `![\^1[]` and `]` on the next line: the label
  /// `1`, whose definition the preamble left out; fuzz seed 1403).
  private static func openerColumn(in buffer: UnsafeBufferPointer<UInt8>, of open: Int) -> (Int, Int, Int) {
    var value = column(in: buffer, of: open)
    guard open > 0, buffer[open - 1] == UInt8(ascii: "!"), open + 1 < buffer.count, buffer[open + 1] != ASCII.caret
    else { return value }
    var backslashes = 0
    while open - 2 - backslashes >= 0 && buffer[open - 2 - backslashes] == ASCII.backslash { backslashes += 1 }
    if backslashes % 2 == 0 { value.0 -= 1 }
    return value
  }

  /// The column of `index` on its line in `buffer` (from the line's start, or the buffer's), how
  /// many bytes before it on the line may be container markers or indentation (blanks, `>`, list
  /// marker bytes), and by how many columns either way the column may be off: three when a tab
  /// is among the markers, two more for each byte that is not valid UTF-8.
  ///
  /// Columns count bytes as cmark-gfm reads the line: a NUL, and each byte that is not valid
  /// UTF-8, as the three bytes of U+FFFD (how many invalid bytes one U+FFFD stands for is left to
  /// the slack: fuzz seed 1264, `\xFB>]`).
  private static func column(in buffer: UnsafeBufferPointer<UInt8>, of index: Int) -> (Int, Int, Int) {
    var start = index
    var nuls = 0
    while start > 0 && !isLineBreak(buffer[start - 1]) {
      start -= 1
      if buffer[start] == 0 { nuls += 1 }
    }
    var markers = start
    var tab = false
    while markers < index && isMarkerOrBlank(buffer[markers]) {
      if buffer[markers] == ASCII.tab { tab = true }
      markers += 1
    }
    let invalid = invalidBytes(in: UnsafeBufferPointer(rebasing: buffer[start..<index]))
    return (index - start + 2 * nuls + 2 * invalid, markers - start, (tab ? 3 : 0) + 2 * invalid)
  }

  /// ``column(in:of:)`` for indices that grow along a line, each byte of the line counted once:
  /// a later index on the same line adds the columns of the bytes since the last (the markers at
  /// the line's start stay as counted; a segment starts at a `]`, so no UTF-8 sequence spans two).
  private struct LineColumns {
    private var last = -1
    private var value = (0, 0, 0)

    mutating func column(of index: Int, in buffer: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int) {
      if last >= 0, last <= index, !UnsafeBufferPointer(rebasing: buffer[last..<index]).contains(where: isLineBreak) {
        let segment = UnsafeBufferPointer(rebasing: buffer[last..<index])
        let nuls = segment.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
        let invalid = invalidBytes(in: segment)
        value.0 += segment.count + 2 * nuls + 2 * invalid
        value.2 += 2 * invalid
      } else {
        value = ReferenceLabels.column(in: buffer, of: index)
      }
      last = index
      return value
    }
  }

  /// How many bytes of `bytes` are not part of a valid UTF-8 sequence.
  private static func invalidBytes(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var invalid = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00..<0x80: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: length = 0
      }
      if length == 1 {
        index += 1
      } else if length > 1, index + length <= bytes.count,
        bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
      {
        index += length
      } else {
        invalid += 1
        index += 1
      }
    }
    return invalid
  }

  private static func isMarkerOrBlank(_ byte: UInt8) -> Bool {
    ASCII.isBlank(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: ")")
  }

  private static func isLineBreak(_ byte: UInt8) -> Bool {
    byte == ASCII.newline || byte == ASCII.carriageReturn
  }

  /// The bytes ``forEachUsed(in:footnoteLengths:_:)`` acts on.
  private static let scanned = ByteSet([
    ASCII.backslash, ASCII.backtick, UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "]"),
  ])

  /// Labels that lines of `bytes` start to define: a `[label]:` after at most container markers
  /// (`>`, list markers) and spaces.
  ///
  /// - Complexity: O(n).
  static func defined(in bytes: ArraySlice<UInt8>) -> [String] {
    var labels: [String] = []
    var index = bytes.startIndex
    var atLineStart = true
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == ASCII.newline || byte == ASCII.carriageReturn {
        atLineStart = true
      } else if atLineStart && byte == UInt8(ascii: "[") {
        // A task item's checkbox (`- [x] [a]: /u`): what follows it is the item's content, which
        // may define a label (a trial: the definition was missed and `[a]` below stayed text).
        if index + 3 < bytes.endIndex, [ASCII.space, UInt8(ascii: "x"), UInt8(ascii: "X")].contains(bytes[index + 1]),
          bytes[index + 2] == ASCII.closeBracket, ASCII.isBlank(bytes[index + 3])
        {
          index += 4
          continue
        }
        // A footnote definition whose label this scan cannot key (one holding `[` or `\`:
        // cmark-gfm's label ends at the first `]`) defines no label it reports, yet its content
        // may open with a link definition (`[^[]:[x]:>`, then `[x]:n`: `[x]` above committed with
        // `n` into a pipe where cmark-gfm keeps `>`; fuzz seed 1373).
        let labelClose = closingBracket(bytes, after: index)
        let keyed = labelClose.map { $0 + 1 < bytes.endIndex && bytes[$0 + 1] == ASCII.colon } ?? false
        if !keyed, let contentStart = footnoteContentStart(bytes, at: index) {
          index = contentStart
          continue
        }
        if keyed, let close = labelClose {
          let label = bytes[(index + 1)..<close]
          let key =
            label.withUnsafeBufferPointer { quoteMarkersRemoved($0) }.map { normalized($0[...]) } ?? normalized(label)
          if !key.isEmpty { labels.append(key) }
          index = close
          // A footnote definition's content may open with a definition of its own, defined for
          // the whole reply (`[^a]:[foo]: /u`, then `[foo]`: fuzz seed 1307).
          if label.first == ASCII.caret {
            index = close + 2
            continue
          }
        }
        atLineStart = false
      } else if atLineStart && !isContainerPrefix(byte) {
        atLineStart = false
      }
      index += 1
    }
    return labels
  }

  /// Where the content of the footnote definition starting at `open` starts (after its `]:`),
  /// when cmark-gfm reads one there: `[^`, a label of anything but `]`, blanks and NUL, then
  /// `]:` (``MarkdownStream/opensFootnoteDefinition(_:)``); else nil. Whether or not the scan
  /// can key its label.
  static func footnoteContentStart(_ bytes: ArraySlice<UInt8>, at open: Int) -> Int? {
    guard open + 1 < bytes.endIndex, bytes[open + 1] == ASCII.caret else { return nil }
    let lineEnd = bytes[open...].firstIndex(where: isLineBreak) ?? bytes.endIndex
    guard MarkdownStream.opensFootnoteDefinition(bytes[open..<lineEnd]),
      let close = bytes[(open + 2)..<lineEnd].firstIndex(of: ASCII.closeBracket)
    else { return nil }
    return close + 2
  }

  /// `label` without the block quote markers (and the blanks around them) that start its lines
  /// after the first, when it spans lines inside a quote: cmark-gfm reads the label of
  /// `> [a`, `> b]` as `a b`. `nil` when no later line starts with `>`.
  ///
  /// - Complexity: O(n).
  static func quoteMarkersRemoved(_ label: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard label.contains(where: isLineBreak) else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(label.count)
    var removed = false
    var index = 0
    while index < label.count {
      let byte = label[index]
      out.append(byte)
      index += 1
      guard isLineBreak(byte) else { continue }
      var after = index
      while after < label.count && (ASCII.isBlank(label[after]) || label[after] == UInt8(ascii: ">")) {
        if label[after] == UInt8(ascii: ">") { removed = true }
        after += 1
      }
      index = after
    }
    return removed ? out : nil
  }

  /// Bytes that may stand before a definition on its line: spaces, quote and list markers.
  static func isContainerPrefix(_ byte: UInt8) -> Bool {
    ASCII.isBlank(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: ")")
  }

  /// The `]` that closes the label opened at `open` (labels may span lines).
  static func closingBracket(_ bytes: ArraySlice<UInt8>, after open: Int) -> Int? {
    var index = open + 1
    let footnote = open + 1 < bytes.endIndex && bytes[open + 1] == UInt8(ascii: "^")
    while index < bytes.endIndex && (footnote || index - open - 1 <= maximumLength) {
      switch bytes[index] {
      case ASCII.backslash: index += 1
      case UInt8(ascii: "["): return nil
      case UInt8(ascii: "]"): return index
      default: break
      }
      index += 1
    }
    return nil
  }

  /// The key of a label: case-folded (``UnicodeCaseFold``), whitespace runs collapsed to one
  /// space, trimmed; a NUL as U+FFFD, as cmark-gfm reads it.
  static func normalized(_ bytes: ArraySlice<UInt8>) -> String {
    bytes.withUnsafeBufferPointer { normalized($0) }
  }

  /// ``normalized(_:)`` of the bytes in `bytes`, written straight into the string's storage.
  static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var ascii = true
    let hasNUL = bytes.contains(0)
    let text = String(unsafeUninitializedCapacity: hasNUL ? bytes.count * 3 : bytes.count) { out in
      var count = 0
      var pendingSpace = false
      for byte in bytes {
        if ASCII.isSpace(byte) {
          pendingSpace = count > 0
          continue
        }
        if pendingSpace {
          out[count] = ASCII.space
          count += 1
          pendingSpace = false
        }
        if byte == 0 {
          (out[count], out[count + 1], out[count + 2]) = (0xEF, 0xBF, 0xBD)
          count += 3
          ascii = false
          continue
        }
        if byte >= 0x80 { ascii = false }
        out[count] = ASCII.lower(byte)
        count += 1
      }
      return count
    }
    // cmark-gfm case-folds labels: `[ẞ]` is `[SS]` and `[ss]` (lowercasing gives `ß`).
    return ascii ? text : UnicodeCaseFold.fold(text)
  }
}
