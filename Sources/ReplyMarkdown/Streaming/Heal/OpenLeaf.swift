/// The deepest last block of a parsed open part: the block whose inline content can still be
/// healed, with where that content starts and ends in the source. The healer's inline rules work
/// on this content only: blocks that are already finished never get closers.
struct OpenLeaf {
  enum Kind { case paragraph, heading, tableRow, html, other }

  let kind: Kind
  /// The offset where the inline content starts.
  let start: Int
  /// The offset where the inline content ends (before a setext underline; otherwise the end).
  let contentEnd: Int
  /// Whether nothing closed the block yet (no blank line after it).
  let isOpen: Bool

  /// Whether the leaf holds inline content the inline rules heal.
  var isInline: Bool { kind != .other && kind != .html }

  /// The open leaf of `document`, a parse of `text`; `nil` for an empty document.
  ///
  /// - Complexity: O(n) in the nodes of `document` and the bytes of `text`.
  static func find(in document: MarkdownDocument, text: [UInt8]) -> OpenLeaf? {
    let nodes = document.nodes
    let lineStarts = SourceLines.lineStarts(text)
    guard let (index, tableIndex) = lastBlock(in: document) else { return nil }
    func offset(_ position: SourcePosition) -> Int? {
      guard position.line >= 1, position.line <= lineStarts.count else { return nil }
      // cmark-gfm gives some nodes column 0 (a table cell, an HTML block's end): the line's start.
      return min(text.count, lineStarts[position.line - 1] + max(0, position.column - 1))
    }
    func isOpen(after end: Int) -> Bool {
      guard end <= text.count, SourceLines.isBlank(text, end..<text.count) else { return false }
      return SourceLines.lineStarts(text, from: end).count <= 2
    }
    if let table = tableIndex, let range = nodes[table].range, let end = offset(range.end) {
      return OpenLeaf(
        kind: .tableRow, start: lastCellStart(text, lineStart: SourceLines.lineStart(text, before: text.count)),
        contentEnd: text.count, isOpen: isOpen(after: min(text.count, end + 1)))
    }
    guard let range = nodes[index].range, let start = offset(range.start), let endInclusive = offset(range.end) else {
      return nil
    }
    let end = min(text.count, endInclusive + 1)
    switch nodes[index].kind {
    case .paragraph:
      return OpenLeaf(kind: .paragraph, start: start, contentEnd: text.count, isOpen: isOpen(after: end))
    case .heading:
      var contentEnd = text.count
      if range.end.line > range.start.line {
        // Setext: the content ends before the underline's line.
        let underline = min(text.count, lineStarts[min(range.end.line, lineStarts.count) - 1])
        contentEnd = underline
        while contentEnd > start,
          text[contentEnd - 1] == ASCII.newline || text[contentEnd - 1] == ASCII.carriageReturn
        {
          contentEnd -= 1
        }
      }
      return OpenLeaf(kind: .heading, start: start, contentEnd: contentEnd, isOpen: isOpen(after: end))
    case .htmlBlock:
      return OpenLeaf(kind: .html, start: start, contentEnd: text.count, isOpen: isOpen(after: end))
    default:
      return OpenLeaf(kind: .other, start: start, contentEnd: text.count, isOpen: false)
    }
  }

