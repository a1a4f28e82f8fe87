/// The line output form of the stream consumer, shared by the plain-text and terminal renderers:
/// committed lines (appended once, never changed) and the lines of the live tail (held blocks,
/// then the open part).
///
/// Top-level units (a committed block, a held block, the open part) are separated as the one-shot
/// renderers separate top-level blocks.
///
/// An open long block renders in pieces that join to exactly the lines of the whole open block,
/// because both renderers lay out code lines, list items and (plain text) table rows on their
/// own. Terminal tables fit their columns to every row: with ``terminalTables`` an open table is
/// laid out by an ``ANSIStreamTable`` (settled rows kept while the layout holds); otherwise, with
/// `rowsRenderApart` off, it is rendered whole.
struct LineStreamOutput: StreamConsumerOutput {
  static var piecesFollowHeld: Bool { false }

  /// Renders a document as lines.
  let render: @Sendable (MarkdownDocument) -> [String]
  /// Whether table rows render independently of each other (plain text: yes; terminal: no).
  let rowsRenderApart: Bool
  /// Whether the open long block renders in pieces (off only in tests, which compare the two).
  let inPieces: Bool
  /// Whether held blocks listed again unchanged keep their lines (off only in tests, which
  /// compare the two).
  let reusesHeld: Bool
  /// The options of the terminal renderer whose tables an open table is laid out for, or nil.
  let terminalTables: ANSIOptions?
  /// The open table, laid out for the terminal (with ``terminalTables``).
  private var table: ANSIStreamTable?
  /// The open table's rows and borders after ``settledLines``, laid out this update.
  private var openTableLines: [String] = []
  /// The table rows laid out for the terminal by open tables before ``table``.
  private var finishedTableRows = 0
  private(set) var committedLines: [String] = []
  private(set) var rewroteCommitted = false
  private(set) var tailLines: [String] = []
  /// The committed lines the current update added, as they follow the lines committed before.
  private(set) var added: [String] = []
  private var heldLines: [String] = []
  /// The lines of the held blocks, kept for when they are listed again or commit unchanged.
  private var heldCache = HeldRenderCache<[String]>()
  /// How many of ``tailLines`` are the held lines, their separator and the first `settled` of
  /// ``settledLines``, which later updates keep: an open long block's tail then costs only its
  /// new lines, not all of its settled ones again. Nil when the held lines or the long block
  /// changed.
  private var stablePrefix: (count: Int, settled: Int)?
  /// The rendered head and settled parts of the open long block.
  private var settledLines: [String] = []
  /// How many list items `settledLines` holds (the next item's number after the list's start).
  private var itemNumber = 0
  /// The UTF-8 length of the code in `settledLines` (an open code block).
  private var settledCodeLength = 0
  /// Renders lines of code in a language from a highlighting state (the terminal renderer with a
  /// highlighter), or nil to render code pieces through ``render`` unhighlighted.
  let renderCode: CodeRenderer?
  /// Whether a tail that adds plain words to the last text of the tail shown
  /// (``MarkdownStreamTail/extends``) adds them to the last line: the plain text renderer writes
  /// a paragraph's or heading's text on one line, as it stands (the terminal wraps and styles it).
  let appendsText: Bool
  /// Whether code that continues the open line of an open code block (a tail that
  /// ``MarkdownStreamTail/extends`` one with a code block container) adds to the last line: the
  /// plain text renderer writes code as it stands (the terminal escapes and highlights it).
  let appendsCode: Bool
  /// The serial of the tail whose open part, with no container or as an open code block's lines,
  /// ends ``tailLines``; `nil` when something else changed them since.
  private var shownOpen: Int?
  /// The language name of the open code block.
  private var settledCodeLanguage: String?
  /// The highlighting state after the settled code lines: each settled line is highlighted once.
  private var settledCodeState = CodeLineState.initial

  /// Lines of code, a language name and the state before them → their lines and the state after.
  typealias CodeRenderer = @Sendable (String, String?, CodeLineState) -> (lines: [String], state: CodeLineState)

