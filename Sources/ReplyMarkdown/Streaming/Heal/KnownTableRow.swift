/// A long table's row made without a parse of the table's rows header and the row: the document
/// such a parse (or a heal, for the open row) gives.
///
/// A row of plain words needs no parse at all. Such a row is one line that opens with `|` (no
/// indentation or container marker: cmark-gfm's table extension takes it for the table's next
/// row), holds something besides pipes and blanks, and is made of letters, digits, spaces, `,`
/// `.` `?` `!` `'` `"` `(` `)` `-` `/` `%` `+` `#` `=` `;` `$` `^` and complete UTF-8 characters
/// beyond ASCII that no later scalar may extend (``ByteHolds/growableGraphemeLength(_:)``); no
/// tab, no `www.`, and with smart punctuation none of `'` `"` `-` `.`. Nothing there opens,
/// closes or escapes an inline construct or links an address, so the parse would split the line
/// at its pipes and show each cell's words as one text node, which this does:
/// - the cells run from after one pipe to before the next; after the last pipe, what is left is
///   a cell only when it holds more than spaces; cells past the table's columns are dropped and
///   missing ones added, with cmark-gfm's positions (a cell added has column 0);
/// - a cell's text is its bytes without the spaces around them, and a cell of spaces has none.
///
/// Any other row that opens with `|` and holds no backslash is parsed (or healed) as a table of
/// one column whose rows are its cells holding more than plain words (``cellRows(_:pipes:numbers:)``):
/// cmark-gfm reads each cell's inlines on their own, so each of those cells, its positions moved,
/// is the row's (``document(head:headerLines:line:pipes:parsed:cells:)``), and the plain ones are
/// made. That parse is of those cells alone, not of the header and the row.
///
/// Differential tests compare the rows with the parse, node for node and position for position
/// (`KnownTableRowTests`), and streams that take them with streams that parse every row.
enum KnownTableRow {
  /// The document a heal of `header` (a long table's rows header, ``LongBlock/rowsHeader(_:alignments:)``)
  /// followed by `line` parses to, given `head`, that header parsed on its own; nil when `line`
  /// is not a row of plain words (see the type's summary).
  ///
  /// - Complexity: O(n) in the line and the nodes of `head`.
  static func document(
    head: MarkdownDocument, headerLines: Int, line: ArraySlice<UInt8>, smartPunctuation: Bool
  ) -> MarkdownDocument? {
    guard isPlainRow(line, smartPunctuation: smartPunctuation), let columns = columns(of: head),
      let pipes = cellPipes(line, columns: columns), !pipes.isEmpty
    else { return nil }
    return document(head: head, headerLines: headerLines, line: line, pipes: pipes, parsed: [], cells: nil)
  }

  /// The columns of the table `head` holds.
  static func columns(of head: MarkdownDocument) -> Int? {
    guard let table = head.topLevelBlocks.first(where: { _ in true }),
      case .table(let alignments) = head.nodes[table].kind
    else { return nil }
    return alignments.count
  }

  /// The offsets in `line`, a row that opens with `|`, of the pipes that open its cells, as
  /// cmark-gfm splits it, at most `columns`: after the last pipe, what is left is a cell only
  /// when it holds more than spaces. Nil when the line does not open with `|` or holds a
  /// backslash (an escaped pipe is part of its cell, unescaped before its inlines are read).
  static func cellPipes(_ line: ArraySlice<UInt8>, columns: Int) -> [Int]? {
    guard line.first == ASCII.pipe, !line.contains(ASCII.backslash) else { return nil }
    var pipes: [Int] = []
    for index in line.indices where line[index] == ASCII.pipe {
      pipes.append(index - line.startIndex)
      if pipes.count > columns { break }
    }
    // A pipe past the columns, or the last one with spaces alone after it, opens no cell.
    if pipes.count > columns {
      pipes.removeLast(pipes.count - columns)
    } else if let last = pipes.last, line[(line.startIndex + last + 1)...].allSatisfy({ $0 == ASCII.space }) {
      pipes.removeLast()
    }
    return pipes
  }

  /// The cells (by number) of `line` that `pipes` open (``cellPipes(_:columns:)``) that need a
  /// parse: those holding more than plain words (see the type's summary), and the last when
  /// `withLast` (a heal heals the row's last cell).
  static func parsedCells(_ line: ArraySlice<UInt8>, pipes: [Int], withLast: Bool, smartPunctuation: Bool) -> [Int] {
    pipes.indices.filter { number in
      if withLast && number == pipes.count - 1 { return true }
      let start = line.startIndex + pipes[number] + 1
      let end = number + 1 < pipes.count ? line.startIndex + pipes[number + 1] : line.endIndex
      return !plainBytes(line[start..<end], smartPunctuation: smartPunctuation).plain
    }
  }

  /// Whether the cells of `line` may be parsed on their own: the input guard would read it as
  /// it reads them, far below its limits. To the guard a row is one paragraph, whose delimiter
  /// runs, brackets and unclosed HTML it counts: a row of 400 bytes or more, or with 32 `<`,
  /// could pass a limit that its cells do not.
  static func mayParseCells(_ line: ArraySlice<UInt8>) -> Bool {
    line.count < 400 && line.count(where: { $0 == ASCII.lessThan }) < 32
  }

