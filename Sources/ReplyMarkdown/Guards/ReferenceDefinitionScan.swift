/// Finds the longest reference definition (`[label]: destination "title"`) of a document: what a
/// single reference link may copy into the output. Definitions whose destination or title goes on
/// past their first line are charged up to the next blank line.
///
/// - Complexity: O(n).
struct ReferenceDefinitionScan {
  /// The most output bytes one byte of a definition may render as, in each link that copies it:
  /// six (`'` in a destination renders as `&#x27;`, `"` in a title as `&quot;`; `[` as `%5B`). A
  /// reference link is charged the longest definition times this: charged its bytes alone, links
  /// to a destination of `'` rendered about six times the budget (found beside fuzz seed 1398's
  /// input, whose 10 MB came from links a table left uncharged).
  static let renderedBytesPerByte = 6

  let bytes: UnsafeBufferPointer<UInt8>
  var lines: LineBreaks
  let footnotes: Bool
  /// After ``longestDefinition()``: where the first definition starts that runs on over lines to
  /// the end of the text, its paragraph not ended (a text that grows may make it longer).
  private(set) var openDefinitionStart: Int?
  /// After ``longestDefinition()``: where a definition starts that fits on the text's last line,
  /// whose next line has not arrived (it may hold a title: `[x]: /u`, then `"t…`).
  private(set) var lastLineDefinitionStart: Int?

  init(lines: LineBreaks, footnotes: Bool) {
    self.bytes = lines.bytes
    self.lines = lines
    self.footnotes = footnotes
  }

  mutating func longestDefinition() -> Int {
    var longest = 0
    let count = bytes.count
    // The end of the paragraph that the last multi-line definition ran to, reused by later ones.
    var knownParagraphEnd = -1
    // Only a line holding a `[` can start a definition: go from one such line to the next. `done`
    // is where the last line looked at ends, so that looking back for a line's start stays linear.
    var done = 0
    var bracket = bytes.firstOffset(of: UInt8(ascii: "["), from: 0, to: count)
    while bracket < count {
      // `bracket` is the line's first `[`: a definition needs only marker bytes before it.
      var start = bracket
      while start > done && Self.mayPrecedeLabel(bytes[start - 1]) { start -= 1 }
      let end = lines.lineEnd(from: bracket)
      let atLineStart = start == done || bytes[start - 1] == ASCII.newline || bytes[start - 1] == ASCII.carriageReturn
      if atLineStart, let singleLine = definitionIsSingleLine(start: start, end: end) {
        if singleLine {
          longest = max(longest, end - start)
          if lines.nextLine(after: end) >= count { lastLineDefinitionStart = start }
        } else if let titleEnd = closedTitleLineEnd(after: end, definitionStart: start) {
          // Its title on the next line, closed there: two lines, not the paragraph (counted so, one
          // such definition among 300 short ones made every reference cost all of them, and an
          // ordinary 14 KB reply lost 286 links).
          longest = max(longest, titleEnd - start)
        } else {
          if knownParagraphEnd < end { knownParagraphEnd = paragraphEnd(after: end) }
          longest = max(longest, knownParagraphEnd - start)
          if knownParagraphEnd == count && openDefinitionStart == nil { openDefinitionStart = start }
        }
      }
      done = end
      bracket = bytes.firstOffset(of: UInt8(ascii: "["), from: end, to: count)
    }
    return longest
  }