  init(
    rowsRenderApart: Bool, inPieces: Bool = true, reusesHeld: Bool = true, renderCode: CodeRenderer? = nil,
    terminalTables: ANSIOptions? = nil, appendsText: Bool = false, appendsCode: Bool = false,
    render: @escaping @Sendable (MarkdownDocument) -> [String]
  ) {
    self.appendsText = appendsText
    self.appendsCode = appendsCode
    self.rowsRenderApart = rowsRenderApart
    self.inPieces = inPieces
    self.reusesHeld = reusesHeld
    self.terminalTables = terminalTables
    self.renderCode = renderCode
    self.render = render
  }

  mutating func startUpdate() { added = [] }

  mutating func commit(_ blocks: [MarkdownStreamBlock]) {
    shownOpen = nil
    if !reusesHeld { heldCache.removeAll() }
    stablePrefix = nil
    heldLines = []
    tailLines = []
    for block in blocks {
      let after = !committedLines.isEmpty || !added.isEmpty
      added +=
        heldCache.take(id: block.id, document: block.document, after: after)
        ?? Self.unitLines(block.document, after: after, render: render)
    }
    committedLines += added
  }

  /// ``committedLines`` become the replacement's lines (equal to one-shot rendering); ``added``
  /// is still only what follows the lines committed before, as the whole reply renders it: the
  /// replacement's lines after them. (Not the final update's blocks rendered: where the whole
  /// reply's parse places a block before the lines committed — cmark-gfm gives a table the
  /// position of the paragraph its header row ended — they leave it out: fuzz seed 1340 lost a
  /// table so.) When the replacement rewrote committed lines, the final update's blocks.
  mutating func replaceAll(with document: MarkdownDocument, committing blocks: [MarkdownStreamBlock]) {
    shownOpen = nil
    let committed = committedLines
    committedLines = render(document)
    if committedLines.starts(with: committed) {
      added = Array(committedLines[committed.count...])
    } else {
      rewroteCommitted = true
      for block in blocks {
        added += Self.unitLines(block.document, after: !committed.isEmpty || !added.isEmpty, render: render)
      }
    }
    heldCache.removeAll()
    stablePrefix = nil
    heldLines = []
    tailLines = []
  }

  mutating func dropHeld() {
    shownOpen = nil
    heldLines = []
    stablePrefix = nil
  }

  mutating func hold(_ blocks: [MarkdownStreamHeldBlock]) {
    shownOpen = nil
    stablePrefix = nil
    if !reusesHeld { heldCache.removeAll() }
    let render = render
    for block in blocks {
      let after = !committedLines.isEmpty || !heldLines.isEmpty
      heldLines += heldCache.rendering(id: block.id, document: block.document, after: after) {
        Self.unitLines(block.document, after: after, render: render)
      }
    }
  }

  func rendersInPieces(_ container: MarkdownStreamTail.Container) -> Bool {
    if case .table = container, !rowsRenderApart, terminalTables == nil { return false }
    return inPieces
  }

  mutating func beginPieces(_ container: MarkdownStreamTail.Container?, tight: Bool) {
    if container != nil { shownOpen = nil }
    stablePrefix = nil
    itemNumber = 0
    settledCodeLength = 0
    settledCodeState = .initial
    settledCodeLanguage = nil
    if case .codeBlock(let head)? = container, let first = head.topLevelBlocks.first(where: { _ in true }),
      case .codeBlock(let info) = head.nodes[first].kind
    {
      settledCodeLanguage = info.language
    }
    finishTable()
    if case .table(let head)? = container, let terminalTables {
      table = ANSIStreamTable(options: terminalTables, head: head)
      // The head's lines depend on the layout: the first update lays them out.
      settledLines = []
      return
    }
    settledLines = container.map { headLines($0) } ?? []
  }

  /// How many held blocks were rendered so far (a held block listed again unchanged is not).
  var heldBlocksRendered: Int { heldCache.renders }

  /// The table rows laid out for the terminal so far, over every open table: how tests see that
  /// an update lays out only its new and open rows.
  var tableRowsLaidOut: Int { finishedTableRows + (table?.rowsLaidOut ?? 0) }

