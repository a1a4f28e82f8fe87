/// The healer's shortcut for the commonest update of all: a chunk of plain words that continues the
/// last line of the open paragraph (or heading, or a table's open row). The healed tail of the last
/// update then needs no new parse: its last text node grows by the chunk.
///
/// The shortcut is taken only where a parse could not answer differently, which is checked, not
/// assumed:
/// - the last tail was healed exactly (``mayExtend(after:)``: nothing held back, nothing closed
///   but emphasis after the text), and its document ends in a text node that is a child of a
///   paragraph, heading or table cell ending on the last line (or of emphasis, strong emphasis
///   or strikethrough in one, which the healer closed), its bytes the received bytes before the
///   end (trailing blanks aside);
/// - what block the last line is, is settled (``isSettled(line:)``): no list marker, tag,
///   definition label or table row still to be; or, in a table cell, the line is a row that
///   stays one with the same cells (``continuesTable(line:)``);
/// - the new bytes are ``isPlain(_:)``, `:` or `=`, without a line break; no word they reach
///   holds `www.`, `@`, or a `:` followed by anything but a blank (an autolink to be, or one that
///   grows); they do not end in a grapheme that later scalars could extend.
///
/// Plain bytes are letters, digits, blanks, `, . ? ! ' " ( ) - / % +` and non-ASCII text: none of
/// them opens, closes or escapes an inline construct or completes an entity or a tag. Inside a
/// line whose block is settled, `:` and `=` are as inert, but for the autolink a `:` may make
/// (`=` makes a setext underline only as the first byte of a line's content, and the line has
/// content already). Whatever else arrives goes through the healer as usual. A differential
/// test compares the shortcut with a full heal at every update, on the corpus and on generated
/// replies.
enum PlainTextExtension {
  /// Whether `byte` can neither start nor end an inline construct (see the type's summary).
  @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
    if byte >= ASCII.firstNonASCII { return true }
    if ASCII.isLetter(byte) || ASCII.isDigit(byte) { return true }
    switch byte {
    case ASCII.space, ASCII.tab, UInt8(ascii: ","), ASCII.period, ASCII.question, ASCII.exclamation, ASCII.apostrophe,
      ASCII.quote, ASCII.openParenthesis, ASCII.closeParenthesis, ASCII.hyphen, ASCII.slash, UInt8(ascii: "%"),
      ASCII.plus:
      return true
    default:
      return false
    }
  }

  /// Whether a tail healed with the rules `applied` may be extended later: nothing was held back
  /// (trailing blanks and markers aside), and what was closed, only inline closers appended after
  /// the text (``openText(of:source:lastLine:checksPositions:)`` takes the text only inside emphasis, strong
  /// emphasis or strikethrough, whose closers do not depend on the words before them: a closer at
  /// the end is right-flanking after any character but whitespace); hidden footnote references may
  /// show, and so may links waiting for their definition (checked in ``openText(of:source:lastLine:checksPositions:)``: a `(` or
  /// `[` after one could still make it an inline link). A definition arrives as a line of its own,
  /// and the stream heals afresh then.
  static func mayExtend(after applied: AppliedHealRules) -> Bool {
    applied.rules.allSatisfy { Self.exactRules.contains($0) }
  }

  /// Whether `byte` may continue a settled line without a heal: ``isPlain(_:)``, `:` or `=`.
  @inline(__always) static func continuesLine(_ byte: UInt8) -> Bool {
    isPlain(byte) || byte == ASCII.colon || byte == UInt8(ascii: "=")
  }

  /// Whether `byte` is one that smart punctuation reads with its neighbours (quotes, a dash or
  /// ellipsis to be): with that option on, it takes a heal.
  @inline(__always) static func isSmartPunctuation(_ byte: UInt8) -> Bool {
    byte == ASCII.apostrophe || byte == ASCII.quote || byte == ASCII.hyphen || byte == ASCII.period
  }

  static let exactRules: [HealRule] = [
    .trailingMarkers, .pendingReferenceLink, .unresolvedFootnoteReference, .inlineClosersInnermostFirst,
    .wordReopensEmphasis, .wideScriptOpensEmphasis,
  ]

  /// What ``extend(_:source:previousEnd:lastLine:checksPositions:smartPunctuation:)`` found.
  enum Extension {
    /// The document, and the text its last node gained.
    case extended(MarkdownDocument, appended: String)
    /// Not yet: the text ends in a character that later scalars may still extend.
    case notYet
    /// Not from this tail: what arrived is no plain text continuing its line, or the tail's text
    /// cannot grow, which later bytes do not change; or an address may form in the words it
    /// reaches, which a later blank may settle (`a:`, then ` b`), and the next heal then makes a
    /// tail that may grow again. Asking on every update cost the line each time (a long line of
    /// emoji or of addresses asked, and failed, on every update).
    case never
  }

  /// The healed document for `source`, when the tail `document` was healed from
  /// `source[..<previousEnd]` (with rules that ``mayExtend(after:)`` accepts), its last line being
  /// line `lastLine` of the healed text, and what arrived since is plain text continuing that
  /// line.
  ///
  /// - Complexity: O(length of the last line).
  static func extend(
    _ document: MarkdownDocument, source: ArraySlice<UInt8>, previousEnd: Int, lastLine: Int,
    checksPositions: Bool, smartPunctuation: Bool
  ) -> Extension {
    let new = source[previousEnd...]
    guard !new.isEmpty, new.allSatisfy({ continuesLine($0) && !(smartPunctuation && isSmartPunctuation($0)) }) else {
      return .never
    }
    // The shown text ends before trailing blanks and Unicode spaces; those and the new bytes follow
    // it. A character a blank follows is complete.
    var end = trimmedEnd(source, floor: previousEnd)
    if end == source.endIndex, let last = source.last, last >= ASCII.firstNonASCII,
      endsInGrowableGrapheme(source[..<end])
    {
      return .notYet
    }
    guard
      let found = openText(
        of: document, source: source[..<previousEnd], lastLine: lastLine, checksPositions: checksPositions)
    else { return .never }
    // A title's closer may end a title that a definition at the paragraph's start opened lines
    // before (`[a]: /u "ti`, then `tle"`): the paragraph was that definition all along.
    if new.contains(where: { $0 == ASCII.quote || $0 == ASCII.apostrophe || $0 == ASCII.closeParenthesis }),
      mayStartWithDefinition(document, paragraph: found.parent)
    {
      return .never
    }
    // A label that opens the paragraph over lines, then `:` (`[`, `foo`, `]:`): a destination
    // arriving on the line makes the paragraph a definition, which shows nothing (the spec's
    // example of a label over lines streamed as a paragraph for one update: the fast-path sweep).
    // A label on the line itself keeps the line unsettled (``isSettled(line:)``).
    if awaitsDestination(document, paragraph: found.parent) { return .never }
    // Inside emphasis, the heal closes the text differently when the received bytes end in a blank
    // (its markers are final then): both ends must not.
    if found.emphasisLevels > 0 && (end < source.endIndex || found.end < previousEnd) { return .notYet }
    end = trimmedEnd(source[..<end], floor: found.end)
    let appended = source[found.end..<end]
    // Inside emphasis, the closers the heal wrote read the character before them, which flanks
    // them otherwise when it is punctuation (`**fo **bar(*  .   . 1  1`, then `.`, showed strong
    // emphasis where the heal shows two emphases: fuzz seed 1354): no punctuation last, before
    // and after.
    if found.emphasisLevels > 0,
      endsInPunctuation(source[found.start..<found.end]) || endsInPunctuation(appended)
    {
      return .never
    }
    if mayFormAutolink(source[found.lineStart..<end], from: found.end) { return .never }
    var nodes = document.nodes
    let appendedText = String(decoding: appended, as: UTF8.self)
    nodes[nodes.count - 1].kind = .text(found.literal + appendedText)
    // The text node and what ends with it or after it on its line (the emphasis around it, its
    // block and the blocks containing that: nothing else follows the last node) end later by as
    // many bytes.
    if let old = nodes[nodes.count - 1].range?.end {
      for index in nodes.indices {
        guard let end = nodes[index].range?.end, end.line == old.line, end.column >= old.column else { continue }
        nodes[index].range?.end.column += appended.count
      }
    }
    return .extended(
      MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics),
      appended: appendedText)
  }

  /// Whether the paragraph at `paragraph` in `document` opens as a definition whose title runs
  /// on over its lines would show: with a label (a link, or text starting with `[`), or with a
  /// title's opener (the title of a definition whose lines before were taken as one: `[a]: /u`,
  /// then `"ti`; a review).
  static func mayStartWithDefinition(_ document: MarkdownDocument, paragraph: Int) -> Bool {
    guard case .paragraph = document.nodes[paragraph].kind, paragraph + 1 < document.nodes.count else { return false }
    switch document.nodes[paragraph + 1].kind {
    case .link: return true
    case .text(let literal):
      guard let first = literal.utf8.first else { return false }
      return first == ASCII.openBracket || first == ASCII.quote || first == ASCII.apostrophe
        || first == ASCII.openParenthesis
    default: return false
    }
  }

  /// Whether the paragraph at `paragraph`, the last block of `document`, is a link and the text
  /// `:` (blanks aside): a definition's label and colon, waiting for its destination.
  static func awaitsDestination(_ document: MarkdownDocument, paragraph: Int) -> Bool {
    let nodes = document.nodes
    let label = paragraph + 1
    guard label < nodes.count, case .link = nodes[label].kind, nodes[label].subtreeEnd == nodes.count - 1,
      case .text(let literal) = nodes[nodes.count - 1].kind
    else { return false }
    let bytes = literal.utf8
    return bytes.first == ASCII.colon && bytes.dropFirst().allSatisfy(ASCII.isBlank)
  }

  /// The open text: the last node of a healed tail when it is text on the received text's last line.
  struct OpenText {
    var literal: String
    /// Where the literal's bytes start and end in the received text, and where their line starts.
    var start: Int
    var end: Int
    var lineStart: Int
    /// The paragraph, heading or table cell it is in.
    var parent: Int
    /// How many emphasis, strong emphasis and strikethrough nodes it is in (closed by the heal).
    var emphasisLevels: Int
  }

  /// The last text node of `document`, a tail healed exactly (rules that ``mayExtend(after:)``
  /// accepts) from `source`, with where it is in `source`: when it is a child of a paragraph,
  /// heading or table cell that ends on `lastLine` of the healed text (or of emphasis the heal
  /// closed in one), its bytes are the received bytes before the end (trailing blanks aside), it
  /// ends in no marker, and what block the line is, is settled (a cell's row shows every cell of
  /// its line). With `checksPositions` (the heal hid text), it also ends where its block does,
  /// outside emphasis.
  static func openText(
    of document: MarkdownDocument, source: ArraySlice<UInt8>, lastLine: Int, checksPositions: Bool
  ) -> OpenText? {
    let nodes = document.nodes
    guard let last = nodes.last, case .text(let literal) = last.kind, last.depth > 0 else { return nil }
    // The paragraph or heading the text is in, through the emphasis, strong emphasis and
    // strikethrough the healer closed after it (the text ends the received bytes, so no closer
    // of theirs has arrived; more plain words go inside them, before the same closers).
    var parent = nodes.count - 1
    var depth = last.depth
    var emphasisLevels = 0
    while true {
      guard let above = nodes[..<parent].lastIndex(where: { $0.depth == depth - 1 }) else { return nil }
      parent = above
      depth -= 1
      switch nodes[parent].kind {
      case .paragraph, .heading, .tableCell: break
      case .emphasis, .strong, .strikethrough:
        emphasisLevels += 1
        continue
      default: return nil
      }
      break
    }
    guard let blockEnd = nodes[parent].range?.end, blockEnd.line == lastLine else { return nil }
    // When the heal hid text (a footnote reference whose definition has not arrived, `([^1](`,
    // left a `(` to be taken for the last one), the text must end where the block's content
    // does, outside emphasis, whose closers' lengths are not known here (four levels of one-byte
    // closers spanned a hidden `[^1]`: a review). Only then: a tail healed through a clean point
    // joins documents whose positions need not agree.
    if checksPositions {
      guard emphasisLevels == 0, let textEnd = last.range?.end, textEnd == blockEnd else { return nil }
    }
    // After a link waiting for its definition, a `(` or `[` shown as text may yet be its
    // destination or label.
    if nodes[parent..<nodes.count].contains(where: { node in
      if case .link(let info) = node.kind { return info.isPending }
      return false
    }) {
      for node in nodes[parent..<nodes.count] {
        if case .text(let string) = node.kind,
          string.utf8.contains(where: { $0 == ASCII.openParenthesis || $0 == ASCII.openBracket })
        {
          return nil
        }
      }
    }
    let end = trimmedEnd(source, floor: source.startIndex)
    let bytes = literal.utf8
    // A marker shown at the end (a heal that closed nothing) may open or close once a word
    // follows it.
    guard let lastByte = bytes.last, !ByteHolds.isTrailingMarker(lastByte), end - source.startIndex >= bytes.count,
      source[(end - bytes.count)..<end].equalsUTF8(of: literal)
    else { return nil }
    let lineStart =
      source[..<end].lastIndex(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn }).map { $0 + 1 }
      ?? source.startIndex
    guard lineStart <= end - bytes.count else { return nil }
    // Where the heal hid text, the literal may match the received bytes before the end and still
    // stand before the hidden text: its end column must be the line's (`a [^a`, its reference
    // hidden, then ` b`, showed `a b`: the literal `a` matched the label's last byte; the
    // fast-path sweep).
    if checksPositions {
      guard let textEnd = last.range?.end, textEnd.column == end - lineStart else { return nil }
    }
    if case .tableCell = nodes[parent].kind {
      // The last cell shown may be one before the line's last (cells past the header's count are
      // dropped), whose words the line may end with all the same: the row shows as many cells as
      // the line holds. (Not by the text's end column: cmark-gfm counts a table's columns from
      // its first line's indentation, `  a`, `|-|`, `|c|cde`, showed `cde` in the first cell; a
      // review.)
      guard continuesTable(line: source[lineStart..<end]),
        let row = nodes[..<parent].lastIndex(where: { $0.depth == nodes[parent].depth - 1 }),
        case .tableRow = nodes[row].kind,
        document.children(of: row).reduce(0, { count, _ in count + 1 }) == cellCount(ofRow: source[lineStart..<end])
      else { return nil }
    } else {
      guard isSettled(line: source[lineStart..<end]) else { return nil }
    }
    return OpenText(
      literal: literal, start: end - bytes.count, end: end, lineStart: lineStart, parent: parent,
      emphasisLevels: emphasisLevels)
  }

  /// Whether what block `line` (an incomplete last line) is can no longer change while it grows:
  /// its content after quote and list markers is not empty, not inside a list marker (`12`), not
  /// a tag being named (`<di`) or a label that may be a definition's (`[x]:`), not a line of `=`
  /// alone or of `-` and `:` alone (a setext underline, a break or a table's delimiter row, which
  /// a byte of another kind makes text again), and it has no `|` (a table header to be).
  ///
  /// A `[` or `<` starting the content settles once what follows it decides: a bracketed label
  /// not followed by `:` is no definition (a link, a task marker, text), and `<` followed by a
  /// URI scheme and `:` names no tag (an autolink or text).
  static func isSettled(line: ArraySlice<UInt8>) -> Bool {
    let hold = LineHold(line)
    guard let first = hold.content.first, !hold.endsInsideMarker else { return false }
    // cmark-gfm's tasklist extension takes a task item's marker off its text, which may then open
    // a definition (`- [ ] [^1  ]:` and `3`, a link definition's label: shown as text through
    // the words added without a parse, where the parse showed an empty item; the fast-path sweep).
    let text = hold.hasContainerMarker ? Self.afterTaskMarker(hold.content) : hold.content
    if text.first == ASCII.openBracket && !isLabelNotDefinition(text) { return false }
    if first == ASCII.lessThan && !isSchemeAfterLessThan(hold.content) { return false }
    // (`==`, then a line `===` under it and `==` more: the words added without a parse went into
    // the heading's text, `==` as the underline's last bytes; fuzz seed 1369. A line of `-` and
    // `:` may be a table's delimiter row, under a header without a pipe too: `:-`, then `:`
    // growing to `:-:`, showed text where a parse shows a table; fuzz seed 1371.)
    if first == ASCII.equals && hold.content.allSatisfy({ $0 == ASCII.equals || ASCII.isBlank($0) }) { return false }
    if hold.content.allSatisfy({ $0 == ASCII.hyphen || $0 == ASCII.colon || ASCII.isBlank($0) }) { return false }
    return !line.contains(ASCII.pipe)
  }

  /// Whether `line`, whose last cell the text is in, stays a row of its table with the same
  /// cells as it grows by plain words: it opens with `|` (no container marker, no indentation)
  /// and holds more than blanks after it, which cmark-gfm's table extension always takes for the
  /// table's next row (``OpenLeaf/continuingTableRow(_:lineStart:)``), and plain words add no
  /// pipe.
  static func continuesTable(line: ArraySlice<UInt8>) -> Bool {
    guard line.first == ASCII.pipe else { return false }
    return line.dropFirst().contains { !ASCII.isBlank($0) && $0 != 0x0B && $0 != 0x0C }
  }

  /// How many cells cmark-gfm's table extension splits `row` into, a line that opens with `|` and
  /// does not end with one: one per pipe that no backslash escapes (a pipe right after a
  /// backslash is escaped, even after `\\`; a code span does not hide one).
  static func cellCount(ofRow row: ArraySlice<UInt8>) -> Int {
    var count = 0
    for index in row.indices where row[index] == ASCII.pipe {
      if index == row.startIndex || row[index - 1] != ASCII.backslash { count += 1 }
    }
    return count
  }

  /// Whether the last character of `text` is punctuation as cmark-gfm reads it beside a delimiter
  /// run (``InlineHealScanner/isPunctuation(_:)``).
  static func endsInPunctuation(_ text: ArraySlice<UInt8>) -> Bool {
    guard let last = text.last else { return false }
    if last < ASCII.firstNonASCII { return ASCII.isPunctuation(last) }
    var start = text.endIndex - 1
    while start > text.startIndex && ASCII.isUTF8Continuation(text[start]) { start -= 1 }
    guard let scalar = String(decoding: text[start...], as: UTF8.self).unicodeScalars.last else { return false }
    return InlineHealScanner.isPunctuation(scalar)
  }

  /// `content` after a task item's marker (`[ ]`, `[x]` or `[X]` and a blank) and the blanks that
  /// follow it; `content` itself when it opens with none.
  static func afterTaskMarker(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let start = content.startIndex
    guard content.count >= 4, content[start] == ASCII.openBracket, content[start + 2] == ASCII.closeBracket,
      content[start + 1] == ASCII.space || content[start + 1] | 0x20 == ASCII.lowercaseX,
      ASCII.isBlank(content[start + 3])
    else { return content }
    return content.dropFirst(3).drop(while: ASCII.isBlank)
  }

  /// Whether a paragraph whose text from its start is `text`, which opens with `[`, can never be
  /// a link or footnote definition, however it grows: its first label is closed, a byte other than
  /// `:` follows it (a definition opens `[label]:`), and it is no task item's marker (which
  /// cmark-gfm's tasklist extension takes off, leaving what follows it to open a definition).
  static func opensNoDefinition(_ text: ArraySlice<UInt8>) -> Bool {
    afterTaskMarker(text).startIndex == text.startIndex && isLabelNotDefinition(text)
  }

  /// Whether `content`, starting with `[`, holds a label closed by `]` followed by a byte other
  /// than `:`.
  private static func isLabelNotDefinition(_ content: ArraySlice<UInt8>) -> Bool {
    guard let close = ReferenceLabels.closingBracket(content, after: content.startIndex) else { return false }
    return close + 1 < content.endIndex && content[close + 1] != ASCII.colon
  }

  /// Whether `content`, starting with `<`, continues with two or more letters and `:` (a URI
  /// scheme: no tag name holds a colon).
  private static func isSchemeAfterLessThan(_ content: ArraySlice<UInt8>) -> Bool {
    let letters = content.dropFirst().prefix(while: ASCII.isLetter)
    return letters.count >= 2 && letters.endIndex < content.endIndex && content[letters.endIndex] == ASCII.colon
  }

  /// Whether the words of `text` (the last line) from the one that reaches across `boundary`
  /// (the shown text before it, new text after) hold `www.`, `@`, or a `:` that is not followed
  /// by a blank (`http:`, `mailto:x`, or a `:` still last): an autolink to be, or one that grows.
  /// A `:` a blank follows ends its word, which then can be no scheme.
  private static func mayFormAutolink(_ text: ArraySlice<UInt8>, from boundary: Int) -> Bool {
    var start = boundary
    while start > text.startIndex, !ASCII.isBlank(text[start - 1]) { start -= 1 }
    // Read in place, lowercased byte by byte (a word of a script without blanks is the whole line).
    let end = text.endIndex
    for index in start..<end {
      switch ASCII.lower(text[index]) {
      case UInt8(ascii: "@"):
        return true
      case ASCII.colon:
        if index + 1 == end || !ASCII.isBlank(text[index + 1]) { return true }
      case UInt8(ascii: "w"):
        if index + 3 < end, ASCII.lower(text[index + 1]) == UInt8(ascii: "w"),
          ASCII.lower(text[index + 2]) == UInt8(ascii: "w"), text[index + 3] == ASCII.period
        {
          return true
        }
      default:
        break
      }
    }
    return false
  }

  /// Where `source` ends before its trailing blanks and Unicode spaces (no further back than
  /// `floor`): the healer trims both before the closers it appends, and shows neither at the end.
  static func trimmedEnd(_ source: ArraySlice<UInt8>, floor: Int) -> Int {
    var end = source.endIndex
    while case let space = ByteHolds.trailingSpaceLength(source[..<end], floor: floor), space > 0 { end -= space }
    return end
  }

  /// ``HealRule/growableGrapheme`` on the new end.
  private static func endsInGrowableGrapheme(_ text: ArraySlice<UInt8>) -> Bool {
    ByteHolds.growableGraphemeLength(text) > 0
  }
}
