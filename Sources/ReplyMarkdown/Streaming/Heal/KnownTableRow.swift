/// A long table's open row made without a parse: the document a heal of the table's rows header
/// and that row would give, when the row is one that nothing in it can change as cmark-gfm reads
/// it.
///
/// Such a row is one line that opens with `|` (no indentation or container marker: cmark-gfm's
/// table extension takes it for the table's next row), holds something besides pipes and blanks,
/// and is made of plain words only: letters, digits, spaces, `,` `.` `?` `!` `'` `"` `(` `)` `-`
/// `/` `%` `+` `#` `=` `;` `$` `^` and complete UTF-8 characters beyond ASCII that no later
/// scalar may extend (``ByteHolds/growableGraphemeLength(_:)``); no tab, no `www.`, and with smart
/// punctuation none of `'` `"` `-` `.`. Nothing there opens, closes or escapes an inline
/// construct, links an address or needs a heal, so the parse would split the line at its pipes
/// and show each cell's words as one text node — which this does:
/// - the cells run from after one pipe to before the next; after the last pipe, what is left is
///   a cell only when it holds more than spaces; cells past the table's columns are dropped and
///   missing ones added, with cmark-gfm's positions (a cell added has column 0);
/// - a cell's text is its bytes without the spaces around them, and a cell of spaces has none.
///
/// A differential test compares each such row with the heal's parse, node for node, positions
/// included (`KnownTableRowTests`).
enum KnownTableRow {
  /// The document a heal of `header` (a long table's rows header, ``LongBlock/rowsHeader(_:alignments:)``)
  /// followed by `line` parses to, given `head`, that header parsed on its own; nil when `line`
  /// is not such a row (see the type's summary).
  ///
  /// - Complexity: O(n) in the line and the nodes of `head`.
  static func document(
    head: MarkdownDocument, headerLines: Int, line: ArraySlice<UInt8>, smartPunctuation: Bool
  ) -> MarkdownDocument? {
    guard line.first == ASCII.pipe, isPlainRow(line, smartPunctuation: smartPunctuation),
      let table = head.topLevelBlocks.first(where: { _ in true }), head.nodes[table].subtreeEnd == head.nodes.count,
      case .table(let alignments) = head.nodes[table].kind, !alignments.isEmpty
    else { return nil }
    let rowLine = headerLines + 1
    var nodes = head.nodes
    let rowIndex = nodes.count
    let depth = head.nodes[table].depth + 1
    nodes.append(
      MarkdownNode(
        kind: .tableRow(isHeader: false), subtreeEnd: rowIndex, depth: depth,
        range: SourceRange(
          start: SourcePosition(line: rowLine, column: 1), end: SourcePosition(line: rowLine, column: line.count))))
    // Columns are 1-based byte offsets in the line.
    let bytes = Array(line)
    var cellStart = 1  // just after the leading pipe
    var cells = 0
    while cells < alignments.count && cellStart < bytes.count {
      var cellEnd = cellStart
      while cellEnd < bytes.count && bytes[cellEnd] != ASCII.pipe { cellEnd += 1 }
      let closed = cellEnd < bytes.count
      var first = cellStart
      var last = cellEnd
      while first < last && bytes[first] == ASCII.space { first += 1 }
      while last > first && bytes[last - 1] == ASCII.space { last -= 1 }
      // After the last pipe, spaces alone make no cell.
      if !closed && first == last { break }
      appendCell(
        to: &nodes, depth: depth + 1, line: rowLine, start: cellStart + 1, end: cellEnd,
        text: first < last ? (bytes[first..<last], first + 1, last) : nil)
      cells += 1
      cellStart = cellEnd + 1
    }
    while cells < alignments.count {
      appendCell(to: &nodes, depth: depth + 1, line: rowLine, start: 0, end: 0, text: nil)
      cells += 1
    }
    nodes[rowIndex].subtreeEnd = nodes.count
    nodes[table].subtreeEnd = nodes.count
    if let range = nodes[table].range {
      nodes[table].range = SourceRange(start: range.start, end: SourcePosition(line: rowLine, column: line.count))
    }
    nodes[0].subtreeEnd = nodes.count
    if let range = nodes[0].range {
      nodes[0].range = SourceRange(start: range.start, end: SourcePosition(line: rowLine, column: line.count))
    }
    return MarkdownDocument(nodes: nodes, options: head.options)
  }

  /// Appends a cell spanning the columns `start...end` of `line` and, when given, its text
  /// (spanning `text.1...text.2`).
  private static func appendCell(
    to nodes: inout [MarkdownNode], depth: Int, line: Int, start: Int, end: Int,
    text: (bytes: ArraySlice<UInt8>, Int, Int)?
  ) {
    let cell = nodes.count
    nodes.append(
      MarkdownNode(
        kind: .tableCell, subtreeEnd: cell + (text == nil ? 1 : 2), depth: depth,
        range: SourceRange(
          start: SourcePosition(line: line, column: start), end: SourcePosition(line: line, column: end))))
    guard let text else { return }
    nodes.append(
      MarkdownNode(
        kind: .text(String(decoding: text.bytes, as: UTF8.self)), subtreeEnd: cell + 2, depth: depth + 1,
        range: SourceRange(
          start: SourcePosition(line: line, column: text.1), end: SourcePosition(line: line, column: text.2))))
  }

  /// Whether `line` is made of a row's plain words only (see the type's summary), and holds
  /// something besides pipes and spaces.
  static func isPlainRow(_ line: ArraySlice<UInt8>, smartPunctuation: Bool) -> Bool {
    var content = false
    var nonASCII = false
    var letters = 0  // the `w` before a `.`, for `www.`
    for byte in line {
      switch byte {
      case ASCII.pipe, ASCII.space:
        letters = 0
        continue
      case UInt8(ascii: "w"), UInt8(ascii: "W"):
        letters += 1
      case ASCII.period:
        if letters >= 3 || smartPunctuation { return false }
        letters = 0
      case ASCII.apostrophe, ASCII.quote, ASCII.hyphen:
        if smartPunctuation { return false }
        letters = 0
      case UInt8(ascii: "#"), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "^"):
        letters = 0
      default:
        // (A tab, which `isPlain` lets in, is trimmed and counted unlike a space.)
        guard byte != ASCII.tab, PlainTextExtension.isPlain(byte) else { return false }
        if byte >= ASCII.firstNonASCII { nonASCII = true }
        letters = 0
      }
      content = true
    }
    guard content else { return false }
    guard nonASCII else { return true }
    // Characters beyond ASCII: whole, valid, and none that a later scalar may extend.
    return String(validating: line, as: UTF8.self) != nil && ByteHolds.growableGraphemeLength(line) == 0
  }
}
