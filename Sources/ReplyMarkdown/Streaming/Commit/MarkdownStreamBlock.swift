/// A block of a streaming reply that became final: its rendering never changes again.
///
/// `document` is a standalone document holding just this block (its source lines numbered as in
/// the whole reply), so any renderer renders it with its ordinary `render(_:)`. The last block of
/// a finished stream may hold several top-level blocks (everything still open at the end, with the
/// footnote section).
public struct MarkdownStreamBlock: Sendable, Hashable {
  /// The block's id: unique within one stream and increasing in commit order. Ids are given
  /// when a block is first held or committed, so they may skip numbers: a held block that the
  /// final update commits inside a replacement never commits under its own.
  public let id: Int
  /// The block as a document of its own.
  public let document: MarkdownDocument
  /// Where the block came from: offsets into `MarkdownStream.text.utf8`, the received text as
  /// decoded (each byte that is not valid UTF-8 is there as U+FFFD, three bytes), not into the
  /// bytes as fed, which differ wherever the input held invalid UTF-8.
  public let sourceRange: Range<Int>
  /// Whether the block shows literal brackets that a link reference definition arriving later
  /// could turn into a link (then ``MarkdownStreamUpdate/replacement`` corrects the final output).
  public let isReferenceSensitive: Bool

  /// Creates a committed block.
  public init(id: Int, document: MarkdownDocument, sourceRange: Range<Int>, isReferenceSensitive: Bool) {
    self.id = id
    self.document = document
    self.sourceRange = sourceRange
    self.isReferenceSensitive = isReferenceSensitive
  }
}
