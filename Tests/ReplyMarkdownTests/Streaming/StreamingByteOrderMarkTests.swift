import ReplyMarkdown
import Testing

/// A reply that starts with a byte order mark: cmark-gfm drops the mark but reads the first line
/// at offsets three bytes past its columns, and makes no task item there. The stream drops the
/// mark on arrival; it must still end as one-shot rendering (a trial: `- [ ] x` after a mark
/// streamed a checkbox).
@Suite struct StreamingByteOrderMarkTests {
  @Test(arguments: [
    "- [ ] x\n",
    "1. [x] done\n2. [ ] not\n",
    "  * [X] a\n\nText [l].\n\n[l]: /u\n",
    "- [ ] a [b]\n\n[b]: /c\n\nmore\n",
    "- a\n- [ ] b\n",
    "> - [ ] quoted\n",
    "Text [ ] and\n- [ ] item\n",
  ])
  func taskItemsOnTheFirstLineEndAsOneShot(_ body: String) {
    let reply = "\u{FEFF}" + body
    let oneShot = HTMLRenderer().render(MarkdownDocument(reply))
    let bytes = Array(reply.utf8)
    for policy in [MarkdownStream.ReferencePolicy.live, .holdUntilFinish] {
      // 1 and 2 split the mark itself.
      for size in [1, 2, 5, bytes.count] {
        #expect(
          StreamingHarness.streamedHTML(reply, chunk: size, policy: policy) == oneShot, "\(policy), chunks of \(size)")
      }
    }
  }

  /// Without a task marker on the first line, nothing waits for the end: the first block commits
  /// as soon as a later one starts.
  @Test func otherFirstLinesCommitAsUsual() {
    var stream = MarkdownStream()
    stream.referencePolicy = .holdUntilFinish
    _ = stream.feed("\u{FEFF}- a\n- b\n\n")
    let update = stream.feed("Next paragraph\n")
    #expect(update.committed.count == 1)
  }
}