  /// Forgets the open terminal table, counting the rows it laid out.
  private mutating func finishTable() {
    finishedTableRows += table?.rowsLaidOut ?? 0
    table = nil
    openTableLines = []
  }

  mutating func appendPart(
    _ part: MarkdownStreamSettledPart, position: Int, container: MarkdownStreamTail.Container, tight: Bool
  ) {
    let document = part.document
    switch container {
    case .codeBlock:
      if case .codeBlock(let info) = document.nodes[part.node].kind, !info.code.isEmpty {
        settledCodeLength += info.code.utf8.count
        if let renderCode {
          let rendered = renderCode(info.code, settledCodeLanguage, settledCodeState)
          settledCodeState = rendered.state
          settledLines += rendered.lines
        } else {
          settledLines += Self.codeLines(info.code, options: document.options, render: render)
        }
      }
    case .list(let info):
      let lines = render(
        Self.itemDocument(document, item: part.node, list: info, number: itemNumber, tight: tight))
      if !tight && itemNumber > 0 && !lines.isEmpty { settledLines.append("") }
      settledLines += lines
      itemNumber += 1
    case .table:
      if table != nil {
        table?.settle(document, table: part.node)
      } else {
        settledLines += render(Self.rowsDocument(document, table: part.node, includeHeader: false))
      }
    }
  }

  mutating func showOpen(_ open: StreamOpenPart?) {
    guard let open else {
      shownOpen = nil
      stablePrefix = nil
      tailLines = heldLines
      return
    }
    // Read once: each read of a tail's container copies it.
    let tail = open.tail
    let container = tail.container
    var isCode = false
    var itemOrRow = false
    var inContainer = true
    switch container {
    case .codeBlock?: isCode = true
    // (A table's rows split into lines apart from a layout: as a list's items.)
    case .list?: itemOrRow = true
    case .table?: itemOrRow = table == nil
    case nil: inContainer = false
    }
    // Words continue the last line shown: of the open part, or of a long list's open item or a
    // long table's open row (not laid out), whose lines end the lines shown.
    if tail.extends != 0, tail.extends == shownOpen, !tailLines.isEmpty,
      (appendsText && (!inContainer || itemOrRow) && Self.endsWithShownText(tailLines.last, tail: tail))
        // Code continues the open line, which ends the lines shown (it holds no line break).
        || (appendsCode && isCode)
    {
      tailLines[tailLines.count - 1] += tail.appendedText
      shownOpen = tail.serial
      return
    }
    shownOpen = nil
    if open.inPieces, case .table = container, table != nil {
      layOutTable(tail.remainder)
    }
    if inContainer, case .afterSettled(let rest) = openLines(open), !(settledLines.isEmpty && rest.isEmpty) {
      // The held lines and the settled lines shown last stay; only what follows them is new.
      if let stable = stablePrefix, stable.settled <= settledLines.count, stable.count <= tailLines.count {
        tailLines.removeSubrange(stable.count...)
        tailLines += settledLines[stable.settled...]
      } else {
        tailLines = heldLines
        if !committedLines.isEmpty || !heldLines.isEmpty { tailLines.append("") }
        tailLines += settledLines
      }
      stablePrefix = (tailLines.count, settledLines.count)
      tailLines += rest
      // The open item's (or row's) last line ends the lines shown.
      if itemOrRow && !rest.isEmpty { shownOpen = tail.serial }
      if appendsCode, isCode, tail.remainder.nodes.count == 2,
        case .codeBlock(let info) = tail.remainder.nodes[1].kind, !info.code.isEmpty
      {
        // The open code alone, its last line the last line shown.
        shownOpen = tail.serial
      }
      return
    }
    stablePrefix = nil
    var lines = heldLines
    let after = !committedLines.isEmpty || !lines.isEmpty
    if !inContainer {
      lines += Self.unitLines(tail.remainder, after: after, render: render)
      shownOpen = tail.serial
    } else {
      switch openLines(open) {
      case .whole(let unit): Self.appendUnit(unit, to: &lines, after: after)
      case .afterSettled(let rest): Self.appendUnit(settledLines + rest, to: &lines, after: after)
      }
    }
    tailLines = lines
  }

