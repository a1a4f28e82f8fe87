import Foundation
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

  /// A stream under `policy` fed `text` in chunks of `chunk` bytes, not finished, and the HTML
  /// consumer of its updates.
  static func fed(_ text: String, policy: MarkdownStream.ReferencePolicy, chunk: Int)
    -> (MarkdownStream, MarkdownStreamHTMLRenderer)
  {
    var stream = MarkdownStream()
    stream.referencePolicy = policy
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: chunk) {
      html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)]))
    }
    return (stream, html)
  }

  /// A final replacement that starts with the committed HTML keeps it in its edit: the edit was
  /// the whole HTML from byte 0, so a consumer applying edits rewrote what it had committed and
  /// a check of P4 on edits saw a retraction (a review: an unreadable footnote label, a footnote
  /// definition in a quote). Where the replacement rewrites committed HTML (a late definition
  /// under the live policy), the edit starts at 0.
  @Test(arguments: [
    ("?\n\n[^]:\n\n", MarkdownStream.ReferencePolicy.holdUntilFinish, false),
    (">[^3]:\n\n", .holdUntilFinish, false),
    (lateDefinition, .live, true),
  ])
  func theFinalEditKeepsTheCommittedHTML(text: String, policy: MarkdownStream.ReferencePolicy, rewrites: Bool) {
    for chunk in [1, 3, 64] {
      var (stream, html) = Self.fed(text, policy: policy, chunk: chunk)
      let committed = html.committedLength
      let last = stream.finish()
      let edit = html.apply(last)
      #expect(last.replacement != nil, "chunk \(chunk)")
      #expect(committed > 0, "chunk \(chunk)")
      #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)), "chunk \(chunk)")
      #expect(html.rewroteCommitted == rewrites, "chunk \(chunk)")
      #expect(rewrites ? edit.keep == 0 : edit.keep >= committed, "chunk \(chunk): keep \(edit.keep) of \(committed)")
    }
  }

  /// Code and raw HTML define nothing: a reply showing markdown source in a fence (`[x]: u` or
  /// `[^]:` at a line start) made the final update parse the whole reply again as a replacement
  /// (a review). The stream now ends with its committed blocks, equal to one-shot.
  @Test(arguments: [
    "```\r\n[^]:\r\n```\r\n", "```markdown\n[x]: https://example.com\n[^1]: A note.\n```\n\nSee [x] and [^1].\n",
    "Text.\n\n    [^]:\n    [x]: /u\n\nx [x]\n", "<div>\n[x]: /u\n[^]:\n</div>\n\n[x]\n",
  ])
  func codeThatShowsDefinitionsNeedsNoReplacement(text: String) {
    for policy in [MarkdownStream.ReferencePolicy.live, .holdUntilFinish] {
      for chunk in [1, 7, 4096] {
        var (stream, html) = Self.fed(text, policy: policy, chunk: chunk)
        let last = stream.finish()
        html.apply(last)
        #expect(last.replacement == nil, "\(policy) chunk \(chunk)")
        #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)), "\(policy) chunk \(chunk)")
      }
    }
  }

  /// A paragraph line, a table header row, then 3 KB of delimiter-like rows (fuzz seed 1340,
  /// kept under `Corpus/fuzz-regressions/`): the input guard acts on a piece of the stream, so the
  /// final update carries the whole reply as a replacement. cmark-gfm places the table where the
  /// paragraph above its header row started, before the lines already committed; the lines
  /// `apply` returned there left it out, so a writer of them (into a pipe, as they commit) lost
  /// the table.
  @Test(arguments: [MarkdownStream.ReferencePolicy.live, .holdUntilFinish], [1, 7, 20, 4096])
  func linesWrittenAsTheyCommitEndAsOneShot(policy: MarkdownStream.ReferencePolicy, chunk: Int) throws {
    let url = SharedData.repositoryRoot.appendingPathComponent(
      "Corpus/fuzz-regressions/streaming-pipe-plain-smart-463be194ea3f97dd.md")
    let bytes = Array(try Data(contentsOf: url))
    let options: ParseOptions = [.github, .smartPunctuation]
    var stream = MarkdownStream(options: options)
    stream.referencePolicy = policy
    stream.showsTail = policy == .live
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60))
    var plain = MarkdownStreamPlainRenderer()
    var ansi = MarkdownStreamANSIRenderer(renderer: renderer)
    var plainWritten: [String] = []
    var ansiWritten: [String] = []
    for start in stride(from: 0, to: bytes.count, by: chunk) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)])
      plainWritten += plain.apply(update)
      ansiWritten += ansi.apply(update)
    }
    let last = stream.finish()
    #expect(last.replacement != nil, "the case needs the whole reply as the final word")
    plainWritten += plain.apply(last)
    ansiWritten += ansi.apply(last)
    let document = MarkdownDocument(String(decoding: bytes, as: UTF8.self), options: options)
    #expect(plainWritten.joined(separator: "\n") == PlainTextRenderer().render(document))
    #expect(ansiWritten == renderer.renderLines(document))
    #expect(!plain.rewroteCommitted && !ansi.rewroteCommitted)
  }
}
