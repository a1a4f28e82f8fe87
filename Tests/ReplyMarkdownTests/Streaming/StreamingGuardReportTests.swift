import ReplyMarkdown
import Testing

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

  @Test func staysFalseBelowEveryLimit() {
    let reply = "# Plan\n\n- one **bold** step\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```swift\nlet x = 1\n```\n"
    for size in [1, 7, 64, 4096] {
      #expect(!Self.streamed(reply, size: size).guardChangedInput, "chunks of \(size)")
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
    }
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
