import ReplyKitFuzz
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

/// Plain words that continue the last line grow the last tail without a heal
/// (`PlainTextExtension`); the display must be what a heal shows, at every update.
@Suite struct StreamingPlainTextExtensionTests {
  /// Each case: text before, then what follows; the cases where a plain continuation would change
  /// the block or an inline construct, and the ordinary ones.
  static let cases: [(String, String)] = [
    ("Some words", " and more words, (with) 'quotes' and \"more\" 50% -/+ ok? yes!"),
    ("<di", "v class"),
    ("a\n+", " foo"),
    ("1", ". foo"),
    ("Text\n2", ") item"),
    ("*b*-\n-", "foo"),
    ("visit www", ".example.com now"),
    ("visit WWW", ".Example.com now"),
    ("see http", "s://x.org"),
    ("mail foo@bar", ".com"),
    ("an &amp", "; entity"),
    ("Intro\n| a | b", "c d"),
    ("Intro\nb | a", "c d"),
    ("foo  ", "bar  "),
    ("foo\t", "bar"),
    ("# Head", "ing words"),
    ("Head\n==", "x"),
    ("Head\n--", " words"),
    ("- item", " more words"),
    ("> quote", " more words"),
    ("- > - nested", " words here"),
    ("1. first", " item words"),
    ("    code", " more"),
    ("para\n    lazy", " more"),
    ("x [link", "](u) words"),
    ("x [^1", "] words"),
    ("x **bold", " words"),
    ("x *em* done", " words"),
    ("x `code", " words"),
    ("x <span", " class"),
    ("emoji 👩", "\u{200D}👩\u{200D}👦 kin"),
    ("accent e", "\u{301} more"),
    ("flag 🇨", "🇦 more"),
    ("cjk 中文", "段落 more"),
    ("[foo]", ": /url"),
    ("[foo]:", " /url words"),
    ("Term\n: ", "def"),
    ("a | b\n|---|---|\n| c", " d |"),
    ("~~strike", " more"),
    ("line one\r\nline", " two words"),
    ("Intro text", " here\n| a | b |\n|---|---|\n| c | d |\n"),
    ("trailing \\", "escaped"),
    ("under_score", "d words"),
    ("*bar*: /url\n\n[foo]: /url", " \"title\" words"),
    ("- **bold** text", " and more"),
    ("x [a](b) `c` **d** then", " more words"),
    ("12", "34 words"),
    ("user", "name@example.com"),
    ("user@example", ".com more"),
    ("a: http", "://x.org"),
    ("wor", "ds. More sentences, with commas. And www.example.com too."),
  ]

  @Test func continuationsShowWhatTheHealShows() {
    for (before, after) in Self.cases {
      let text = before + after
      let pieces = [before] + after.map { String($0) }
      #expect(StreamingFastPathTests.firstDifference(pieces) == nil, "\(text.debugDescription)")
      #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil, "\(text.debugDescription)")
      for seed in UInt64(1)...3 {
        let chunks = StreamingHarness.randomCharacterChunks(text, seed: seed)
        #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription) seed \(seed)")
      }
    }
  }

  /// The extension is taken on ordinary prose (a test that it is not dead code).
  @Test func proseTakesTheShortcut() {
    var stream = MarkdownStream()
    _ = stream.feed("Some words")
    var parsed = 0
    for word in ["here", "and", "there", "again"] { parsed += stream.feed(" " + word).statistics.parsedBytes }
    #expect(parsed == 0)
  }

  /// Every corpus reply and seeded mixed replies, random chunkings.
  @Test func repliesShowWhatTheHealShows() throws {
    var texts = try SharedData.corpusReplies().map { ($0.name, $0.markdown) }
    for seed in UInt64(1)...6 {
      texts.append(("mixed seed \(seed)", MixedReplyGenerator(seed: seed).reply(bytes: 6_000)))
    }
    for (index, (name, text)) in texts.enumerated() {
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: UInt64(index + 5), maximum: 24)
      let difference = StreamingFastPathTests.firstDifference(chunks, allConsumers: index % 3 == 0)
      #expect(difference == nil, "\(name): \(difference ?? "")")
    }
  }
}