  /// Whether `line` ends with the text the last node of the tail that `tail` extends showed (its
  /// text without ``MarkdownStreamTail/appendedText``), as far as the last 16 bytes tell: the
  /// words go after it.
  static func endsWithShownText(_ line: String?, tail: MarkdownStreamTail) -> Bool {
    guard var line, let last = tail.remainder.nodes.last, case .text(var text) = last.kind else { return false }
    let appended = tail.appendedText.utf8.count
    // Read as bytes: the reversed views of the strings cost more than the rest of such an update.
    return text.withUTF8 { text in
      let shownEnd = text.count - appended
      guard shownEnd > 0 else { return false }
      let compared = min(16, shownEnd)
      return line.withUTF8 { line in
        guard line.count >= compared else { return false }
        for offset in 1...compared where line[line.count - offset] != text[shownEnd - offset] { return false }
        return true
      }
    }
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

  /// The lines of the open part in a container: the whole of it rendered at once, or (in pieces)
  /// the lines that follow ``settledLines``.
  private enum OpenLines {
    case whole([String])
    case afterSettled([String])
  }

  /// The lines of the whole open part in a container: the long block (in pieces, or whole), then
  /// the tail's further blocks.
  private func openLines(_ open: StreamOpenPart) -> OpenLines {
    let tail = open.tail
    guard open.inPieces, let container = tail.container else {
      return .whole(render(tail.mergedDocument(settled: open.settled)))
    }
    let document = tail.remainder
    if case .codeBlock = container, document.nodes.count == 2, case .codeBlock(let info) = document.nodes[1].kind,
      !info.code.isEmpty
    {
      // The commonest open part of all, a fence's open line, without listing blocks (as below).
      if let renderCode { return .afterSettled(renderCode(info.code, settledCodeLanguage, settledCodeState).lines) }
      return .afterSettled(Self.codeLines(info.code, options: document.options, render: render))
    }
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
    var lines: [String] = []
    if case .table = container, table != nil {
      lines = openTableLines
    } else if let first {
      switch container {
      case .codeBlock:
        guard case .codeBlock(let info) = document.nodes[first].kind else { break }
        // The code so far is one empty line: the plain renderer shows nothing for it.
        if info.code.isEmpty && settledCodeLength == 1 {
          return .whole(render(tail.mergedDocument(settled: open.settled)))
        }
        if let renderCode, !info.code.isEmpty {
          // The open lines are provisional: highlighted from the settled state, never kept.
          lines += renderCode(info.code, settledCodeLanguage, settledCodeState).lines
        } else if !info.code.isEmpty {
          lines += Self.codeLines(info.code, options: document.options, render: render)
        }
      case .list(let info):
        var number = itemNumber
        for item in document.children(of: first) {
          let itemLines = render(Self.itemDocument(document, item: item, list: info, number: number, tight: open.tight))
          if !open.tight && number > 0 && !itemLines.isEmpty { lines.append("") }
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
        render(MarkdownDocument(nodes: nodes, options: document.options)), to: &lines,
        after: !lines.isEmpty || !settledLines.isEmpty)
    }
    return .afterSettled(lines)
  }

  /// Lays out the open terminal table for this update: the settled lines grow by the rows settled
  /// since, or (the layout changed) are laid out again and shown anew.
  private mutating func layOutTable(_ remainder: MarkdownDocument) {
    guard let (settled, open) = table?.layOut(open: remainder) else { return }
    switch settled {
    case .appended(let lines):
      settledLines += lines
    case .replaced(let lines):
      settledLines = lines
      stablePrefix = nil
    }
    openTableLines = open
  }

  /// The lines the container shows before its parts: a code block's label, a table's header.
  private func headLines(_ container: MarkdownStreamTail.Container) -> [String] {
    switch container {
    case .codeBlock(let head): return render(head)
    case .list: return []
    case .table(let head):
      guard let table = head.topLevelBlocks.first(where: { _ in true }) else { return [] }
      return render(Self.rowsDocument(head, table: table, includeHeader: true))
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
