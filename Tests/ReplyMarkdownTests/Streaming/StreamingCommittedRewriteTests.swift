import Testing

@testable import ReplyMarkdown

/// ``MarkdownStreamHTMLRenderer/rewroteCommitted`` and its plain-text and terminal twins: whether
/// the final replacement changed output that was committed before it, which a writer that cannot
/// take back (`replykit stream` into a pipe) has already written.
@Suite struct StreamingCommittedRewriteTests {
  /// `[x]` in the first paragraph, more than the live policy's 4 KB of paragraphs after it, then
  /// its definition: with ``MarkdownStream/ReferencePolicy/live`` the paragraph commits as text
  /// past the budget, and the final replacement shows it as a link.
  static let lateDefinition: String = {
    var text = "See [x] first.\n\n"
    for number in 1...80 { text += "Paragraph \(number) of the reply, long enough to pass the budget.\n\n" }
    return text + "[x]: https://example.com/x\n"
  }()

  static func consume(_ text: String, policy: MarkdownStream.ReferencePolicy) -> (html: Bool, plain: Bool, ansi: Bool) {
    var stream = MarkdownStream()
    stream.referencePolicy = policy
    var html = MarkdownStreamHTMLRenderer()
    var plain = MarkdownStreamPlainRenderer()
    var ansi = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 60)))
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: 20) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)])
      html.apply(update)
      plain.apply(update)
      ansi.apply(update)
      #expect(!html.rewroteCommitted && !plain.rewroteCommitted && !ansi.rewroteCommitted, "before the end")
    }
    let last = stream.finish()
    html.apply(last)
    plain.apply(last)
    ansi.apply(last)
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    return (html.rewroteCommitted, plain.rewroteCommitted, ansi.rewroteCommitted)
  }

  @Test func aLiveCommitThatALaterDefinitionChangesIsRewritten() {
    let rewrote = Self.consume(Self.lateDefinition, policy: .live)
    #expect(rewrote.html && rewrote.plain && rewrote.ansi)
  }

  @Test func holdingUntilTheEndRewritesNothing() {
    let rewrote = Self.consume(Self.lateDefinition, policy: .holdUntilFinish)
    #expect(!rewrote.html && !rewrote.plain && !rewrote.ansi)
  }
}
