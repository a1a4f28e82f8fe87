/// The line bookkeeping shared by the plain-text and terminal stream consumers: committed lines
/// (appended once, never changed) and the lines of the live tail (held blocks, then the open part).
///
/// Top-level units (a committed block, a held block, the open part) are separated by one empty
/// line, as the one-shot renderers separate top-level blocks.
///
/// An open long block (fenced code, list, table) is rendered in pieces: the container's head and
/// each settled part once (kept until the settled revision or the list's tightness changes), the
/// open remainder every update. The pieces join to exactly the lines of the whole open block,
/// because both renderers lay out code lines, list items and (plain text) table rows on their own.
/// Terminal tables fit their columns to every row, so with `rowsRenderApart` off a table is still
/// rendered whole.
struct StreamLineConsumer: Sendable {
  /// Whether table rows render independently of each other (plain text: yes; terminal: no).
  let rowsRenderApart: Bool
  private(set) var committedLines: [String] = []
  private(set) var tailLines: [String] = []
  private var heldLines: [String] = []
  private var settled: [MarkdownStreamSettledPart] = []
  private var revision = -1
  /// The rendered head and settled parts of the open long block.
  private var settledLines: [String] = []
  /// How many of `settled` are in `settledLines` (nil: `settledLines` is not in use).
  private var renderedParts: Int?
  private var renderedTight = true
  /// How many list items `settledLines` holds (the next item's number after the list's start).
  private var itemNumber = 0
  /// The UTF-8 length of the code in `settledLines` (an open code block).
  private var settledCodeLength = 0

  /// Whether the open long block renders in pieces (off only in tests, which compare the two).
  let inPieces: Bool

  init(rowsRenderApart: Bool, inPieces: Bool = true) {
    self.rowsRenderApart = rowsRenderApart
    self.inPieces = inPieces
  }

  /// Applies an update; returns the committed lines it added, for a writer that only appends.
  ///
  /// On a final update with a replacement, ``committedLines`` become the replacement's lines
  /// (equal to one-shot rendering); what is returned is still only what follows the lines
  /// committed before, as the whole reply renders it.
  mutating func apply(_ update: MarkdownStreamUpdate, render: (MarkdownDocument) -> [String]) -> [String] {
    var added: [String] = []
    if !update.committed.isEmpty {
      heldLines = []
      for block in update.committed {
        added += Self.unitLines(block.document, after: !committedLines.isEmpty || !added.isEmpty, render: render)
      }
      if let replacement = update.replacement {
        committedLines = render(replacement)
        heldLines = []
        tailLines = []
        return added
      }
      committedLines += added
    }
    if update.replacesHeld { heldLines = [] }
    for block in update.held {
      heldLines += Self.unitLines(block.document, after: !committedLines.isEmpty || !heldLines.isEmpty, render: render)
    }
    let tail = update.tail
    if tail.settledRevision != revision {
      settled = tail.newSettled
      revision = tail.settledRevision
      renderedParts = nil
    } else {
      settled += tail.newSettled
    }
    var lines = heldLines
    if !update.isFinal {
      let after = !committedLines.isEmpty || !lines.isEmpty
      if tail.container == nil {
        lines += Self.unitLines(tail.document, after: after, render: render)
      } else {
        Self.appendUnit(openLines(tail, render: render), to: &lines, after: after)
      }
    }
    tailLines = lines
    return added
  }

  /// The lines of a top-level unit as they follow earlier content in one-shot rendering: the
  /// separator before a block depends on the block (an empty list item after a paragraph gets
  /// no blank line), so the unit is rendered after a one-line paragraph, whose line is dropped.
  static func unitLines(_ document: MarkdownDocument, after previous: Bool, render: (MarkdownDocument) -> [String])
    -> [String]
  {
    guard previous else { return render(document) }
    var nodes: [MarkdownNode] = [
      MarkdownNode(kind: .document, subtreeEnd: document.nodes.count + 2, depth: 0),
      MarkdownNode(kind: .paragraph, subtreeEnd: 3, depth: 1),
      MarkdownNode(kind: .text("X"), subtreeEnd: 3, depth: 2),
    ]
    nodes.reserveCapacity(document.nodes.count + 2)
    for node in document.nodes.dropFirst() {
      var moved = node
      moved.subtreeEnd += 2
      nodes.append(moved)
    }
    return Array(render(MarkdownDocument(nodes: nodes, options: document.options)).dropFirst())
  }

  static func appendUnit(_ lines: [String], to target: inout [String], after previous: Bool) {
    guard !lines.isEmpty else { return }
    if previous { target.append("") }
    target += lines
  }

  // MARK: The open part

