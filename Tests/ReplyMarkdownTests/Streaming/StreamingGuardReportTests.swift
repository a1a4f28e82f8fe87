import Testing

@testable import ReplyMarkdown

/// `MarkdownStream.guardChangedInput`: whether the input guard changed any piece the stream parsed.
@Suite struct StreamingGuardReportTests {
  /// Feeds `text` in chunks of `size` bytes and finishes.
  static func streamed(_ text: String, size: Int) -> MarkdownStream {
    var stream = MarkdownStream()
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + size)
      _ = stream.feed(bytes: bytes[offset..<end])
      offset = end
    }
    _ = stream.finish()
    return stream
  }

  /// What `replykit stream` writes into a pipe (`.holdUntilFinish`, no tail), and whether the
  /// final update rewrote committed HTML.
  static func piped(_ text: String, size: Int) -> (html: String, rewrote: Bool) {
    let streamed = StreamingHarness.piped(text, chunk: size, policy: .holdUntilFinish, showsTail: false)
    return (streamed.written, streamed.rewrote)
  }

  /// Into a pipe a block commits only once the whole reply's guard has ended its paragraph too
  /// (``ReplyGuardWatch/settledEnd``): on replies as models write them that is where the stream
  /// closes it, so nearly all is written before the end.
  @Test func aPipeStillCommitsAsTheReplyArrives() {
    let unit =
      "## Step\n\nSome *text* with `code` and a [link](https://example.com).\n\n- one\n- two\n\n"
      + "```swift\nlet x = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n<div>html</div>\n\n"
    let text = String(repeating: unit, count: 30)
    var stream = MarkdownStream()
    stream.showsTail = false
    stream.referencePolicy = .holdUntilFinish
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: 20) {
      html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)]))
    }
    let beforeEnd = html.committedLength
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    #expect(beforeEnd * 100 >= html.utf8Count * 95, "\(beforeEnd) of \(html.utf8Count) bytes before the end")
  }

  /// A guard that acted only on an open paragraph's parse, which a later line brings under every
  /// limit (404 link openers, most of them code once the backtick two lines later arrives), changes
  /// nothing the stream keeps: the paragraph is parsed again when it closes, and into a pipe the
  /// blocks after it still commit as they arrive (a review: nothing was written until the end).
  @Test(arguments: [1, 2, 3])
  func aGuardOnlyOnAnOpenParagraphStillLetsBlocksCommit(size: Int) {
    let text =
      "x `\n" + String(repeating: "[a] ", count: 404) + "\ny`\n\n"
      + String(repeating: "Some *text* with `code`.\n\n- one\n- two\n\n", count: 40)
    #expect(MarkdownDocument(text).diagnostics.isEmpty)
    var stream = MarkdownStream()
    stream.showsTail = false
    stream.referencePolicy = .holdUntilFinish
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: size) {
      html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + size)]))
    }
    let beforeEnd = html.committedLength
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    #expect(!stream.guardChangedInput)
    #expect(beforeEnd * 100 >= html.utf8Count * 95, "\(beforeEnd) of \(html.utf8Count) bytes before the end")
  }

  @Test func staysFalseBelowEveryLimit() {
    let reply = "# Plan\n\n- one **bold** step\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```swift\nlet x = 1\n```\n"
    for size in [1, 7, 64, 4096] {
      #expect(!Self.streamed(reply, size: size).guardChangedInput, "chunks of \(size)")
    }
  }

  /// Delimiter-like rows in a table charge the document's re-reading budget with the table's bytes
  /// so far; the stream settles a long table in parts, each far below it. The whole reply's guard,
  /// run over the lines as they arrive (``ReplyGuardWatch``), tells the stream when the reply
  /// passed it: nothing commits after that under `.holdUntilFinish`, and the final update is the
  /// one-shot parse (into a pipe, rows render escapes were written unescaped: a fuzz input kept
  /// in Corpus/fuzz-regressions, `time-smart-2aeae2c5cd19c419.md`, at chunks of 1 to 7 bytes).
  @Test func aTablePastTheDocumentsReReadingBudgetEndsAsOneShot() {
    let text = "x\n| a | b |\n|---|---|\n" + String(repeating: "|-|-|\n|-|\n", count: 400) + "\nafter\n"
    #expect(!InputGuard.apply(text).diagnostics.isEmpty)
    StreamingFuzzFindingTests.expectStreamsToOneShot(text, options: .github)
  }

  /// A definition taken one by one past 1 KB is still in the guard's open paragraph, whose end may
  /// change it (here the autolink budget, spent by the first paragraph, puts a word joiner in the
  /// destination's `@`): a block that uses it waits until that paragraph ends (a review: the link
  /// was written into a pipe with the destination as it stood).
  @Test func aBlockWaitsForTheGuardToSettleTheDefinitionsItUses() {
    let text =
      "www.ab" + String(repeating: ")", count: 1996) + " www." + String(repeating: "c", count: 1834) + "\n\n"
      + "[x]\n\n[x]: mailto:a@b.com\n" + (0..<100).map { "[y\($0)]: /u\($0)\n" }.joined() + "\nend\n"
    let expected = HTMLRenderer().render(MarkdownDocument(text))
    #expect(expected.contains("a%E2%81%A0@b.com"))
    for size in [16, 20, 64] {
      let piped = Self.piped(text, size: size)
      #expect(piped.html == expected, "chunks of \(size)")
      #expect(!piped.rewrote, "chunks of \(size)")
    }
  }

  /// The guard's budget for reference links covers the whole reply, which the stream parses in
  /// pieces: where the whole reply exceeds it, the final update is the one-shot parse (a long
  /// destination used after many paragraphs streamed as links, where render shows text).
  @Test(arguments: 0..<4)
  func aReplyPastTheReferenceBudgetEndsAsOneShot(variant: Int) {
    let long = "/" + String(repeating: "x", count: 25_000)
    let definition = "[a]: \(long)\n\n"
    let uses = String(repeating: "Some text with [a] in it.\n\n", count: 60)
    let links = (0..<60).map { "[a](b\($0))" }.joined(separator: " ") + "\n"
    let reply =
      switch variant {
      case 0: definition + uses
      case 1: uses + definition
      // The guard charges what only looks like a definition too, and one cmark-gfm ignores
      // (a review: the estimate read only the definitions the stream keeps).
      case 2: "```\n[x]: \(long)\n```\n\n" + links
      default: "[x]: /short\n\n[x]: \(long)\n\n" + links
      }
    let oneShot = MarkdownDocument(reply)
    #expect(oneShot.diagnostics.contains { $0.kind == .referenceExpansion })
    let expected = HTMLRenderer().render(oneShot)
    for size in [64, 4096] {
      var stream = MarkdownStream()
      var html = MarkdownStreamHTMLRenderer()
      let bytes = Array(reply.utf8)
      var offset = 0
      while offset < bytes.count {
        html.apply(stream.feed(bytes: bytes[offset..<min(bytes.count, offset + size)]))
        offset += size
      }
      html.apply(stream.finish())
      #expect(html.html == expected, "chunks of \(size)")
      // Into a pipe too: the whole reply's guard watch holds what the budget may change (links
      // were written where render shows text).
      let piped = Self.piped(reply, size: size)
      #expect(piped.html == expected, "into a pipe, chunks of \(size)")
      #expect(!piped.rewrote, "chunks of \(size)")
    }
  }

  /// A definition whose title starts on the line after it runs on to its paragraph's end, and
  /// the guard charges every bracket that much: the watch reads that also when the definition's
  /// line ended the lines of one update and the title came with the next (a review: it read
  /// each update's lines alone, and the links were written into a pipe where render, past the
  /// budget, shows text).
  @Test(arguments: [1, 64, 4096])
  func aTitleOnTheNextUpdatesLineCountsForTheReferenceBudget(size: Int) {
    let head = "Intro.\n\n[x]: /u\n"
    let title =
      "\"" + String(repeating: String(repeating: "t", count: 99) + "\n", count: 200) + "\"\n\n"
      + String(repeating: "Cited [x] here.\n\n", count: 300)
    let text = head + title
    let oneShot = MarkdownDocument(text)
    #expect(oneShot.diagnostics.contains { $0.kind == .referenceExpansion })
    let expected = HTMLRenderer().render(oneShot)
    var stream = MarkdownStream()
    stream.showsTail = false
    stream.referencePolicy = .holdUntilFinish
    var html = MarkdownStreamHTMLRenderer()
    var written: [UInt8] = []
    // The definition's line ends the first update's lines.
    var pieces = [Array(head.utf8)[...]]
    let rest = Array(title.utf8)
    for start in stride(from: 0, to: rest.count, by: size) {
      pieces.append(rest[start..<min(rest.count, start + size)])
    }
    for piece in pieces {
      html.apply(stream.feed(bytes: piece))
      if html.committedLength > written.count { written += html.utf8(written.count..<html.committedLength) }
    }
    html.apply(stream.finish())
    written += html.utf8(min(written.count, html.utf8Count)..<html.utf8Count)
    #expect(String(decoding: written, as: UTF8.self) == expected)
    #expect(!html.rewroteCommitted)
  }

  /// The guard acts on the last piece, parsed alone at the end, where its scan of the whole reply
  /// does not: the final update is the whole reply parsed at once (fuzz seed 1317: the guard's
  /// scan reads the indented line as a fence, and the stream ended with emphasis where render
  /// shows the line as text).
  @Test(arguments: [1, 7, 20, 82])
  func aGuardActingOnTheLastPieceOnlyEndsAsOneShot(size: Int) {
    let text = "    ```\n___#" + String(repeating: "_", count: 65) + "a```\n"
    let expected = HTMLRenderer().render(MarkdownDocument(text))
    #expect(StreamingHarness.streamedHTML(text, chunk: size) == expected)
    #expect(Self.piped(text, size: size).html == expected)
  }

  /// A piece parsed alone has a smaller budget than the whole reply (the guard's budget grows
  /// with the text): where the guard acted on a piece, the final update is the one-shot parse (a
  /// review: the final had 109 of render's 200 links).
  @Test func aReplyWhosePieceWasGuardedEndsAsOneShot() {
    let reply =
      "[x]: /" + String(repeating: "a", count: 10_000) + "\n\n"
      + String(repeating: String(repeating: "lorem ipsum dolor sit amet ", count: 30) + "\n\n", count: 500)
      + Array(repeating: "[x]", count: 200).joined(separator: " ") + "\n\nend\n"
    let expected = HTMLRenderer().render(MarkdownDocument(reply))
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(reply.utf8)
    var offset = 0
    while offset < bytes.count {
      html.apply(stream.feed(bytes: bytes[offset..<min(bytes.count, offset + 1000)]))
      offset += 1000
    }
    html.apply(stream.finish())
    #expect(html.html == expected)
    #expect(Self.piped(reply, size: 1000).html == expected)
  }

  @Test func turnsTrueWhenAPieceWasGuarded() {
    // 500 delimiter runs in one paragraph: past maxDelimiterRuns (400) the rest are escaped.
    let reply = String(repeating: "*a* ", count: 250) + "\n\nafter\n"
    #expect(!MarkdownDocument(reply).diagnostics.isEmpty)
    for size in [13, 4096] {
      #expect(Self.streamed(reply, size: size).guardChangedInput, "chunks of \(size)")
    }
  }
}
