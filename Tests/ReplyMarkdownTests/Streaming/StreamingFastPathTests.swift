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
    // Code that continues an open line (`MarkdownStreamTail.extends`): a line of spaces that a
    // closing fence follows, a mark that joins the letter before it, a line that strips the
    // opener's indentation, a tab, a closing fence's prefix that text continues.
    "```\nab\n   ```\nafter\n",
    "```\ncode\n   \n  ```  \n",
    "  ```\n   x\n  e\u{301}\u{302} more\n  \u{1F44D}\u{1F3FD} ok\n```\n",
    "```\n\tx = 1\n``x\n`` \n```",
  ]

  /// Streams `text` in `chunks` through both paths and returns the first difference (plain and
  /// terminal lines compared too when `allConsumers`).
  static func firstDifference(_ chunks: [String], allConsumers: Bool = true, options: ParseOptions = .github)
    -> String?
  {
    var fast = MarkdownStream(options: options)
    var slow = MarkdownStream(options: options)
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
        let shared = zip(fastHTML.html, slowHTML.html).prefix(while: { $0 == $1 }).count
        return "html after …\(String(received.suffix(160)).debugDescription): fast …"
          + "\(String(fastHTML.html.dropFirst(max(0, shared - 60))).debugDescription), slow …"
          + String(slowHTML.html.dropFirst(max(0, shared - 60))).debugDescription
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

  /// Links whose destination arrives over several updates (``OpenDestination``): destinations that
  /// stay valid, nest parentheses, take the angle form, a title, an escape, a space that ends
  /// them, a line break, a pipe or brackets; in a heading, a list item, a quote, a table cell,
  /// emphasis and a task item; an image's and a footnote reference's.
  static let destinations = [
    "See [the docs](https://example.com/a/long/path/to/the/page?query=1&b=2#frag) for more.\n",
    "[a](https://en.wikipedia.org/wiki/Foo_(bar)_baz) and [b](http://x/((y)))z\n",
    "[a](<https://x y/long/enough>) then [b](http://x \"a title\") and [c](http://x\\)y/more)\n",
    "[a](http://x/yyy zzz) [b](http://x/yyy\nzzz) [c](http://x|y) [d](http://x[x]y/zz)\n",
    "# [heading](http://example.com/heading/path)\n- [item](http://example.com/item/path/x) *a\n",
    "> [quoted](http://example.com/q/path/long) **b**\n\n| h | i |\n|---|---|\n| [c](http://example.com/cell) | d |\n",
    "**[bold](http://example.com/bold/path/longer)** and _[u](http://x/*_*/~/__/end)_\n",
    "- [ ] [task](http://example.com/x[x]/more) [^1](http://example.com/footnote)\n\n[^1]: note\n",
    "![image](http://example.com/image/path.png) [a](http://例え.jp/パス/長い) [b](http://x/&amp;/y)\n",
    "[a](http://x/<y>/z) [b](http://x/`y`/z) [c](http://x/'y'/z) [d](http://x/\"y\"/z)\n",
  ]

  @Test(arguments: destinations)
  func destinationShortcutShowsWhatTheParseShows(text: String) {
    #expect(Self.firstDifferenceInChunkings(text) == nil)
  }

  /// ``firstDifference(_:allConsumers:options:)`` of `text` in single characters, then in the
  /// seeded random chunkings `seeds`; nil when every one shows the same.
  static func firstDifferenceInChunkings(_ text: String, seeds: ClosedRange<UInt64> = 1...4) -> String? {
    if let difference = firstDifference(text.map { String($0) }) { return "single characters: " + difference }
    for seed in seeds {
      if let difference = firstDifference(StreamingHarness.randomCharacterChunks(text, seed: seed)) {
        return "seed \(seed): " + difference
      }
    }
    return nil
  }

  /// While a link's destination arrives, the update keeps the last tail and parses nothing: of
  /// the 5-byte updates inside a 200-byte address, all but the first and the last.
  @Test func aDestinationStillArrivingKeepsTheLastTail() {
    let address = "https://example.com/" + String(repeating: "segment/", count: 22) + "end"
    let lead = "A paragraph cites [a source]("
    let text = lead + address + ") and goes on.\n"
    var stream = MarkdownStream()
    var kept = 0
    var inside = 0
    var serial = 0
    var offset = text.startIndex
    var received = 0
    let opening = lead.utf8.count
    while offset < text.endIndex {
      let end = text.index(offset, offsetBy: 5, limitedBy: text.endIndex) ?? text.endIndex
      let update = stream.feed(String(text[offset..<end]))
      received += text[offset..<end].utf8.count
      if received > opening + 5 && received < opening + address.utf8.count {
        inside += 1
        if update.tail.serial == serial && update.statistics.parsedBytes == 0 { kept += 1 }
      }
      serial = update.tail.serial
      offset = end
    }
    #expect(inside >= 35)
    #expect(kept >= inside - 2, "\(kept) of \(inside) updates inside the address kept the last tail")
    #expect(Self.firstDifference(text.map { String($0) }) == nil)
  }

  /// Words that continue a long list's open item (or a long table's open row) grow the last tail,
  /// and the plain consumer adds them to the item's last line (the row's line) shown: every
  /// update shows what the parsed path shows.
  @Test(arguments: [false, true])
  func wordsContinuingALongBlocksOpenPartShowWhatTheParseShows(table: Bool) {
    var text = table ? "| # | name | note |\n|---|:---:|---|\n" : ""
    for index in 1...30 {
      if table {
        text += "| \(index) | name `\(index)` | a note with **bold** words, then plain words that go on |\n"
      } else {
        text += "- item \(index) has **bold** words and `code`, then plain words that go on for a while\n"
        if index % 10 == 0 { text += "  continued on a line of its own with more plain words\n" }
      }
    }
    var stream = MarkdownStream()
    var extended = 0
    var chunks: [String] = []
    var offset = text.startIndex
    while offset < text.endIndex {
      let end = text.index(offset, offsetBy: 5, limitedBy: text.endIndex) ?? text.endIndex
      chunks.append(String(text[offset..<end]))
      let update = stream.feed(chunks[chunks.count - 1])
      switch update.tail.container {
      case .list? where !table, .table? where table: if update.tail.extends != 0 { extended += 1 }
      default: break
      }
      offset = end
    }
    #expect(extended >= 100, "\(extended) updates extended the open part of a long \(table ? "table" : "list")")
    #expect(Self.firstDifference(chunks) == nil)
  }

  /// Code that continues the open line of a long fence grows the last tail (no new tail made):
  /// the tail extends the last one by that code, and the consumers show what the tail shows.
  @Test func codeContinuingTheOpenLineExtendsTheLastTail() {
    let text = "```swift\n" + String(repeating: "let value = compute(1, 2, 3) // a line of code\n", count: 20) + "```\n"
    var stream = MarkdownStream()
    var extended = 0
    var updates = 0
    var offset = text.startIndex
    while offset < text.endIndex {
      let end = text.index(offset, offsetBy: 5, limitedBy: text.endIndex) ?? text.endIndex
      let update = stream.feed(String(text[offset..<end]))
      updates += 1
      if update.tail.extends != 0 {
        extended += 1
        #expect(!update.tail.appendedText.isEmpty && !update.tail.appendedText.contains("\n"))
      }
      offset = end
    }
    // Of the 10 updates per line, the one with the line break and the one after it make a tail.
    #expect(extended * 10 >= updates * 7, "\(extended) of \(updates) updates extended the tail")
    #expect(Self.firstDifference(text.map { String($0) }) == nil)
  }

  /// Generated fences whose lines mix what decides how a line shows (spaces, a tab, fence
  /// characters, marks that join the character before them, emoji and their modifiers, carriage
  /// returns), streamed in chunks of 1 to 6 scalars (a mark may arrive apart from its letter):
  /// every update shows what the parsed path shows, in every consumer.
  @Test func generatedFencesShowWhatTheParseShows() {
    let pieces = [
      "x", "let a = 1", " ", "  ", "   ", "\t", "`", "``", "```", "~", "~~~", "e\u{301}", "\u{301}", "\u{1F44D}",
      "\u{1F3FD}", "\u{200D}", "\u{1F1E8}", "\u{1F1E6}", "a b", "<b>", "&amp;",
    ]
    var generator = StreamingHarness.SeededGenerator(state: 29)
    for index in 0..<60 {
      let fence = Bool.random(using: &generator) ? "```" : "~~~"
      var text = String(repeating: " ", count: Int.random(in: 0...3, using: &generator)) + fence
      text += Bool.random(using: &generator) ? "\n" : " swift\n"
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        for _ in 0..<Int.random(in: 0...5, using: &generator) { text += pieces.randomElement(using: &generator)! }
        text += Int.random(in: 0..<6, using: &generator) == 0 ? "\r\n" : "\n"
      }
      if Bool.random(using: &generator) { text += fence + "\nafter\n" }
      var chunks: [String] = []
      var scalars = text.unicodeScalars[...]
      while !scalars.isEmpty {
        let length = Int.random(in: 1...6, using: &generator)
        var chunk = String.UnicodeScalarView()
        chunk.append(contentsOf: scalars.prefix(length))
        chunks.append(String(chunk))
        scalars = scalars.dropFirst(length)
      }
      let difference = Self.firstDifference(chunks)
      #expect(difference == nil, "fence \(index) \(text.debugDescription): \(difference ?? "")")
    }
  }

  /// Long tables whose header row is plain words, whose rows are parsed after a stand-in header of
  /// as many columns (`LongBlock.rowsHeader`): rows with fewer and more cells than the header,
  /// escaped pipes, pipes in code, every alignment, one column, a CRLF table, a row that ends the
  /// table, show what rows parsed after the real header show.
  static let tables = [
    "| Name | Value | Note |\n|:---|:---:|---:|\n| a | b | c |\n| one |\n| 1 | 2 | 3 | 4 | 5 |\n| x \\| y | `a|b` | **c** |\n"
      + "| [l](u) | www.x.com | <b>t</b> |\n\nafter\n",
    "| # | name = value; $5 ^ |\n| - | - |\n| 1 | one |\n| 2 |\n|3|three|extra|\n> quote\n",
    "| solo |\n|:-:|\n| a |\n| b | c |\n|\n| d |\n",
    "Name | Value\r\n--- | ---:\r\n a | b\r\n c | d\r\n e\r\n\r\nafter",
    "| A | B |\n|---|---|\n| [^1] | x |\n| y | [^1] |\n\n[^1]: note\n",
    "| h1 | h2 | h3 | h4 |\n| :- | -: | :-: | - |\n" + String(repeating: "| c | *d* | `e` | f |\n", count: 12)
      + "- item\n",
  ]

  @Test(arguments: tables)
  func tableRowsShowWhatTheHeaderShows(text: String) {
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
    ("key", ": value = 3 and a: b, x=y == z"),
    ("a: b", " c: http://x.org/a=b"),
    ("mailto", ":me@example.org"),
    ("see", " xmpp:foo@bar.org"),
    ("ftp", "://host/a"),
    ("Head\n=", "= words"),
    ("Head\nfoo", "= bar"),
    ("ratio 3", ":4 and time 10:30: done"),
    ("at the end:", " http"),
    ("see https:", "//example.com/x"),
    // Words inside emphasis the healer closed: they go before the same closers.
    ("x *em", " more words"),
    ("x _em", "phasis and more"),
    ("***both", " words here"),
    ("*a **b", " c d"),
    ("这是**重要", "的内容 more"),
    ("*foo*bar*baz", "qux more"),
    ("# T *em", " words"),
    ("*a [l](u) b", " c"),
    ("**a *b* c", " d e"),
    ("*a.", " b"),
    ("*[x] a", " (b) [c"),
    ("~single", " more"),
    ("a ~~b", "c ~ d"),
    ("**a", " (b) 'c' 50%"),
    ("*a ", "b"),
    ("_a_b", "c d"),
    ("*a `b` c", " d"),
    ("**bold** then *em", " more: http"),
    ("*em www", ".x.org more"),
    ("- item *em", " more"),
    ("> *q", " more"),
    ("*a\n**b", " c"),
    ("[*a", " b](u) c"),
    ("*a ![i](u) b", " c"),
    // The last cell of a table's open row.
    ("| a | b |\n|---|---|\n| c | d", "d more words, (and) 50%"),
    ("| a | b |\n|:-|-:|\n| c | *d", "d more"),
    ("| a | b |\n|---|---|\n| c | d | e", "e more"),
    ("| a | b |\n|---|---|\n| c | d \\| e", "e more"),
    ("| a | b |\n|---|---|\n| c | d  ", "e more  "),
    ("| a | b |\n|---|---|\n| c | www", ".x.org more"),
    ("| a | b |\n|---|---|\n| c | x [^1", "] more"),
    ("| a |\n|---|\n|", " c"),
    ("| a |\n|---|\n| c\n|", "d"),
    ("Intro\n| a | b |\n|---|---|\n| c | d", "d e"),
    ("- | a | b |\n  |---|---|\n  | c | d", "d e"),
    ("> | a | b |\n> |---|---|\n> | c | d", "d e"),
    ("| a | b |\n|---|---|\n| c | d [x]", " more"),
    ("| a | b |\n|---|---|\n| c | `d", " more"),
    ("| a | b |\n|---|---|\n| c | d\t", "e"),
    ("| a | b |\n|---|---|\n| c | x | y x", " more"),
    ("| a | b |\n|---|---|\n| c | x | | y x", " more"),
    // (A table's first line indented: cmark-gfm shifts its cells' columns by that much; a review.)
    ("  a\n|-|\n|c|c", "de more"),
    ("   x\na\n|-|\n|c|c", "de more"),
    ("   *a* | b\n---|---\n|c |c|cde", " fgh"),
    ("  a | b\n--|--\n| 1 | 1", "1 more"),
    ("| a |\n|---|\n| c \\| d", " e"),
    ("| a | b |\n|---|---|\n| `x|y` | c", "d"),
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

  /// The extension is taken in a table's open row, after its last cell's first words: a long
  /// table's and one in the open part.
  @Test(arguments: ["| a | b |\n|---|---|\n| c | d\n| e | f", "Intro\n\n| a | b |\n|---|---|\n| e | f"])
  func tableCellsTakeTheShortcut(start: String) {
    var stream = MarkdownStream()
    _ = stream.feed(start)
    var parsed = 0
    for word in ["here", "and", "there", "again"] { parsed += stream.feed(" " + word).statistics.parsedBytes }
    #expect(parsed == 0)
  }

  /// The extension is taken on ordinary prose (a test that it is not dead code).
  @Test func proseTakesTheShortcut() {
    var stream = MarkdownStream()
    _ = stream.feed("Some words")
    var parsed = 0
    for word in ["here", "and", "there", "again"] { parsed += stream.feed(" " + word).statistics.parsedBytes }
    #expect(parsed == 0)
  }

  /// The same inside emphasis still open, which the healer closes after the words: a long bold
  /// phrase, strikethrough, or CJK strong text arriving word by word parses nothing more.
  @Test(arguments: [
    ("Some **important", ["note", "about", "the", "whole", "setup"], " "),
    ("> A ~~struck", ["out", "line", "of", "text"], " "),
    ("# Heading *with", ["several", "words"], " "),
    ("这是**重要", ["的", "内容", "和", "文字"], ""),
  ])
  func emphasisWordsTakeTheShortcut(start: String, words: [String], separator: String) {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    html.apply(stream.feed(start))
    var parsed = 0
    for word in words {
      let update = stream.feed(separator + word)
      parsed += update.statistics.parsedBytes
      let edit = html.apply(update)
      #expect(edit.appended.utf8.count <= (separator + word).utf8.count + 30, "\(edit.appended.debugDescription)")
    }
    #expect(parsed == 0)
    html.apply(stream.finish())
    let text = start + words.map { separator + $0 }.joined()
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
  }

  /// The open paragraph of the last heal is reused only when its last line's block was settled
  /// then: a line of blanks may still start any block (`*!`, a line of a space, then `>` and NBSP
  /// on it: the quote closed the paragraph, whose emphasis still showed closed).
  @Test(arguments: [
    ["*!\n ", ">\u{A0}"], ["*a\n ", "> b"], ["*a\n  ", "- b"], ["**a\n ", "# b"], ["*a\n\t", "```"],
  ])
  func knownParagraphNeedsASettledLastLine(chunks: [String]) {
    #expect(StreamingFastPathTests.firstDifference(chunks) == nil)
  }

  /// A paragraph that opens with a bracket is known from the last heal as any other once its first
  /// label is closed and a byte other than `:` follows it (no definition can open it then): each
  /// heal parses it once, so the definitions it uses, parsed before it, count once per update
  /// (`lookbackBytes`), as for a paragraph that opens with a word. A scan of the seeded mixed
  /// reply found 245 of its 1,266 parses that look for the open block at 50 KB spent so.
  @Test(arguments: ["[d] and [a link](http://b.c) with", "[a link](http://b.c) and [d] with", "[d][] and [d] with"])
  func aParagraphOpeningWithALabelIsHealedWithOneParse(start: String) {
    func lookbacks(_ start: String) -> [Int] {
      var stream = MarkdownStream()
      _ = stream.feed("[d]: http://d.example/defined\n\n" + start)
      return [" *more", " words*", " and `code", "` and *end"].map { stream.feed($0).statistics.lookbackBytes }
    }
    let word = lookbacks("x " + start)
    #expect(word.allSatisfy { $0 > 0 })
    #expect(lookbacks(start) == word)
    // A task item's marker, which cmark-gfm's tasklist extension takes off, still waits for the
    // label after it: a definition may open there.
    #expect(PlainTextExtension.opensNoDefinition(Array("[x] [d]: u".utf8)[...]) == false)
    #expect(PlainTextExtension.opensNoDefinition(Array("[d]: u".utf8)[...]) == false)
    #expect(PlainTextExtension.opensNoDefinition(Array("[d".utf8)[...]) == false)
    #expect(PlainTextExtension.opensNoDefinition(Array("[d] u".utf8)[...]))
  }

  /// With smart punctuation, quotes, dashes and dots are read with their neighbours: they take a
  /// heal (a review: `a --`, then ` b` showed `a -- b` where the heal shows an en dash). And words
  /// after a hidden footnote reference inside emphasis take one too (four levels of one-byte
  /// closers spanned its bytes: `*a _b *c _(`, `[^1](`, then `x`, showed `(x` before it).
  @Test(arguments: [
    ["a -", "- b c"], ["x it", "' d e"], ["a \"b", "\" c"], ["a ..", ". b"], ["*a-", "-b c"], ["\"*a b", "\" c"],
    ["x 'a b", " c", "' d"],
  ])
  func smartPunctuationTakesAHeal(chunks: [String]) {
    #expect(StreamingFastPathTests.firstDifference(chunks, options: [.github, .smartPunctuation]) == nil)
    let long = String(repeating: "word ", count: 30)
    #expect(
      StreamingFastPathTests.firstDifference(
        [long + chunks[0]] + chunks.dropFirst(),
        options: [
          .github, .smartPunctuation,
        ]) == nil)
  }

  @Test(arguments: ["*a _b *c _([^1](xyz", "*a ~b *c ~([^1](xyz", "_a *b _c *([^1](xyz"])
  func wordsAfterAHiddenReferenceInEmphasisTakeAHeal(text: String) {
    #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil)
  }

  /// Seeded lines dense with emphasis, strikethrough, code, links and CJK text, streamed in
  /// random chunks: every display of the shortcut is what a heal shows.
  @Test func generatedInlineLinesShowWhatTheHealShows() {
    let pieces = [
      "word", " ", " ", "more", "*", "**", "***", "_", "__", "~", "~~", "`", "重要", "的", ".", ",", "!", "(", ")",
      "[", "](u)", "\u{A0}", "'", "-", "a", "1", "\\", "# ", "> ", "- ", "\n", "www.", "@", ":", "&amp", "<span>",
      "[^1]", "\t", "\r\n", "\u{3000}", "é", "👍", "\u{301}",
    ]
    var random = SplitMix64(seed: 44)
    for _ in 0..<600 {
      let count = Int.random(in: 4...24, using: &random)
      let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: random.next(), maximum: 5)
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription)")
    }
  }

  /// The HTML consumer adds the words to what it shows (the closing tags after them stay): an
  /// update's edit is the words and those tags, not the paragraph again. A count, not a time.
  @Test func htmlConsumerAddsTheWordsOnly() {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    html.apply(stream.feed("> Some *quoted* words & more"))
    for word in ["here", "and", "'there'", "again"] {
      let edit = html.apply(stream.feed(" " + word))
      #expect(edit.appended.utf8.count <= " \(word)".utf8.count + 30, "\(word) \(edit.appended.debugDescription)")
    }
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument("> Some *quoted* words & more here and 'there' again")))
  }

  /// The same in the last cell of a long table's open row: the words go before the cell's, the
  /// row's and the table's closing tags.
  @Test func tableCellWordsAreAddedInPlace() {
    let start = "| a | b |\n|:-|-:|\n" + (1...12).map { "| \($0) | cell \($0) |\n" }.joined() + "| last | some & many"
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    html.apply(stream.feed(start))
    for word in ["words", "more", "(here)", "again"] {
      let edit = html.apply(stream.feed(" " + word))
      #expect(edit.appended.utf8.count <= " \(word)".utf8.count + 40, "\(word) \(edit.appended.debugDescription)")
    }
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(start + " words more (here) again")))
  }

  /// The same in the open item of a long list (shown in pieces): the words go before the item's
  /// and the list's closing tags, and every display is what a heal shows.
  @Test func listItemWordsAreAddedInPlace() {
    let text = (1...16).map { "- item \($0) with some words & more words here" }.joined(separator: "\n")
    var chunks: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = line.split(separator: " ")
      chunks.append((chunks.isEmpty ? "" : "\n") + words[0] + " " + words[1])
      for word in words.dropFirst(2) { chunks.append(" " + word) }
    }
    #expect(StreamingFastPathTests.firstDifference(chunks) == nil)
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var small = 0
    for chunk in chunks {
      let edit = html.apply(stream.feed(chunk))
      if edit.appended.utf8.count <= chunk.utf8.count + 20 { small += 1 }
    }
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    #expect(small * 2 >= chunks.count, "\(small) of \(chunks.count) updates added their words only")
  }

  /// Emoji a blank follows are complete: words of them continue the line without a parse (the
  /// extension failed on the trimmed end, so a 6 KB line of `😀 ` parsed 19 bytes per byte, and
  /// every update of a longer one read the whole line: a trial). A count, not a time.
  /// A line of `=` or `-` alone under a paragraph is its setext underline: bytes added to it are
  /// not the heading's words, and a byte of another kind makes the line text again (fuzz seed
  /// 1369: `==`, a line `===`, then `==` showed the heading as `====`). A line of `-` and `:` may
  /// be a table's delimiter row, also under a header without a pipe (fuzz seed 1371: `:-`, then a
  /// line `:` growing to `:-:`, showed text where a parse shows a table).
  @Test(arguments: [
    ["\n==\n===", "==", "a"], ["==\n===", "=", "=", " b"], ["Title\n---", "--", "x"], ["> a\n> ==", "=", "c"],
    ["- item\n  --", "-", "-"], ["words\n\n:-\n:", "-", ":"], ["a | b\n:", "-", ":", " | -"],
    [" -   ] one\n\n <\t\"[\t  | abc | defghi | <\t\"[\t  | abc | defghi |\n:-\n", ":", "-:", " | -------   two\n"],
  ])
  func setextUnderlinesAndDelimiterRowsTakeAHeal(chunks: [String]) {
    #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(chunks)")
  }

  @Test func emojiWordsTakeTheShortcut() {
    let units = ["😀 ", "🎉 ", "👍🏽 ", "❤️ "]
    let line = "Votes: " + (0..<1_000).map { units[$0 % units.count] }.joined()
    let bytes = Array(line.utf8)
    var stream = MarkdownStream()
    var parsed = 0
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 20)
      parsed += stream.feed(bytes: bytes[offset..<end]).statistics.parsedBytes
      offset = end
    }
    #expect(parsed <= 4 * bytes.count, "parsed \(parsed) bytes for \(bytes.count)")
    let chunks = StreamingHarness.randomCharacterChunks(String(line.prefix(300)), seed: 7)
    #expect(StreamingFastPathTests.firstDifference(chunks) == nil)
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

