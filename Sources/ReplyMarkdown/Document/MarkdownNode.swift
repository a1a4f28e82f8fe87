/// One node of a ``MarkdownDocument``: what it is, where its subtree ends, and where it came from.
///
/// Nodes are stored flat, in document (pre-)order, so that no operation on a document — equality,
/// hashing, coding, rendering, freeing — ever recurses, however deep the tree. A node's subtree is
/// the contiguous index range `index ..< subtreeEnd`; its first child, if any, is at `index + 1`,
/// and the next sibling of a child `c` is at `nodes[c].subtreeEnd`.
public struct MarkdownNode: Sendable, Hashable, Codable {
  /// What the node is, with its payload.
  public var kind: Kind
  /// The index one past the last node of this node's subtree.
  public var subtreeEnd: Int
  /// The nesting depth: 0 for the document, 1 for top-level blocks.
  public var depth: Int
  /// Where a block came from in the source; `nil` for inlines (cmark-gfm's inline positions are
  /// unreliable) and for nodes made by code.
  public var range: SourceRange?

  /// Creates a node.
  public init(kind: Kind, subtreeEnd: Int, depth: Int, range: SourceRange? = nil) {
    self.kind = kind
    self.subtreeEnd = subtreeEnd
    self.depth = depth
    self.range = range
  }
}
