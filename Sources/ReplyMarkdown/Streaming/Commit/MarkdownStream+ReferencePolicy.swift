extension MarkdownStream {
  /// How long a closed block that a later definition could still change is held before it commits.
  ///
  /// A block that shows `[text]`, `[text][label]` or a footnote reference `[^1]` whose definition
  /// has not arrived may change when the definition arrives (models often write citations and
  /// footnotes at the end). Such a block is *held*: shown, but not final. Every block after a held
  /// block is held too, since blocks commit in order.
  public enum ReferencePolicy: Sendable, Hashable {
    /// Hold while the held blocks total at most `bytes` UTF-8 bytes; past that, the oldest held
    /// blocks commit with their references rendered as they stand (literal brackets, a footnote
    /// reference as text). The final update then carries a
    /// ``MarkdownStreamUpdate/replacement`` when a committed block came out differently from the
    /// whole reply, so a consumer that can replace (HTML, plain text) still ends byte-identical
    /// to one-shot rendering; a terminal keeps what it wrote.
    case holdWithin(bytes: Int)
    /// Hold until ``MarkdownStream/finish()``: committed blocks are final, but the held part can
    /// grow with the reply. For writers that cannot replace and must equal one-shot rendering,
    /// such as output into a pipe. The final update may still carry a replacement in the rare
    /// cases `docs/streaming.md` lists (a preamble past 4 KB, definitions after a raw HTML block,
    /// definitions in a quote or list item that also holds `[^`, a run of definitions that a
    /// table follows).

    case holdUntilFinish

    /// The default for a live display: hold at most 4 KB.
    public static let live = ReferencePolicy.holdWithin(bytes: 4096)

    /// The held bytes past which the oldest held block commits (`nil`: never).
    var budget: Int? {
      switch self {
      case .holdWithin(let bytes): max(bytes, 0)
      case .holdUntilFinish: nil
      }
    }
  }
}