/// What arrives after a clean point on the open paragraph's last line is healed on its own and
/// appended (`TailCheckpoint`); the display must be what a full heal shows, at every update.
@Suite struct StreamingTailCheckpointTests {
  /// Constructs that reach across blanks, or look as if they might: each line is long enough to
  /// hold clean points before and after them.
  static let lines = [
    "Some words then *emphasis that spans several words* and more words after it, then the end",
    "Words `code with spaces` and ``double `tick` code`` then `unclosed code span that goes on",
    "A [link text with spaces](https://example.com/a b) and [ref] and [full][ref] and [x] (not a link)",
    "Snake_case_words and _emphasis words_ and __strong words__ and intra_word_ under_scores here",
    "Strike ~~through these words~~ and ~single tilde~ and ~~~ three and ~~open strike to the end",
    "Nested **strong with *em inside* words** then ***both kinds*** then **a *b** c* d end",
    "Autolinks www.example.com and https://example.org/x?y=1 and mail me@example.com and <https://a.b/c d>",
    "Entities &amp; and &copy and &#123; and escapes \\* not em \\` not code \\[ not link",
    "Inline <span class=\"a b\">html</span> and <!-- comment with spaces --> and <em>tag</em> done",
    "Images ![alt text here](https://example.com/i.png \"title here\") and ![partial image",
    "Footnote refs [^1] and [^note] then text, and a hard end with spaces at the end   ",
    "CJK 東京 データ and emoji 👩‍👩‍👦 📦 ✅ with e\u{301} combining and 🇨🇦 flags and more words",
    "Trailing markers **bold** and *em* then ` code ` and ~~s~~ and a lone * star and _ under",
    "Pipes are not here but brackets [a [nested] b](u) and [unclosed bracket then words go on",
  ]