  /// Whether `byte` is one of the container marker bytes skipped before a definition's label:
  /// space, tab, digits, `>`, `-`, `*`, `+`, `.`, `)`.
  @inline(__always) static func mayPrecedeLabel(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x30...0x39, 0x3E, 0x2D, 0x2A, 0x2B, 0x2E, 0x29: return true
    default: return false
    }
  }

  /// `nil` when the line does not start a definition; else whether the definition fits on it.
  func definitionIsSingleLine(start: Int, end: Int) -> Bool? {
    // Skip container markers, loosely (`>`, list markers, footnote definitions): counting a line
    // that is no definition only makes the budget stricter.
    var position = start
    while position < end {
      let byte = bytes[position]
      if Self.mayPrecedeLabel(byte) {
        position += 1
        continue
      }
      if footnotes && byte == UInt8(ascii: "[") && position + 1 < end && bytes[position + 1] == UInt8(ascii: "^") {
        var close = position + 2
        while close < end && bytes[close] != UInt8(ascii: "]") { close += 1 }
        guard close + 1 < end, bytes[close + 1] == UInt8(ascii: ":") else { return nil }
        position = close + 2
      } else {
        break
      }
    }
    guard position < end, bytes[position] == UInt8(ascii: "[") else { return nil }
    guard let close = labelEnd(opening: position) else { return nil }
    // A label that goes on over lines (or to the end of the text, which may go on): a definition
    // that runs on.
    if close >= end {
      return close == bytes.count || (close + 1 < bytes.count && bytes[close + 1] == UInt8(ascii: ":")) ? false : nil
    }
    guard close + 1 < end, bytes[close + 1] == UInt8(ascii: ":") else { return nil }
    var rest = close + 2
    while rest < end && ASCII.isBlank(bytes[rest]) { rest += 1 }
    if rest == end { return false }
    // Destination.
    if bytes[rest] == UInt8(ascii: "<") {
      while rest < end && bytes[rest] != UInt8(ascii: ">") { rest += 1 }
      rest += 1
    } else {
      while rest < end && !ASCII.isBlank(bytes[rest]) { rest += 1 }
    }
    while rest < end && ASCII.isBlank(bytes[rest]) { rest += 1 }
    // A title may follow on the next line, but only one starting with a title's opener (after
    // container markers, loosely): a run of definitions, one per line, is not one long definition
    // (counted so, 50 definitions of 1 KB each made every `[` cost 50 KB, and links in a 50 KB
    // reply were escaped).
    guard rest < end else { return !nextLineMayHoldTitle(after: end) }
    let opener = bytes[rest]
    let closer: UInt8
    switch opener {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): closer = opener
    case UInt8(ascii: "("): closer = UInt8(ascii: ")")
    default: return true
    }
    var index = rest + 1
    while index < end {
      if bytes[index] == ASCII.backslash {
        index += 2
        continue
      }
      if bytes[index] == closer { return true }
      index += 1
    }
    return false
  }

  /// The `]` that closes the label opened at `open`, read as cmark-gfm reads a link label: an
  /// unescaped `[` inside, or more than ``maximumLabelLength`` bytes, make it none (`nil`); the
  /// text's end, where it may go on, is `bytes.count`. A label may go on over lines; the container
  /// markers that start them are not counted, loosely (fewer bytes counted only keeps more
  /// labels, which the budget charges). A line opening `` [` `` and 360 `[`, no label,
  /// was charged up to the next blank line 3 KB later, and each of its brackets that much: one-shot
  /// rendering escaped 46 of them where cmark-gfm defines nothing, and a stream that had written
  /// the line before the rest arrived could not end as `render` (a review).
  ///
  /// - Complexity: O(``maximumLabelLength``) plus the container markers skipped.
  func labelEnd(opening open: Int) -> Int? {
    var index = open + 1
    var length = 0
    while index < bytes.count {
      let byte = bytes[index]
      var step = 1
      switch byte {
      case UInt8(ascii: "]"): return index
      case UInt8(ascii: "["): return nil
      case ASCII.backslash:
        // An escaped punctuation character is the label's text.
        if index + 1 < bytes.count && ASCII.isPunctuation(bytes[index + 1]) { step = 2 }
      case ASCII.newline, ASCII.carriageReturn:
        index += 1
        while index < bytes.count && Self.mayPrecedeLabel(bytes[index]) { index += 1 }
        length += 1
        continue
      default: break
      }
      index += step
      length += step
      if length > Self.maximumLabelLength { return nil }
    }
    return bytes.count
  }

  /// The most bytes cmark-gfm reads in a link label (`MAX_LINK_LABEL_LENGTH`).
  static let maximumLabelLength = 1000

  /// Whether the line after the one ending at `end` may start with a definition's title: its
  /// first byte past container markers and blanks is `"`, `'` or `(`.
  func nextLineMayHoldTitle(after end: Int) -> Bool {
    mayHoldTitle(lineAt: lines.nextLine(after: end))
  }

  /// Where the line after `end` ends, when the definition starting at `definitionStart` is
  /// complete on its first line but for a title (``DefinitionRest/complete``) and that next line
  /// is its title, closed there (``DefinitionRest/titled``); else nil.
  mutating func closedTitleLineEnd(after end: Int, definitionStart: Int) -> Int? {
    var label = definitionStart
    while label < end && bytes[label] != UInt8(ascii: "[") { label += 1 }
    guard label < end, let close = labelEnd(opening: label), close + 1 < end, bytes[close + 1] == UInt8(ascii: ":"),
      Self.definitionRest(bytes, from: close + 2, to: end) == .complete
    else { return nil }
    let next = lines.nextLine(after: end)
    guard next < bytes.count else { return nil }
    let lineEnd = lines.lineEnd(from: next)
    var position = next
    while position < lineEnd && Self.mayPrecedeLabel(bytes[position]) { position += 1 }
    return lineEnd < bytes.count && Self.titleRest(bytes, from: position, to: lineEnd) == .titled ? lineEnd : nil
  }

  /// What follows a definition's label and `:` on its line, as cmark-gfm reads a definition.
  enum DefinitionRest {
    /// A destination and no title: the definition may end here (a title may still open on the
    /// next line).
    case complete
    /// A destination and a title closed on the line, then only blanks: the definition ends here.
    case titled
    /// Nothing yet, or a title that does not close on the line: the definition runs on over the
    /// next lines, which the run leaves out (they are scanned, which only makes limits stricter).
    case runsOn
    /// What makes no definition: this line is text.
    case notDefinition
  }

  /// Reads the rest of a definition's line in `bytes` from `start` (after the label's `:`) to `end`:
  /// blanks, a destination (`<…>` on the line, or bytes other than blanks and control characters
  /// with balanced unescaped parentheses), and after blanks a title (`"…"`, `'…'`, `(…)`) or
  /// nothing, then only blanks. Stricter than cmark-gfm where in doubt: a line read as no
  /// definition has its bracket charged.
  static func definitionRest(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> DefinitionRest {
    var index = start
    func skipBlanks() { while index < end && ASCII.isBlank(bytes[index]) { index += 1 } }
    skipBlanks()
    guard index < end else { return .runsOn }
    if bytes[index] == ASCII.lessThan {
      index += 1
      while index < end && bytes[index] != ASCII.greaterThan {
        if bytes[index] == ASCII.lessThan { return .notDefinition }
        index += bytes[index] == ASCII.backslash ? 2 : 1
      }
      guard index < end else { return .notDefinition }
      index += 1
    } else {
      // (cmark-gfm nests parentheses 32 deep at most, and a backslash escapes punctuation only:
      // `a\ b` ends at the blank.)
      var depth = 0
      while index < end && !ASCII.isBlank(bytes[index]) {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return .notDefinition }
        if byte == ASCII.backslash && index + 1 < end && ASCII.isPunctuation(bytes[index + 1]) {
          index += 2
          continue
        }
        if byte == ASCII.openParenthesis {
          depth += 1
          if depth > 32 { return .notDefinition }
        }
        if byte == ASCII.closeParenthesis {
          depth -= 1
          if depth < 0 { return .notDefinition }
        }
        index += 1
      }
      guard depth == 0 else { return .notDefinition }
    }
    let destinationEnd = index
    skipBlanks()
    guard index < end else { return .complete }
    guard index > destinationEnd else { return .notDefinition }
    return titleRest(bytes, from: index, to: end)
  }

  /// Reads a definition's title from `start` to the line's `end`: `.titled` when it opens there
  /// (`"`, `'`, `(`), closes on the line and only blanks follow; `.runsOn` when it does not close
  /// on the line, or holds a backslash (cmark-gfm's scanner takes the longest title, which an
  /// escape may carry past the first closer, onto later lines: `"\\"`); else `.notDefinition`
  /// (a title in parentheses holds no unescaped `(`).
  static func titleRest(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> DefinitionRest {
    guard start < end, opensTitle(bytes[start]) else { return .notDefinition }
    let opener = bytes[start]
    let closer = opener == ASCII.openParenthesis ? ASCII.closeParenthesis : opener
    var index = start + 1
    while index < end && bytes[index] != closer {
      if bytes[index] == ASCII.backslash { return .runsOn }
      if opener == ASCII.openParenthesis && bytes[index] == ASCII.openParenthesis { return .notDefinition }
      index += 1
    }
    guard index < end else { return .runsOn }
    index += 1
    while index < end && ASCII.isBlank(bytes[index]) { index += 1 }
    return index >= end ? .titled : .notDefinition
  }

  /// Whether the line starting at `start` may start with a definition's title (as
  /// ``nextLineMayHoldTitle(after:)`` says of the next line).
  func mayHoldTitle(lineAt start: Int) -> Bool {
    var position = start
    while position < bytes.count && Self.mayPrecedeLabel(bytes[position]) { position += 1 }
    return position < bytes.count && Self.opensTitle(bytes[position])
  }

  /// Whether `byte` opens a link title: `"`, `'` or `(`.
  @inline(__always) static func opensTitle(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "(")
  }

  /// The offset of the first blank line after the line ending at `offset` (-1: from the text's
  /// start), or the end of the input.
  func paragraphEnd(after offset: Int) -> Int {
    // (After a line's end: a CRLF is one line break, not a blank line between its bytes. Started at
    // the LF, a definition over lines was measured as its first line: 7.5 KB made 10.8 MB of HTML.)
    // (`offset` -1: from the text's start.)
    var start = offset < 0 ? 0 : lines.nextLine(after: offset)
    let count = bytes.count
    while start < count {
      var end = start
      var blank = true
      while end < count && bytes[end] != 0x0A && bytes[end] != 0x0D {  // \n \r
        let byte = bytes[end]
        if byte != 0x20 && byte != 0x09 && byte != 0x3E { blank = false }  // space tab >
        end += 1
      }
      if blank { return start }
      start = lines.nextLine(after: end)
    }
    return count
  }
}
