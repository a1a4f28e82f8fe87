import Testing

@testable import ReplyMarkdown

/// A held block citing thousands of footnotes, defined one by one at the end: each definition
/// listed the block again under every label it waited for, so the listings (and the time) grew
/// with the square of the footnotes (`replykit stream` into a pipe: 8,000 footnotes 7.7 s and
/// 420 MB, 16,000 on one line 88 s; a trial). The listings stay linear (a count, not a time).
@Suite struct HeldQueueTests {
  @Test func aBlockWaitingForManyLabelsIsListedOncePerLabel() {
    let labels = (0..<2_000).map { "^\($0)" }
    var queue = HeldQueue()
    queue.append(
      HeldQueue.Entry(
        id: 1, document: MarkdownDocument("x"), sourceRange: 0..<1, lines: 1..<2, waiting: Set(labels),
        hasFootnoteReferences: true))
    #expect(queue.listingCount == labels.count)
    // Definitions arrive one by one; the block is not parsed again each time (it still waits).
    for label in labels {
      let taken: Set<String> = [label]
      for position in queue.takePositionsWaiting(for: taken) {
        queue.replace(at: position, with: queue[position], relisting: taken)
      }
    }
    #expect(queue.listingCount <= 2 * labels.count, "\(queue.listingCount) listings")
    // Parsed again, waiting for fewer labels: still listed under those, and found by them.
    var entry = queue[0]
    entry.waiting = Set(labels.prefix(10))
    queue.replace(at: 0, with: entry, relisting: [])
    #expect(queue.takePositionsWaiting(for: ["^5"]) == [0])
    #expect(queue.takePositionsWaiting(for: ["^1999"]).isEmpty)
  }

  /// The command line streams such a reply into a pipe exactly as it renders it.
  @Test func manyFootnotesInOneParagraphStreamToOneShot() {
    let count = 600
    let text =
      (0..<count).map { "t[^\($0)]" }.joined(separator: "\n") + "\n\n"
      + (0..<count).map { "[^\($0)]: n" }.joined(separator: "\n") + "\n"
    #expect(
      StreamingHarness.streamedHTML(text, chunk: 64, policy: .holdUntilFinish)
        == HTMLRenderer().render(MarkdownDocument(text)))
  }
}
