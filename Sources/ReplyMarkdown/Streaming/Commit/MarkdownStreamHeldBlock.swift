/// A block of a streaming reply that is closed but not yet final: it shows bracketed text or a
/// footnote that a definition arriving later could still change, or it follows such a block.
///
/// Held blocks are shown between the committed blocks and the tail. Each is parsed once and
/// rendered once; when the definition of a label a held block shows as a pending link arrives,
/// the block is parsed again and an update with ``MarkdownStreamUpdate/replacesHeld`` lists every
/// held block (the link is real from then on). The final update commits everything that was held,
/// re-parsed with every definition; a consumer then drops what it showed for held blocks.
public struct MarkdownStreamHeldBlock: Sendable, Hashable {
  /// The block's id: unique within one stream, shared with no committed block.
  public let id: Int
  /// The block as a document of its own, line numbers as in the whole reply.
  public let document: MarkdownDocument
  /// Where the block came from: offsets into `MarkdownStream.text.utf8`, the received text as
  /// decoded (each byte that is not valid UTF-8 is there as U+FFFD, three bytes), not into the
  /// bytes as fed, which differ wherever the input held invalid UTF-8.
  public let sourceRange: Range<Int>

  /// Creates a held block.
  public init(id: Int, document: MarkdownDocument, sourceRange: Range<Int>) {
    self.id = id
    self.document = document
    self.sourceRange = sourceRange
  }
}
