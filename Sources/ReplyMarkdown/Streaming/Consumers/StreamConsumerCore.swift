/// The bookkeeping of a stream consumer, shared by the HTML, plain-text and terminal renderers:
/// which pieces of an update to render, in which output form.
///
/// - Committed blocks are rendered once and appended; they are never shown again.
/// - Held blocks are appended as they arrive; what was shown for them is dropped when the update
///   says so (``MarkdownStreamUpdate/replacesHeld``) or commits anything. The output forms keep
///   each held block's rendering (``HeldRenderCache``): listed again unchanged, or committed as
///   it was shown, it is not rendered again.
/// - Of an open long block (fenced code, list, table), the head and each settled part are
///   rendered once per settled revision and list tightness (a tight list turning loose renders
///   its items again, once); the open remainder is rendered every update that brings a new tail.
/// - An update that shows the tail shown last (``MarkdownStreamTail/serial``: the stream did not
///   heal again) with nothing committed, held or settled changes nothing and renders nothing.
/// - The final replacement takes the place of everything.
///
/// - Complexity: an update costs what it renders: its new committed, held and settled pieces and
///   the open remainder.
struct StreamConsumerCore<Output: StreamConsumerOutput>: Sendable {
  /// The output form, with what it shows.
  private(set) var output: Output
  /// The settled parts of the current revision.
  private var settled: [MarkdownStreamSettledPart] = []
  private var revision = -1
  /// How many of `settled` the output shows in pieces (`nil`: no pieces shown, or they must be
  /// rendered again).
  private var renderedParts: Int?
  /// The list tightness the pieces were rendered with.
  private var renderedTight = true
  /// The serial of the tail shown last (``MarkdownStreamTail/serial``; 0: none to skip).
  private var shownSerial = 0
  /// How many updates changed nothing shown and were skipped: how tests see it.
  private(set) var skippedUpdates = 0

  init(_ output: Output) {
    self.output = output
  }

  /// Applies an update to the output.
  mutating func apply(_ update: MarkdownStreamUpdate) {
    output.startUpdate()
    // The tail shown last, shown again with nothing else new: the output stays as it is.
    if !update.isFinal, update.committed.isEmpty, !update.replacesHeld, update.held.isEmpty,
      update.tail.serial != 0, update.tail.serial == shownSerial, update.tail.settledRevision == revision,
      update.tail.newSettled.isEmpty
    {
      skippedUpdates += 1
      return
    }
    shownSerial = update.tail.serial
    if let replacement = update.replacement {
      output.replaceAll(with: replacement, committing: update.committed)
      settled = []
      renderedParts = nil
      return
    }
    if !update.committed.isEmpty {
      output.commit(update.committed)
      if Output.piecesFollowHeld { renderedParts = nil }
    } else if update.replacesHeld {
      output.dropHeld()
      if Output.piecesFollowHeld { renderedParts = nil }
    }
    if !update.held.isEmpty {
      output.hold(update.held)
      if Output.piecesFollowHeld { renderedParts = nil }
    }
    let tail = update.tail
    if tail.settledRevision != revision {
      settled = tail.newSettled
      revision = tail.settledRevision
      renderedParts = nil
    } else {
      let new = tail.newSettled
      if !new.isEmpty { settled += new }
    }
    guard !update.isFinal else {
      output.beginPieces(nil, tight: true)
      renderedParts = nil
      output.showOpen(nil)
      return
    }
    let tight = Self.isTight(tail)
    // (Not through a closure: capturing the output copied it, every array it holds retained.)
    let pieces = tail.container
    let inPieces: Bool
    switch pieces {
    case .none: inPieces = false
    case .some(let container): inPieces = output.rendersInPieces(container)
    }
    if inPieces, let container = pieces {
      if renderedParts == nil || tight != renderedTight {
        output.beginPieces(container, tight: tight)
        renderedParts = 0
        renderedTight = tight
      }
      for position in (renderedParts ?? 0)..<settled.count {
        output.appendPart(settled[position], position: position, container: container, tight: tight)
      }
      renderedParts = settled.count
    } else {
      output.beginPieces(nil, tight: tight)
      renderedParts = nil
    }
    output.showOpen(StreamOpenPart(tail: tail, settled: settled, tight: tight, inPieces: inPieces))
  }

  /// Whether the open list is tight so far: its settled items, and the open remainder, are.
  static func isTight(_ tail: MarkdownStreamTail) -> Bool {
    guard case .list(let info) = tail.container else { return true }
    let document = tail.remainder
    if let first = document.topLevelBlocks.first(where: { _ in true }),
      case .list(let open) = document.nodes[first].kind, !open.isTight
    {
      return false
    }
    return info.isTight
  }
}
