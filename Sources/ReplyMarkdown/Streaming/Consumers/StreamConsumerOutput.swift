/// One output form of the stream consumers — HTML bytes, or lines of plain text or terminal
/// text: how each piece of an update is rendered and where it is kept.
///
/// ``StreamConsumerCore`` decides which pieces to render and when; an output form only renders
/// them. What it shows is, in order: the committed blocks, the held blocks, then the open part —
/// the open long block's head and settled parts (kept between updates), and the open remainder
/// (replaced every update).
protocol StreamConsumerOutput: Sendable {
  /// Whether the head and settled parts are kept right after the held blocks, so that a change to
  /// the committed or held blocks drops them (and the core has them rendered again).
  static var piecesFollowHeld: Bool { get }

  /// Called once at the start of every update.
  mutating func startUpdate()
  /// Shows `blocks` after the committed blocks shown so far; drops what was shown for held blocks
  /// and the open part.
  mutating func commit(_ blocks: [MarkdownStreamBlock])
  /// The final replacement: shows `document` (the whole reply) in place of everything; `blocks`
  /// are the update's committed blocks.
  mutating func replaceAll(with document: MarkdownDocument, committing blocks: [MarkdownStreamBlock])
  /// Whether ``replaceAll(with:committing:)`` showed other output where committed output was:
  /// what was committed before it is not where the final output starts.
  var rewroteCommitted: Bool { get }
  /// Drops what was shown for held blocks.
  mutating func dropHeld()
  /// Shows `blocks` after the held blocks shown so far.
  mutating func hold(_ blocks: [MarkdownStreamHeldBlock])
  /// Whether an open part in `container` renders in pieces (head, settled parts, remainder)
  /// rather than whole every update.
  func rendersInPieces(_ container: MarkdownStreamTail.Container) -> Bool
  /// Drops the head and settled parts shown, then shows the head of `container` (nothing when
  /// `nil`: the open part is not in pieces).
  mutating func beginPieces(_ container: MarkdownStreamTail.Container?, tight: Bool)
  /// Shows a settled part after the head and the parts shown; `position` counts parts from 0.
  mutating func appendPart(
    _ part: MarkdownStreamSettledPart, position: Int, container: MarkdownStreamTail.Container, tight: Bool)
  /// Replaces the open remainder shown with `open`'s (`nil`: nothing, after the final update).
  mutating func showOpen(_ open: StreamOpenPart?)
}

/// The open part of one update as the core hands it to an output form.
struct StreamOpenPart {
  /// The update's tail.
  let tail: MarkdownStreamTail
  /// Every settled part of the current revision, in order.
  let settled: [MarkdownStreamSettledPart]
  /// Whether the open list is tight (always `true` for other blocks).
  let tight: Bool
  /// Whether the head and settled parts are shown in pieces (``StreamConsumerOutput/beginPieces(_:tight:)``),
  /// so only the remainder is to be shown; otherwise the whole open part is.
  let inPieces: Bool
}
