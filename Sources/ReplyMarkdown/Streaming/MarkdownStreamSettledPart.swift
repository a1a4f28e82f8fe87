/// A finished part of the long block that is still open at the end of a stream: a group of lines
/// of a fenced code block, one list item, or a group of table rows.
///
/// Parts are stable while their `MarkdownStreamTail.settledRevision` lasts, so a consumer renders
/// each once and keeps it; only a new revision (a tight list turning loose, or the block closing)
/// makes it render them again.
struct MarkdownStreamSettledPart: Sendable, Hashable {
  /// The part's id, unique within one stream.
  let id: Int
  /// A document holding the part.
  let document: MarkdownDocument
  /// The node to render: the code block (render its code), the list item (inside `parent`), or
  /// the table (render its body rows).
  let node: Int
  /// The parent of `node` in `document` (the list of an item; the root otherwise).
  let parent: Int

  /// Creates a settled part.
  init(id: Int, document: MarkdownDocument, node: Int, parent: Int) {
    self.id = id
    self.document = document
    self.node = node
    self.parent = parent
  }
}