  /// The open paragraph that `text`'s last line (from `lineStart`, incomplete) opens, when the
  /// open part starts with that line and its first bytes tell without a parse: up to three
  /// spaces, at most one container marker (`-`, `*` or `+`, or up to nine digits and `.` or `)`,
  /// then one space; or `>` and at most one space), then a letter, ASCII or not, which opens no
  /// block; and no `|` on the line (a table's header to be). Used as a known paragraph, whose
  /// heal checks that the parse of the healed text keeps it (``StreamHealer``), and looks for the
  /// open block with a parse where it does not.
  static func firstLineParagraph(_ text: [UInt8], lineStart: Int) -> OpenLeaf? {
    var index = lineStart
    let end = text.count
    while index < end, index - lineStart < 3, text[index] == ASCII.space { index += 1 }
    guard index < end else { return nil }
    switch text[index] {
    case ASCII.hyphen, ASCII.star, ASCII.plus:
      guard index + 1 < end, text[index + 1] == ASCII.space else { return nil }
      index += 2
    case ASCII.greaterThan:
      index += 1
      if index < end, text[index] == ASCII.space { index += 1 }
    case let byte where ASCII.isDigit(byte):
      let digits = index
      while index < end, ASCII.isDigit(text[index]) { index += 1 }
      guard index - digits <= 9, index + 1 < end, text[index] == ASCII.period || text[index] == ASCII.closeParenthesis,
        text[index + 1] == ASCII.space
      else { return nil }
      index += 2
    default:
      break
    }
    guard index < end, ASCII.isLetter(text[index]) || text[index] >= ASCII.firstNonASCII,
      !text[lineStart...].contains(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn || $0 == ASCII.pipe })
    else { return nil }
    return OpenLeaf(kind: .paragraph, start: index, contentEnd: end, isOpen: true)
  }

  /// The open row of a table, when `text`'s last line (from `lineStart`) is sure to continue a
  /// table that the text before it holds open: without a parse (the stream's open row of a long
  /// table, after its head and settled rows). cmark-gfm's table extension takes any line that
  /// splits into at least one cell as the table's next row, and nothing else starts a block on a
  /// line whose first byte is `|`: only a `|` followed by nothing but its space characters (space,
  /// tab, vertical tab, form feed) splits into no cell (it ends the table, and starts a paragraph).
  static func continuingTableRow(_ text: [UInt8], lineStart: Int) -> OpenLeaf? {
    guard lineStart < text.count, text[lineStart] == ASCII.pipe,
      text[(lineStart + 1)...].contains(where: { !ASCII.isBlank($0) && $0 != 0x0B && $0 != 0x0C }),
      !text[lineStart...].contains(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn })
    else { return nil }
    return OpenLeaf(
      kind: .tableRow, start: lastCellStart(text, lineStart: lineStart), contentEnd: text.count, isOpen: true)
  }

  /// Where the last cell of the row on the line from `lineStart` starts: after its last pipe that
  /// is not escaped (cmark-gfm's cells: a pipe right after a backslash is escaped, even after
  /// `\\`), or at the line's start.
  private static func lastCellStart(_ text: [UInt8], lineStart: Int) -> Int {
    var start = lineStart
    for position in lineStart..<text.count where text[position] == ASCII.pipe {
      if position == lineStart || text[position - 1] != ASCII.backslash { start = position + 1 }
    }
    return start
  }

  /// Whether the deepest last block of `document` is a fenced code block (the healer's test of a
  /// fence its line scan found open: `StreamHealer.openFence` reads lines inside a raw HTML block,
  /// or in a list item that has ended, as top-level fences).
  static func endsInFencedCode(_ document: MarkdownDocument) -> Bool {
    guard let (index, _) = lastBlock(in: document), case .codeBlock(let info) = document.nodes[index].kind else {
      return false
    }
    return info.isFenced
  }

  /// The deepest last block of `document` and the table it is in, if any; `nil` for an empty
  /// document.
  private static func lastBlock(in document: MarkdownDocument) -> (block: Int, table: Int?)? {
    let nodes = document.nodes
    // The last block in the text, not in the tree: cmark-gfm moves footnote definitions (a
    // preamble's among them) to the end of the tree, out of a quote or list too. The block that
    // ends last wins (of two that end on one line, the one that starts later, then the later in the
    // tree): a footnote definition that starts in a quote on the quote's first line is not the last
    // block when the quote goes on after it (`>[^A]:[^a]`, then `>---`: fuzz seed 1377).
    var last: Int?
    var lastKey = (end: 0, start: 0)
    for block in document.topLevelBlocks {
      let range = nodes[block].range
      let key = (end: range?.end.line ?? 0, start: range?.start.line ?? 0)
      if last == nil || key >= lastKey {
        last = block
        lastKey = key
      }
    }
    guard var index = last else { return nil }
    var tableIndex: Int?
    while true {
      if case .table = nodes[index].kind { tableIndex = index }
      var lastChild: Int?
      for child in document.children(of: index) where nodes[child].kind.isBlock { lastChild = child }
      guard let child = lastChild else { break }
      index = child
    }
    return (index, tableIndex)
  }
}
