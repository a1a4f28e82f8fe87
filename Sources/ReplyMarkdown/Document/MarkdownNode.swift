/// One node of a ``MarkdownDocument``: what it is, where its subtree ends, and where it came from.
///
/// Nodes are stored flat, in document (pre-)order, so that no operation on a document — equality,
/// hashing, coding, rendering, freeing — ever recurses, however deep the tree. A node's subtree is
/// the contiguous index range `index ..< subtreeEnd`; its first child, if any, is at `index + 1`,
/// and the next sibling of a child `c` is at `nodes[c].subtreeEnd`.
///
/// Indices and depths are stored in 32 bits, so a node takes 64 bytes.
public struct MarkdownNode: Sendable, Hashable, Codable {
  /// What the node is, with its payload.
  public var kind: Kind
  private var storedSubtreeEnd: Int32
  private var storedDepth: Int32
  /// Where the node came from in the source, as cmark-gfm reports it: 1-based lines, 1-based UTF-8
  /// byte columns, both ends inclusive, in the text that was parsed (the guarded text when
  /// ``InputGuard`` changed the input).
  ///
  /// `nil` for the document, for soft breaks (cmark-gfm gives them none), for inlines it left without
  /// a position, and for nodes made by code. Inline positions are cmark-gfm's, kept within their
  /// lines: on continuation lines of a paragraph inside a list or quote cmark-gfm may count columns
  /// from the wrong offset, so those are approximate; on a paragraph's first line they are exact.
  public var range: SourceRange?

  /// The index one past the last node of this node's subtree.
  public var subtreeEnd: Int {
    get { Int(storedSubtreeEnd) }
    set { storedSubtreeEnd = Int32(clamping: newValue) }
  }

  /// The nesting depth: 0 for the document, 1 for top-level blocks.
  public var depth: Int {
    get { Int(storedDepth) }
    set { storedDepth = Int32(clamping: newValue) }
  }

  /// Creates a node.
  public init(kind: Kind, subtreeEnd: Int, depth: Int, range: SourceRange? = nil) {
    self.kind = kind
    self.storedSubtreeEnd = Int32(clamping: subtreeEnd)
    self.storedDepth = Int32(clamping: depth)
    self.range = range
  }

  private enum CodingKeys: String, CodingKey {
    case kind
    case storedSubtreeEnd = "subtreeEnd"
    case storedDepth = "depth"
    case range
  }
}