  /// The lines of the whole open part: the long block in pieces, then the tail's further blocks.
  private mutating func openLines(_ tail: MarkdownStreamTail, render: (MarkdownDocument) -> [String]) -> [String] {
    guard let container = tail.container else { return render(tail.document) }
    if case .table = container, !rowsRenderApart { return render(tail.mergedDocument(settled: settled)) }
    guard inPieces else { return render(tail.mergedDocument(settled: settled)) }
    let document = tail.document
    let blocks = Array(document.topLevelBlocks)
    var rest = blocks[...]
    var first: Int?
    if let block = blocks.first {
      switch (container, document.nodes[block].kind) {
      case (.codeBlock, .codeBlock), (.list, .list), (.table, .table):
        first = block
        rest = rest.dropFirst()
      default:
        break
      }
    }
    let tight = Self.isTight(container, open: first.map { document.nodes[$0].kind })
    if renderedParts == nil || tight != renderedTight {
      settledLines = headLines(container, render: render)
      renderedParts = 0
      renderedTight = tight
      itemNumber = 0
      settledCodeLength = 0
    }
    for part in settled.dropFirst(renderedParts ?? 0) {
      appendPart(part, container: container, tight: tight, render: render)
    }
    renderedParts = settled.count
    var lines = settledLines
    if let first {
      switch container {
      case .codeBlock:
        guard case .codeBlock(let info) = document.nodes[first].kind else { break }
        // The code so far is one empty line: the plain renderer shows nothing for it.
        if info.code.isEmpty && settledCodeLength == 1 { return render(tail.mergedDocument(settled: settled)) }
        if !info.code.isEmpty {
          lines += Self.codeLines(info.code, options: document.options, render: render)
        }
      case .list(let info):
        var number = itemNumber
        for item in document.children(of: first) {
          let itemLines = render(Self.itemDocument(document, item: item, list: info, number: number, tight: tight))
          if !tight && number > 0 && !itemLines.isEmpty { lines.append("") }
          lines += itemLines
          number += 1
        }
      case .table:
        lines += render(Self.rowsDocument(document, table: first, includeHeader: false))
      }
    }
    if !rest.isEmpty {
      var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0)]
      for block in rest { Self.append(document, block, depth: 1, to: &nodes) }
      nodes[0].subtreeEnd = nodes.count
      Self.appendUnit(
        render(MarkdownDocument(nodes: nodes, options: document.options)), to: &lines, after: !lines.isEmpty)
    }
    return lines
  }

  private static func isTight(_ container: MarkdownStreamTail.Container, open: MarkdownNode.Kind?) -> Bool {
    guard case .list(let info) = container else { return true }
    if case .list(let openInfo)? = open, !openInfo.isTight { return false }
    return info.isTight
  }

  /// The lines the container shows before its parts: a code block's label, a table's header.
  private func headLines(_ container: MarkdownStreamTail.Container, render: (MarkdownDocument) -> [String])
    -> [String]
  {
    switch container {
    case .codeBlock(let head): return render(head)
    case .list: return []
    case .table(let head):
      guard let table = head.topLevelBlocks.first(where: { _ in true }) else { return [] }
      return render(Self.rowsDocument(head, table: table, includeHeader: true))
    }
  }

  private mutating func appendPart(
    _ part: MarkdownStreamSettledPart, container: MarkdownStreamTail.Container, tight: Bool,
    render: (MarkdownDocument) -> [String]
  ) {
    let document = part.document
    switch container {
    case .codeBlock:
      if case .codeBlock(let info) = document.nodes[part.node].kind, !info.code.isEmpty {
        settledCodeLength += info.code.utf8.count
        settledLines += Self.codeLines(info.code, options: document.options, render: render)
      }
    case .list(let info):
      let lines = render(
        Self.itemDocument(document, item: part.node, list: info, number: itemNumber, tight: tight))
      if !tight && itemNumber > 0 && !lines.isEmpty { settledLines.append("") }
      settledLines += lines
      itemNumber += 1
    case .table:
      settledLines += render(Self.rowsDocument(document, table: part.node, includeHeader: false))
    }
  }

  // MARK: Piece documents

  /// The lines of code lines inside a code block. Both renderers lay out each code line on its
  /// own, but a code block drops its final newline (so `"\n"` alone would show nothing): the
  /// code is rendered after a first line `X` (in a block with no info string, so no label) and
  /// that line's rendering is dropped.
  static func codeLines(_ code: String, options: ParseOptions, render: (MarkdownDocument) -> [String]) -> [String] {
    let document = MarkdownDocument(
      nodes: [
        MarkdownNode(kind: .document, subtreeEnd: 2, depth: 0),
        MarkdownNode(kind: .codeBlock(.init(info: "", code: "X\n" + code, isFenced: true)), subtreeEnd: 2, depth: 1),
      ], options: options)
    return Array(render(document).dropFirst())
  }

  /// A list of one item, numbered `number` items after the list's start.
  static func itemDocument(
    _ document: MarkdownDocument, item: Int, list: MarkdownNode.ListInfo, number: Int, tight: Bool
  ) -> MarkdownDocument {
    var info = list
    info.start += number
    info.isTight = tight
    var nodes: [MarkdownNode] = [
      MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0), MarkdownNode(kind: .list(info), subtreeEnd: 0, depth: 1),
    ]
    append(document, item, depth: 2, to: &nodes)
    nodes[0].subtreeEnd = nodes.count
    nodes[1].subtreeEnd = nodes.count
    return MarkdownDocument(nodes: nodes, options: document.options)
  }

  /// The table `table` of `document` with only its header row, or only its body rows.
  static func rowsDocument(_ document: MarkdownDocument, table: Int, includeHeader: Bool) -> MarkdownDocument {
    var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0)]
    var tableNode = document.nodes[table]
    tableNode.depth = 1
    nodes.append(tableNode)
    for (position, row) in document.children(of: table).enumerated() where (position == 0) == includeHeader {
      append(document, row, depth: 2, to: &nodes)
    }
    guard nodes.count > 2 else {
      return MarkdownDocument(
        nodes: [MarkdownNode(kind: .document, subtreeEnd: 1, depth: 0)], options: document.options)
    }
    nodes[0].subtreeEnd = nodes.count
    nodes[1].subtreeEnd = nodes.count
    return MarkdownDocument(nodes: nodes, options: document.options)
  }

  /// Appends the subtree of `index`, its root at `depth`, with subtree ends rebased.
  private static func append(_ document: MarkdownDocument, _ index: Int, depth: Int, to nodes: inout [MarkdownNode]) {
    let shift = depth - document.nodes[index].depth
    let offset = nodes.count - index
    for position in index..<document.nodes[index].subtreeEnd {
      var node = document.nodes[position]
      node.depth += shift
      node.subtreeEnd += offset
      nodes.append(node)
    }
  }
}