  /// Each line alone, in list items, in a quote, under a list item, after definitions, and as
  /// the last line of a paragraph (CRLF).
  static let replies: [String] = lines.flatMap(contexts)

  static func contexts(_ line: String) -> [String] {
    let item: String = "- " + line + "\n- " + line + "\n"
    let quote: String = "> " + line + "\n> second " + line + "\n"
    let nested: String = "1. item\n   " + line + " and " + line + "\n"
    let defined: String = "[ref]: https://example.com/ref\n[^1]: A note.\n\n" + line + "\n"
    let last: String = "Intro line\n" + line + "\r\n"
    return [line + "\n", item, quote, nested, defined, last]
  }

  @Test(arguments: replies)
  func checkpointShowsWhatTheHealShows(text: String) {
    #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil, "\(text.debugDescription)")
    for seed in UInt64(1)...3 {
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: seed, maximum: 12)
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription) seed \(seed)")
    }
  }

  /// The words after a point belong to the last line's paragraph, never to one before it: where
  /// the last line's block shows nothing (a footnote definition nothing cites, which cmark-gfm
  /// drops; its label one the stream's scan cannot key), no point is taken (fuzz seed 1358).
  @Test(arguments: [
    "> t \"t\"\n\n[^[" + String(repeating: "a[", count: 70) + "b]:  1\nText  se more words\n",
    "Intro words here\n\n[^x[" + String(repeating: "y", count: 140) + "]: note\nlazy words and more words\n",
    "- item\n\n[^[" + String(repeating: "a", count: 140) + "]: note [^1]\nand some lazy words *em* go on\n",
  ])
  func wordsAfterAPointStayInTheOpenParagraph(text: String) {
    #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil, "\(text.debugDescription)")
  }

  /// A Unicode space is a blank to the heal, which trims it with the blanks after it where a byte
  /// is held back (`&`): a point after one would keep it in the display where a full heal drops
  /// it (a review's input: `Text &lsqb;x\\]`, a space, a no-break space, a space and `&#6`).
  @Test(arguments: ["\u{A0}", "\u{3000}", "\u{2002}", "\u{202F}", "\u{1680}"])
  func noPointFollowsAUnicodeSpace(space: String) {
    let words = String(repeating: "Some plain words here, ", count: 7)
    let cases = [
      (words + "end " + space + " ", "&#6"), (words + "x" + space + " ", " &"), (words + "end " + space + " ", "&"),
    ]
    for (first, rest) in cases {
      let chunks = [first] + rest.map { String($0) }
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(chunks.debugDescription)")
      let item = ["- " + first] + rest.map { String($0) }
      #expect(StreamingFastPathTests.firstDifference(item) == nil, "\(item.debugDescription)")
    }
  }

  /// An intraword run that can open emphasis stays text in a heal until a closer comes, which a
  /// later line may bring: no point follows it (a review: `3*4` on an earlier line of a quote, and
  /// again after a point on the last, showed no emphasis where a full heal shows it).
  @Test(arguments: [
    " > here **** end beta +\r\n>3*4 = `|` \\| alpha x_y_z  \t\r> note <span> + 2) q go <span> \\*\t\r\n"
      + ">gamma ***x*** ! \\` <https://a.b> 3*4 ",
    " *b* c** 3*\u{351}\u{36B}\u{343}\u{202F}[^1]\nx_y_z\u{A0}\u{200B}\u{2002}words +\u{A0}***x*** \u{5E9}\u{5DC}"
      + "\u{5D5}\u{5DD} </\u{65E5}\u{A0}*\u{A0}x\u{A0}* 1 beta s\u{3000}\u{200B} foo-bar#;\u{202F}words 3*4\u{202F}![i](/i.``",
    "Some words 2*3 here\n" + String(repeating: "and more plain words ", count: 8) + "then 4*5 end",
    "- Some words 2*3 here, " + String(repeating: "and more plain words ", count: 8) + "then 4*5 end",
  ])
  func noPointFollowsAnOpenerLeftAsText(text: String) {
    #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil, "\(text.debugDescription)")
    let chunks = StreamingHarness.randomCharacterChunks(text, seed: 3, maximum: 12)
    #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription)")
  }

  /// A `[` that a link after it made text stays open to cmark-gfm, which then links no `www.` or
  /// `scheme:` address: no point follows it (a review: an address after a point showed linked).
  @Test(arguments: [
    "\u{1B}[\u{3002}\n**strong**[link](/u) x \\* here\u{3000}on " + String(repeating: "\u{FFFD}", count: 30),
    "A [ bracket here\nthen [a link](/u) and " + String(repeating: "more plain words ", count: 8) + "see",
    "> [ quoted\n> [a link](/u) and " + String(repeating: "more plain words ", count: 8) + "see",
  ])
  func noPointFollowsABracketLeftAsText(start: String) {
    for rest in [" www.example.com/x now", " https://example.com/y then", " www.example.com"] {
      #expect(StreamingFastPathTests.firstDifference([start, rest]) == nil, "\((start + rest).debugDescription)")
    }
  }

  /// A long line with markup every few words: once the line is under way, no update parses more
  /// than what arrived since a clean point (a count, not a time).
  @Test func longLineParsesOnlyTheNewText() {
    let line = String(
      repeating: "Some **bold** words and `code` and a [link](https://example.com/x) and *em* here, ", count: 40)
    var stream = MarkdownStream()
    let bytes = Array(line.utf8)
    var largest = 0
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 20)
      let parsed = stream.feed(bytes: bytes[offset..<end]).statistics.parsedBytes
      if offset >= 400 { largest = max(largest, parsed) }
      offset = end
    }
    // The line is 3.3 KB; a full heal of it would parse all of it on every update.
    #expect(largest <= 256, "largest update parsed \(largest) bytes")
  }
}
