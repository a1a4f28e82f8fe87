/// What a stream consumer rendered for each held block, by block id: the held blocks are listed
/// whole again whenever one of them commits or changes, and most of them come back unchanged.
///
/// A block's rendering is reused only when its document (and the separator before it) is the one
/// it was rendered from, so the output is what rendering it afresh gives. Entries go when their
/// block commits or the stream ends; a block parsed again replaces its entry.
struct HeldRenderCache<Rendered: Sendable>: Sendable {
  private var entries: [Int: (document: MarkdownDocument, after: Bool, rendered: Rendered)] = [:]
  /// How many held blocks were rendered (not found kept): how tests see the reuse.
  private(set) var renders = 0

  /// The rendering of `document` (the block `id`, after earlier content when `after`): the one
  /// kept for it when the document is the same, else `render()`'s, which is kept.
  ///
  /// - Complexity: a comparison of the documents when one is kept; else the rendering.
  mutating func rendering(
    id: Int, document: MarkdownDocument, after: Bool, render: () -> Rendered
  ) -> Rendered {
    if let entry = entries[id], entry.after == after, entry.document == document { return entry.rendered }
    let rendered = render()
    renders += 1
    entries[id] = (document, after, rendered)
    return rendered
  }

  /// The kept rendering of the block `id` when it was rendered from `document`, removing it (the
  /// block commits: it is never held again).
  mutating func take(id: Int, document: MarkdownDocument, after: Bool) -> Rendered? {
    guard let entry = entries.removeValue(forKey: id), entry.after == after, entry.document == document else {
      return nil
    }
    return entry.rendered
  }

  mutating func removeAll() { entries = [:] }
}