  /// The rows of a table of one column (after ``oneColumnHeader``), one for each of the cells
  /// `numbers` of `line` that `pipes` open, each its cell as it stands in the row: from its pipe
  /// through the pipe that closes it, the last cell of the line through the line's end; every
  /// row but the last ended by `\n`. cmark-gfm reads each cell's inlines on their own, so the
  /// cells of those rows are the row's, at other positions.
  static func cellRows(_ line: ArraySlice<UInt8>, pipes: [Int], numbers: [Int]) -> [UInt8] {
    var rows: [UInt8] = []
    for number in numbers {
      let start = line.startIndex + pipes[number]
      if number + 1 < pipes.count {
        rows += line[start...(line.startIndex + pipes[number + 1])]
      } else {
        rows += line[start...]
      }
      if number != numbers.last { rows.append(ASCII.newline) }
    }
    return rows
  }

  /// The head a row's cells are parsed after (``cellRows(_:pipes:numbers:)``).
  static let oneColumnHeader = Array("|a|\n|-|\n".utf8)

  /// The document of a long table's rows header `head` and the row `line` whose cells `pipes`
  /// open (``cellPipes(_:columns:)``), given `cells`, the one-column table of the rows of the
  /// cells `parsed` (``cellRows(_:pipes:numbers:)`` after ``oneColumnHeader``) parsed or healed:
  /// each of those rows' cell stands in `line`'s row at its pipe, with the positions of
  /// everything in it moved there; the other cells, plain words, are made as in a row of plain
  /// words; cells are added up to the columns. Nil when `cells` is not such a table.
  static func document(
    head: MarkdownDocument, headerLines: Int, line: ArraySlice<UInt8>, pipes: [Int], parsed: [Int],
    cells: MarkdownDocument?
  ) -> MarkdownDocument? {
    guard !pipes.isEmpty, let table = head.topLevelBlocks.first(where: { _ in true }),
      head.nodes[table].subtreeEnd == head.nodes.count, case .table(let alignments) = head.nodes[table].kind,
      !alignments.isEmpty, pipes.count <= alignments.count
    else { return nil }
    var rows: [Int] = []
    if let cells {
      let blocks = Array(cells.topLevelBlocks)
      guard blocks.count == 1, case .table = cells.nodes[blocks[0]].kind else { return nil }
      rows = Array(cells.children(of: blocks[0])).dropFirst().map { $0 }
    }
    guard rows.count == parsed.count else { return nil }
    let rowLine = headerLines + 1
    var nodes = head.nodes
    let row = nodes.count
    let depth = head.nodes[table].depth + 1
    nodes.append(MarkdownNode(kind: .tableRow(isHeader: false), subtreeEnd: row, depth: depth))
    var end = SourcePosition(line: rowLine, column: line.count)
    var next = 0  // the next of `parsed`
    for (number, pipe) in pipes.enumerated() {
      let start = pipe + 1  // 0-based, after the pipe
      // The last cell ends at the pipe that may close it.
      let cellEnd =
        number + 1 < pipes.count
        ? pipes[number + 1]
        : (line[(line.startIndex + start)...].firstIndex(of: ASCII.pipe) ?? line.endIndex)
          - line.startIndex
      guard next < parsed.count, parsed[next] == number, let cells else {
        // Plain words: the cell without the spaces around its text.
        var first = start
        var last = cellEnd
        while first < last && line[line.startIndex + first] == ASCII.space { first += 1 }
        while last > first && line[line.startIndex + last - 1] == ASCII.space { last -= 1 }
        appendCell(
          to: &nodes, depth: depth + 1, line: rowLine, start: start + 1, end: cellEnd,
          text: first < last ? (line[(line.startIndex + first)..<(line.startIndex + last)], first + 1, last) : nil)
        continue
      }
      let cellsRow = rows[next]
      guard let range = cells.nodes[cellsRow].range, range.start.line == 3 + next,
        let cell = cells.children(of: cellsRow).first(where: { _ in true })
      else { return nil }
      next += 1
      // The one-column row's pipe is in column 1, the cell's in `pipe + 1`.
      let lineShift = rowLine - range.start.line
      let base = nodes.count
      for index in cell..<cells.nodes[cell].subtreeEnd {
        var node = cells.nodes[index]
        node.subtreeEnd = node.subtreeEnd - cell + base
        node.depth = node.depth - cells.nodes[cell].depth + depth + 1
        if let range = node.range {
          node.range = SourceRange(
            start: SourcePosition(
              line: range.start.line + lineShift, column: range.start.column + (range.start.column > 0 ? pipe : 0)),
            end: SourcePosition(
              line: range.end.line + lineShift, column: range.end.column + (range.end.column > 0 ? pipe : 0)))
        }
        nodes.append(node)
      }
      // The last cell's row, healed, may end past the line (closers added).
      if number == pipes.count - 1 { end = SourcePosition(line: rowLine, column: range.end.column + pipe) }
    }
    for _ in pipes.count..<alignments.count {
      appendCell(to: &nodes, depth: depth + 1, line: rowLine, start: 0, end: 0, text: nil)
    }
    nodes[row].subtreeEnd = nodes.count
    nodes[row].range = SourceRange(start: SourcePosition(line: rowLine, column: 1), end: end)
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
