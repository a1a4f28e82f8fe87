import Testing

@testable import ReplyMarkdown

/// ``PendingReferences/mark(_:)``: bracketed text a later definition could make a link shows as a
/// pending link, and the marked document is still a tree.
@Suite struct PendingReferencesTests {
  /// Whether every node's subtree holds exactly the deeper nodes after it, children one level down.
  static func isTree(_ nodes: [MarkdownNode]) -> Bool {
    for (index, node) in nodes.enumerated() {
      guard node.subtreeEnd > index, node.subtreeEnd <= nodes.count else { return false }
      if node.subtreeEnd > index + 1 && nodes[index + 1].depth != node.depth + 1 { return false }
      if nodes[(index + 1)..<node.subtreeEnd].contains(where: { $0.depth <= node.depth }) { return false }
      if node.subtreeEnd < nodes.count && nodes[node.subtreeEnd].depth > node.depth { return false }
    }
    return true
  }

  /// A span across inline nodes with another inside an emphasis between its brackets: the outer
  /// one is marked, the inner left as text, and no leaf takes the nodes after it as children (an
  /// inner span closing ended the outer one's wrap, and the healer's separator comment, a leaf,
  /// then held text and showed: fuzz seed 1341).
  @Test(arguments: ["[a *[x `c` y]* b] z", "[a *[x `c` y]* b]", "[*[x `c` y]*]<!-- -->*"])
  func aSpanInsideASpanKeepsTheTree(markdown: String) {
    let marked = PendingReferences.mark(MarkdownDocument(markdown))
    #expect(Self.isTree(marked.nodes), "\(marked.nodes.map(\.kind))")
    let pending = marked.nodes.filter { if case .link(let link) = $0.kind { link.isPending } else { false } }
    #expect(pending.count == 1)
  }

  @Test func bracketsInOneTextNodeAreAPendingLink() {
    let marked = PendingReferences.mark(MarkdownDocument("see [docs] here"))
    #expect(Self.isTree(marked.nodes))
    #expect(marked.nodes.contains { if case .link(let link) = $0.kind { link.isPending } else { false } })
  }
}
