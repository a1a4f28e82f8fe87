extension MarkdownStream {
  /// A standalone document of the top-level `blocks` of `document`, its lines shifted by
  /// `lineShift`.
  ///
  /// - Complexity: O(n) in the nodes copied; no recursion.
  static func extract(_ document: MarkdownDocument, blocks: [Int], lineShift: Int) -> MarkdownDocument {
    var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0)]
    for block in blocks {
      let end = document.nodes[block].subtreeEnd
      let offset = nodes.count - block
      for index in block..<end {
        var node = document.nodes[index]
        node.subtreeEnd += offset
        node.range = shifted(node.range, lines: lineShift)
        nodes.append(node)
      }
    }
    nodes[0].subtreeEnd = nodes.count
    return MarkdownDocument(nodes: nodes, options: document.options)
  }

  /// `document` with every line number moved by `lines` (ranges cmark-gfm left at 0:0 stay so).
  static func shifted(_ document: MarkdownDocument, lines: Int) -> MarkdownDocument {
    guard lines != 0 else { return document }
    var nodes = document.nodes
    for index in nodes.indices where nodes[index].range != nil {
      nodes[index].range = shifted(nodes[index].range, lines: lines)
    }
    return MarkdownDocument(nodes: nodes, options: document.options)
  }

  static func shifted(_ range: SourceRange?, lines: Int) -> SourceRange? {
    guard var range, lines != 0, range.start.line >= 1 else { return range }
    range.start.line += lines
    range.end.line += lines
    // Moved above line 1: a node of the preamble (a footnote definition the final parse keeps
    // from an earlier piece), whose place in the reply this parse does not know. No range, rather
    // than a line below 1 (a library trial found `data-sourcepos="-3:7--3:10"`).
    return range.start.line >= 1 ? range : nil
  }

  /// `reparsed` with each list as loose or tight as in `original`, a parse of the same blocks
  /// that saw the line after them, when both hold as many lists.
  ///
  /// A held block is parsed again from its own text when a definition it waits for arrives, which
  /// changes how its labels resolve, never its blocks. But cmark-gfm decides a list's looseness
  /// where the line after it closes it: a block start there (`# h`, `[^b]:`) ends the list before
  /// the paragraph of definitions its last item may end with is removed, and that paragraph,
  /// after a blank line, makes the list loose (`1. [z]`, a blank, `   [X]:y`, then `# h`). Parsed
  /// alone, the paragraph went first, and the list committed tight into a pipe (fuzz seed 1406).
  /// Parsing the block again with that line instead costs the line's bytes on every such parse,
  /// which no bound limits.
  ///
  /// - Complexity: O(n) in the nodes of both documents.
  static func keepingListLooseness(of original: MarkdownDocument, in reparsed: MarkdownDocument) -> MarkdownDocument {
    func lists(_ document: MarkdownDocument) -> [Int] {
      document.nodes.indices.filter {
        if case .list = document.nodes[$0].kind { return true }
        return false
      }
    }
    let before = lists(original)
    let after = lists(reparsed)
    guard !after.isEmpty, before.count == after.count else { return reparsed }
    var nodes = reparsed.nodes
    var changed = false
    for (from, to) in zip(before, after) {
      guard case .list(let first) = original.nodes[from].kind, case .list(var info) = nodes[to].kind,
        info.isTight != first.isTight
      else { continue }
      info.isTight = first.isTight
      nodes[to].kind = .list(info)
      changed = true
    }
    return changed ? MarkdownDocument(nodes: nodes, options: reparsed.options) : reparsed
  }

  /// `document` without the top-level blocks `drop` picks.
  static func droppingBlocks(_ document: MarkdownDocument, where drop: (MarkdownNode) -> Bool) -> MarkdownDocument {
    let blocks = Array(document.topLevelBlocks)
    // A block cmark-gfm left without a position (the paragraph a table grew from) goes with the
    // block after it.
    var dropped = [Bool](repeating: false, count: blocks.count)
    var next = false
    for position in blocks.indices.reversed() {
      let node = document.nodes[blocks[position]]
      if let range = node.range, range.start.line >= 1 || isFootnoteDefinition(node) {
        next = drop(node)
      }
      dropped[position] = next
    }
    guard dropped.contains(true) else { return document }
    var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: 0, depth: 0)]
    for (position, block) in blocks.enumerated() where !dropped[position] {
      let offset = nodes.count - block
      for index in block..<document.nodes[block].subtreeEnd {
        var node = document.nodes[index]
        node.subtreeEnd += offset
        nodes.append(node)
      }
    }
    nodes[0].subtreeEnd = nodes.count
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// The top-level blocks of the whole reply's `document` from `line` on, with its footnote
  /// section: what follows the committed blocks when the final parse is of the whole reply.
  static func remainder(of document: MarkdownDocument, fromLine line: Int) -> MarkdownDocument {
    var kept: [Int] = []
    var unplaced: [Int] = []
    for block in document.topLevelBlocks {
      let node = document.nodes[block]
      if isFootnoteDefinition(node) {
        kept += unplaced + [block]
        unplaced = []
      } else if let range = node.range, range.start.line >= 1 {
        // A paragraph cmark-gfm left without a position belongs with the block after it.
        if range.start.line >= line { kept += unplaced + [block] }
        unplaced = []
      } else {
        unplaced.append(block)
      }
    }
    return extract(document, blocks: kept + unplaced, lineShift: 0)
  }

  /// Whether a top-level node came from the first `preambleLines` lines of a parse.
  static func isPreambleBlock(_ node: MarkdownNode, preambleLines: Int) -> Bool {
    guard let range = node.range, range.start.line >= 1 else { return false }
    return range.start.line <= preambleLines
  }

  static func isFootnoteDefinition(_ node: MarkdownNode) -> Bool {
    if case .footnoteDefinition = node.kind { return true }
    return false
  }

  /// Whether text nodes show brackets (a later definition could have made a link of them).
  static func isReferenceSensitive(_ nodes: ArraySlice<MarkdownNode>) -> Bool {
    for node in nodes {
      if case .text(let string) = node.kind,
        string.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
      {
        return true
      }
    }
    return false
  }

  /// Footnote references whose definition has not arrived show nothing yet.
  static func hidingFootnoteText(_ document: MarkdownDocument) -> MarkdownDocument {
    guard document.options.contains(.footnotes) else { return document }
    var nodes = document.nodes
    var changed = false
    // Not inside an address the autolink extension linked, where `[^n]` is part of the address.
    var addressEnd = 0
    for index in nodes.indices {
      if case .link(let info) = nodes[index].kind,
        HealedDisplayMarks.isAddress(nodes, at: index, destination: info.destination)
      {
        addressEnd = nodes[index].subtreeEnd
      }
      if index >= addressEnd, case .text(let string) = nodes[index].kind, StreamHealer.containsFootnoteOpener(string) {
        nodes[index].kind = .text(StreamHealer.hidingFootnoteReferences(string))
        changed = true
      }
    }
    return changed ? MarkdownDocument(nodes: nodes, options: document.options) : document
  }
}
