import Testing

@testable import ReplyMarkdown

/// The shortcuts that skip cmark-gfm (code lines of an open fence) show exactly what the parsed
/// path shows, after every update, in every consumer.
@Suite struct StreamingFastPathTests {
  static let fences = [
    "```swift\nlet x = 1\n  indented\n\n\ttab\n``\n`` not\n~~~\n```\nafter\n",
    "  ```\n  two\n   three\n one\n\tfour\n  \tfive\n    six\n```\n",
    "   ~~~ info\n   a\n  b\n c\nd\n \t e\n   ~~\n~~~\nend",
    "~~~~ info\ncode ``` inside\n~~~\n~~~~~\n",
    "```\n👩‍👩‍👦 kin 🇨🇦\nsake\u{301}\n` `\n ```x\n```\n",
    "```\r\nline\r\nsecond\rthird\r\n```\r\nafter",
    "```\nA\u{0}B\n```\n",
    "- item\n  ```\n  code\n  more\n  ```\n- next\n",
    "text\n\n```js\nunclosed();\n  still(open)\n``",
    "````\n```\nnot closed\n````\n",
  ]

  /// Streams `text` in `chunks` through both paths and returns the first difference (plain and
  /// terminal lines compared too when `allConsumers`).
  static func firstDifference(_ chunks: [String], allConsumers: Bool = true) -> String? {
    var fast = MarkdownStream()
    var slow = MarkdownStream()
    slow.fastPaths = false
    var fastHTML = MarkdownStreamHTMLRenderer()
    var slowHTML = MarkdownStreamHTMLRenderer()
    var fastPlain = MarkdownStreamPlainRenderer()
    var slowPlain = MarkdownStreamPlainRenderer()
    let ansi = ANSIRenderer(options: ANSIOptions(width: 30, color: true))
    var fastANSI = MarkdownStreamANSIRenderer(renderer: ansi)
    var slowANSI = MarkdownStreamANSIRenderer(renderer: ansi)
    var received = ""
    for chunk in chunks + [""] {
      let last = chunk.isEmpty
      received += chunk
      let a = last ? fast.finish() : fast.feed(chunk)
      let b = last ? slow.finish() : slow.feed(chunk)
      fastHTML.apply(a)
      slowHTML.apply(b)
      if fastHTML.html != slowHTML.html {
        return "html after \(received.debugDescription):\n\(fastHTML.html.debugDescription)\n"
          + slowHTML.html.debugDescription
      }
      guard allConsumers else { continue }
      fastPlain.apply(a)
      slowPlain.apply(b)
      fastANSI.apply(a)
      slowANSI.apply(b)
      if fastPlain.text != slowPlain.text { return "plain after \(received.debugDescription)" }
      if fastANSI.text != slowANSI.text { return "ansi after \(received.debugDescription)" }
    }
    return nil
  }

  @Test(arguments: fences)
  func fenceShortcutsShowWhatTheParseShows(text: String) {
    #expect(Self.firstDifference([text]) == nil)
    #expect(Self.firstDifference(text.map { String($0) }) == nil)
    for seed in UInt64(1)...3 {
      #expect(Self.firstDifference(StreamingHarness.randomCharacterChunks(text, seed: seed)) == nil)
    }
  }

  /// Every corpus reply with a fence, one seeded random chunking, the HTML after every update
  /// (the consumers render the same documents; the cases above compare all three).
  @Test func corpusFencesShowWhatTheParseShows() throws {
    for (index, (name, text)) in try SharedData.corpusReplies().enumerated() where text.contains("```") {
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: UInt64(index + 11), maximum: 30)
      let difference = Self.firstDifference(chunks, allConsumers: false)
      #expect(difference == nil, "\(name): \(difference ?? "")")
    }
  }
}
