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
    guard line.first == ASCII.pipe, isPlainRow(line, smartPunctuation: smartPunctuation) else { return nil }
    return build(head: head, headerLines: headerLines, line: line)
  }

  /// ``document(head:headerLines:line:smartPunctuation:)`` for a line whose bytes are checked.
  private static func build(head: MarkdownDocument, headerLines: Int, line: ArraySlice<UInt8>) -> MarkdownDocument? {
    guard let table = head.topLevelBlocks.first(where: { _ in true }), head.nodes[table].subtreeEnd == head.nodes.count,
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

  /// Where `line`, a row, splits into cells of plain words and the last cell with content (with
  /// the pipe that may close it and spaces after): the offset of the pipe that opens that cell,
  /// when every byte before it is a pipe, a space or a plain word's (see the type's summary).
  /// Nil when the line does not open with `|`, or the bytes before that cell are not plain.
  static func lastCellStart(_ line: ArraySlice<UInt8>, smartPunctuation: Bool) -> Int? {
    guard line.first == ASCII.pipe else { return nil }
    var end = line.endIndex
    while end > line.startIndex && line[end - 1] == ASCII.space { end -= 1 }
    if end - 1 > line.startIndex && line[end - 1] == ASCII.pipe { end -= 1 }
    guard let split = line[..<end].lastIndex(of: ASCII.pipe) else { return nil }
    guard plainBytes(line[..<split], smartPunctuation: smartPunctuation).plain else { return nil }
    return split - line.startIndex
  }

  /// The document of a long table's rows header `head` (``document(head:headerLines:line:smartPunctuation:)``)
  /// and the row `line` whose cells before offset `split` are plain words (``lastCellStart(_:smartPunctuation:)``),
  /// given `lastCell`, the heal of a table of one column whose only row is `line[split...]` on
  /// line 3: its cell stands at `split`, with the positions of everything in it moved there.
  /// Nil when `lastCell` is not such a table, or the cell falls past the columns.
  static func document(
    head: MarkdownDocument, headerLines: Int, line: ArraySlice<UInt8>, split: Int, lastCell: MarkdownDocument
  ) -> MarkdownDocument? {
    let blocks = Array(lastCell.topLevelBlocks)
    guard blocks.count == 1, case .table = lastCell.nodes[blocks[0]].kind,
      case let rows = Array(lastCell.children(of: blocks[0])), rows.count == 2,
      let cell = lastCell.children(of: rows[1]).first(where: { _ in true }),
      let rowRange = lastCell.nodes[rows[1]].range, rowRange.start.line == 3,
      let document = build(head: head, headerLines: headerLines, line: line[...(line.startIndex + split)]),
      let table = document.topLevelBlocks.first(where: { _ in true }),
      case .table(let alignments) = document.nodes[table].kind
    else { return nil }
    var nodes = document.nodes
    // The cells before it: those the plain part made (its row follows the head), without the
    // padding after them.
    let row = head.nodes.count
    var cells = Array(document.children(of: row))
    while let last = cells.last, nodes[last].range?.start.column == 0 {
      cells.removeLast()
    }
    guard cells.count < alignments.count else { return nil }
    nodes.removeSubrange((cells.last.map { nodes[$0].subtreeEnd } ?? row + 1)...)
    let rowLine = headerLines + 1
    let lineShift = rowLine - 3
    let columnShift = split  // the one-column row's pipe is in column 1, the line's in `split + 1`
    let base = nodes.count
    for index in cell..<lastCell.nodes[cell].subtreeEnd {
      var node = lastCell.nodes[index]
      node.subtreeEnd = node.subtreeEnd - cell + base
      node.depth = node.depth - lastCell.nodes[cell].depth + nodes[row].depth + 1
      if let range = node.range {
        node.range = SourceRange(
          start: SourcePosition(
            line: range.start.line + lineShift, column: range.start.column + (range.start.column > 0 ? columnShift : 0)),
          end: SourcePosition(
            line: range.end.line + lineShift, column: range.end.column + (range.end.column > 0 ? columnShift : 0)))
      }
      nodes.append(node)
    }
    for _ in (cells.count + 1)..<alignments.count {
      appendCell(to: &nodes, depth: nodes[row].depth + 1, line: rowLine, start: 0, end: 0, text: nil)
    }
    let end = SourcePosition(line: rowLine, column: rowRange.end.column + columnShift)
    nodes[row].subtreeEnd = nodes.count
    if let range = nodes[row].range { nodes[row].range = SourceRange(start: range.start, end: end) }
    nodes[table].subtreeEnd = nodes.count
    if let range = nodes[table].range { nodes[table].range = SourceRange(start: range.start, end: end) }
    nodes[0].subtreeEnd = nodes.count
    if let range = nodes[0].range { nodes[0].range = SourceRange(start: range.start, end: end) }
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
    let found = plainBytes(line, smartPunctuation: smartPunctuation)
    return found.plain && found.content
  }

  /// Whether every byte of `bytes` is a pipe, a space or a plain word's (see the type's
  /// summary), and whether any is not a pipe or a space.
  static func plainBytes(_ bytes: ArraySlice<UInt8>, smartPunctuation: Bool) -> (plain: Bool, content: Bool) {
    var content = false
    var nonASCII = false
    var letters = 0  // the `w` before a `.`, for `www.`
    for byte in bytes {
      switch byte {
      case ASCII.pipe, ASCII.space:
        letters = 0
        continue
      case UInt8(ascii: "w"), UInt8(ascii: "W"):
        letters += 1
      case ASCII.period:
        if letters >= 3 || smartPunctuation { return (false, content) }
        letters = 0
      case ASCII.apostrophe, ASCII.quote, ASCII.hyphen:
        if smartPunctuation { return (false, content) }
        letters = 0
      case UInt8(ascii: "#"), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "^"):
        letters = 0
      default:
        // (A tab, which `isPlain` lets in, is trimmed and counted unlike a space.)
        guard byte != ASCII.tab, PlainTextExtension.isPlain(byte) else { return (false, content) }
        if byte >= ASCII.firstNonASCII { nonASCII = true }
        letters = 0
      }
      content = true
    }
    guard nonASCII else { return (true, content) }
    // Characters beyond ASCII: whole, valid, and none that a later scalar may extend.
    let valid = String(validating: bytes, as: UTF8.self) != nil && ByteHolds.growableGraphemeLength(bytes) == 0
    return (valid, content)
  }
}
