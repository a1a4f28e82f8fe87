/// What changed after one chunk of a streaming reply: the blocks that became final, and the
/// tentative tail that follows them.
///
/// One update feeds every renderer: append the committed blocks, then the held blocks, replace the
/// tail.
public struct MarkdownStreamUpdate: Sendable {
  /// Blocks committed since the previous update, in order; never changed afterwards. When it is
  /// not empty, every block held before this update is part of it (drop what was shown for them).
  public var committed: [MarkdownStreamBlock]
  /// Blocks held since the previous update, shown after the committed blocks and the blocks
  /// held earlier, before the tail (see ``MarkdownStreamHeldBlock``). When ``replacesHeld`` is
  /// set, every held block instead.
  public var held: [MarkdownStreamHeldBlock]
  /// Whether ``held`` lists every held block, some re-rendered because a definition of a label
  /// they show as a pending link arrived: drop what was shown for held blocks and show these.
  public var replacesHeld: Bool
  /// The healed tail after the committed blocks (empty once the stream is finished).
  public var tail: MarkdownStreamTail
  /// Whether this is the update of ``MarkdownStream/finish()``.
  public var isFinal: Bool
  /// Final update only, and only when needed: the whole reply as one document, because what was
  /// committed piece by piece may differ from the reply rendered whole — a link reference
  /// definition arrived after a committed block that it changes, or one of the other cases
  /// `docs/streaming.md` lists (the input guard acting on the whole reply, a preamble of
  /// definitions past 4 KB, a byte order mark before a task marker, definitions after raw HTML,
  /// …). The consumer then replaces everything it shows with this document's rendering; under
  /// ``MarkdownStream/ReferencePolicy/holdUntilFinish`` it starts with what was committed.
  public var replacement: MarkdownDocument?
  /// Bytes received so far, as fed (including any incomplete character still held). Each byte
  /// that is not valid UTF-8 counts once here but becomes U+FFFD (three bytes) in
  /// ``MarkdownStream/text``, which ``MarkdownStreamBlock/sourceRange`` indexes.
  public var receivedBytes: Int
  /// What this update parsed and what the stream holds after it (the figures of its bound).
  public var statistics: MarkdownStreamStatistics = .zero

  /// Creates an update.
  public init(
    committed: [MarkdownStreamBlock], held: [MarkdownStreamHeldBlock] = [], replacesHeld: Bool = false,
    tail: MarkdownStreamTail, isFinal: Bool, replacement: MarkdownDocument?, receivedBytes: Int
  ) {
    self.committed = committed
    self.held = held
    self.replacesHeld = replacesHeld
    self.tail = tail
    self.isFinal = isFinal
    self.replacement = replacement
    self.receivedBytes = receivedBytes
  }
}
