/// The line bookkeeping shared by the plain-text and terminal stream consumers: committed lines
/// (appended once, never changed) and the lines of the live tail (held blocks, then the open part).
///
/// Top-level units (a committed block, a held block, the open part) are separated by one empty
/// line, as the one-shot renderers separate top-level blocks.
struct StreamLineConsumer: Sendable {
  private(set) var committedLines: [String] = []
  private(set) var tailLines: [String] = []
  private var heldLines: [String] = []
  private var settled: [MarkdownStreamSettledPart] = []
  private var revision = -1

  /// Applies an update; returns the committed lines it added.
  mutating func apply(_ update: MarkdownStreamUpdate, render: (MarkdownDocument) -> [String]) -> [String] {
    var added: [String] = []
    if let replacement = update.replacement {
      // The committed lines cannot change; the final document is what a consumer shows instead.
      committedLines = render(replacement)
      heldLines = []
      tailLines = []
      return committedLines
    }
    func appendUnit(_ lines: [String], to target: inout [String], after previous: Bool) {
      guard !lines.isEmpty else { return }
      if previous { target.append("") }
      target += lines
    }
    if !update.committed.isEmpty {
      heldLines = []
      for block in update.committed {
        let lines = render(block.document)
        appendUnit(lines, to: &added, after: !committedLines.isEmpty || !added.isEmpty)
      }
      committedLines += added
    }
    for block in update.held {
      appendUnit(render(block.document), to: &heldLines, after: !committedLines.isEmpty || !heldLines.isEmpty)
    }
    let tail = update.tail
    if tail.settledRevision != revision {
      settled = tail.newSettled
      revision = tail.settledRevision
    } else {
      settled += tail.newSettled
    }
    var lines = heldLines
    if !update.isFinal {
      appendUnit(
        render(tail.mergedDocument(settled: settled)), to: &lines, after: !committedLines.isEmpty || !lines.isEmpty)
    }
    tailLines = lines
    return added
  }
}
