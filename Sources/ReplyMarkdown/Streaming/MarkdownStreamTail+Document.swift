extension MarkdownStreamTail {
  /// The whole open part as one standalone document: the container's head, the settled parts and
  /// the open remainder merged into one block, followed by the tail's further blocks.
  ///
  /// Line-based consumers (plain text, terminal) render the open block whole with it.
  /// - Complexity: O(n) in the nodes of the settled parts and the tail; no recursion.
  func mergedDocument(settled: [MarkdownStreamSettledPart]) -> MarkdownDocument {
    guard let container else { return remainder }
    let blocks = Array(remainder.topLevelBlocks)
    var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0)]
    var rest = blocks[...]
    func copy(_ source: MarkdownDocument, _ index: Int, depth: Int) {
      let shift = depth - source.nodes[index].depth
      for position in index..<source.nodes[index].subtreeEnd {
        var node = source.nodes[position]
        node.depth += shift
        nodes.append(node)
      }
    }
    switch container {
    case .codeBlock(let head):
      guard let first = head.topLevelBlocks.first(where: { _ in true }),
        case .codeBlock(var info) = head.nodes[first].kind
      else { return remainder }
      var code = ""
      for part in settled {
        if case .codeBlock(let partInfo) = part.document.nodes[part.node].kind { code += partInfo.code }
      }
      if let open = blocks.first, case .codeBlock(let openInfo) = remainder.nodes[open].kind {
        code += openInfo.code
        rest = rest.dropFirst()
      }
      info.code = code
      nodes.append(MarkdownNode(kind: .codeBlock(info), subtreeEnd: 0, depth: 1, range: head.nodes[first].range))
    case .list(var info):
      var openList: Int?
      if let open = blocks.first, case .list(let openInfo) = remainder.nodes[open].kind {
        openList = open
        rest = rest.dropFirst()
        if !openInfo.isTight { info.isTight = false }
      }
      nodes.append(MarkdownNode(kind: .list(info), subtreeEnd: 0, depth: 1))
      for part in settled { copy(part.document, part.node, depth: 2) }
      if let openList {
        for item in remainder.children(of: openList) { copy(remainder, item, depth: 2) }
      }
    case .table(let head):
      guard let table = head.topLevelBlocks.first(where: { _ in true }) else { return remainder }
      copy(head, table, depth: 1)
      for part in settled {
        for row in part.document.children(of: part.node).dropFirst() { copy(part.document, row, depth: 2) }
      }
      if let open = blocks.first, case .table = remainder.nodes[open].kind {
        for row in remainder.children(of: open).dropFirst() { copy(remainder, row, depth: 2) }
        rest = rest.dropFirst()
      }
    }
    for block in rest { copy(remainder, block, depth: 1) }
    var open: [Int] = []
    for index in nodes.indices {
      while let last = open.last, nodes[last].depth >= nodes[index].depth {
        nodes[last].subtreeEnd = index
        open.removeLast()
      }
      open.append(index)
    }
    for index in open { nodes[index].subtreeEnd = nodes.count }
    return MarkdownDocument(nodes: nodes, options: remainder.options, diagnostics: remainder.diagnostics)
  }
}
