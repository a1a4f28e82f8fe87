import Testing

@testable import ReplyMarkdown

/// The plain-text and terminal consumers: their final output equals the one-shot renderers'
/// byte for byte, and committed lines only ever grow.
@Suite struct StreamingLineRendererTests {
  /// One seeded random Character chunking of a corpus reply through the HTML, plain and terminal
  /// consumers at once (P1 for that chunking in all three formats).
  @Test(arguments: StreamingHarness.corpus.indices)
  func finalOutputEqualsOneShotInEveryFormat(index: Int) throws {
    let ansi = ANSIRenderer(options: ANSIOptions(width: 72, color: true, hyperlinks: true))
    let (name, text) = StreamingHarness.corpus[index]
    let document = MarkdownDocument(text)
    let chunks = StreamingHarness.randomCharacterChunks(text, seed: UInt64(index + 7))
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var terminal = MarkdownStreamANSIRenderer(renderer: ansi)
    var plain = MarkdownStreamPlainRenderer()
    var committed = 0
    for chunk in chunks {
      let update = stream.feed(chunk)
      html.apply(update)
      let added = terminal.apply(update)
      plain.apply(update)
      #expect(terminal.committedLines.count == committed + added.count, "\(name)")
      committed = terminal.committedLines.count
    }
    let last = stream.finish()
    html.apply(last)
    terminal.apply(last)
    plain.apply(last)
    #expect(terminal.tailLines.isEmpty)
    #expect(html.html == HTMLRenderer().render(document), "html \(name)")
    #expect(terminal.text == ansi.render(document), "ansi \(name)")
    #expect(plain.text == PlainTextRenderer().render(document), "plain \(name)")
  }

  /// The plain consumer's byte split ends lines where splitting by `Character` does: `\r\n` is
  /// one character, so only a line feed on its own ends a line.
  @Test(arguments: [
    "a", "a\nb", "\n", "\n\n", "a\n", "\na", "a\r\nb", "a\r\n\nb", "\r\n", "a\rb\n", "é\n\u{301}x",
    "👩‍👩‍👦\n🇨🇦\r\n東京\n",
  ])
  func plainLinesSplitWhereCharactersDo(text: String) {
    let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(MarkdownStreamPlainRenderer.lines(text) == expected)
    #expect(MarkdownStreamPlainRenderer.lines("").isEmpty)
  }

  /// Codes for the code line tests: line feeds, carriage returns and `\r\n` at every place,
  /// blank and space-only lines, a final line feed or none, control characters, tabs, wide and
  /// combining text, and 400 seeded random mixes of them.
  static let sampleCodes: [String] = {
    var codes = [
      "a", "a\n", "\n", "\n\n", "\na\n", "  \n", "a  \n  \n", "\r", "\r\n", "a\r\n", "a\r\nb\n", "\r\n\n", "\n\r\n",
      "\u{1B}[31m\n", "\t\tx\u{0}\n", "東京\n\u{301}\n", "👩‍👩‍👦", "a\rb\rc\n",
      String(repeating: "long line ", count: 12) + "\n",
    ]
    let pieces = ["a", " ", "\n", "\r", "\r\n", "\t", "é", "\u{7}", "x y", "東京東京東京", "0123456789"]
    var random: UInt64 = 41
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    for _ in 0..<400 {
      codes.append((0...next(8)).map { _ in pieces[next(pieces.count)] }.joined())
    }
    return codes
  }()

  /// The plain consumer's code lines, made without a document, are the lines rendering the code
  /// in a code block gives.
  @Test func plainCodeLinesEqualRenderedCodeLines() {
    let plain = PlainTextRenderer()
    let render: @Sendable (MarkdownDocument) -> [String] = { MarkdownStreamPlainRenderer.lines(plain.render($0)) }
    for code in Self.sampleCodes {
      #expect(
        MarkdownStreamPlainRenderer.codeLines(code)
          == LineStreamOutput.codeLines(code, options: .github, render: render), "\(code.debugDescription)")
    }
  }

  /// The terminal renderer's code lines, made without a document (as for highlighted code), are
  /// the lines rendering the code in a code block gives, in colour or not, at any width.
  @Test(arguments: [(80, true), (80, false), (12, true), (5, false)])
  func terminalCodeLinesEqualRenderedCodeLines(width: Int, color: Bool) {
    let renderer = ANSIRenderer(options: ANSIOptions(width: width, color: color))
    let render: @Sendable (MarkdownDocument) -> [String] = { renderer.renderLines($0) }
    for code in Self.sampleCodes {
      #expect(
        renderer.codeLines(code, language: nil, state: .initial).lines
          == LineStreamOutput.codeLines(code, options: .github, render: render), "\(code.debugDescription)")
    }
  }

  @Test func tailShowsHealedOpenBlock() {
    var stream = MarkdownStream()
    var plain = MarkdownStreamPlainRenderer()
    plain.apply(stream.feed("# Title\n\nSome **bold"))
    #expect(plain.committedLines == ["Title"])
    #expect(plain.tailLines == ["", "Some bold"])
    var terminal = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 40)))
    var code = MarkdownStream()
    terminal.apply(code.feed("```swift\n" + (1...50).map { "let x\($0) = \($0)\n" }.joined()))
    #expect(terminal.tailLines.contains { $0.contains("let x50 = 50") })
    #expect(!terminal.tailLines.joined().contains("```"))
  }
}

/// The plain and terminal consumers render an open long block in pieces (head, settled parts
/// once, open remainder); after every update their lines equal the whole open block's rendering.
@Suite struct StreamingLinePiecesTests {
  static let inputs = [
    "```swift\nlet a = 1\n\n\n  b\n\tc\n" + String(repeating: "x", count: 90) + "\nend\n```\nafter\n",
    "```\n\n\nx\n```\n",
    "- one\n- two **b**\n- three\n\n  para\n- four\n  - nested\n  - more\n- five\n\nafter\n",
    "3. a\n4. b\n5. c [x]\n6. d\n7) e\n",
    "- [ ] task\n- [x] done\n- plain\n* other\n",
    "| a | b |\n|---|:-:|\n| 1 | two |\n| three | 4 |\n| five | six seven eight nine ten eleven twelve |\n\nafter\n",
    "1. x\n\n2. y\n3. z\n",
    "| a | b | c | d |\n|---|---|--:|:-:|\n| 1 | 2 | 3 | 4 |\n| x | y | z | w |\n| one | two | three | four |\n"
      + "| 5 | 6 | 7 | 8 |\n\nafter\n",
    "| h | i |\n|---|---|\n| **b** | [l](http://e.com) |\n| `c` | ~~s~~ |\n| wide wide wide | x |\n| y |\n",
  ]

  static func plainLines(_ document: MarkdownDocument) -> [String] {
    MarkdownStreamPlainRenderer.lines(PlainTextRenderer().render(document))
  }

  @Test(arguments: inputs)
  func piecesEqualTheWholeOpenBlock(text: String) {
    let ansi = ANSIRenderer(options: ANSIOptions(width: 24, color: true))
    for chunks in [text.map { String($0) }, StreamingHarness.randomCharacterChunks(text, seed: 5)] {
      var stream = MarkdownStream()
      func consumer(rowsRenderApart: Bool, inPieces: Bool, terminalTables: ANSIOptions? = nil)
        -> StreamConsumerCore<LineStreamOutput>
      {
        StreamConsumerCore(
          LineStreamOutput(rowsRenderApart: rowsRenderApart, inPieces: inPieces, terminalTables: terminalTables) {
            document in
            rowsRenderApart ? Self.plainLines(document) : ansi.renderLines(document)
          })
      }
      var pieces = (consumer(rowsRenderApart: true, inPieces: true), consumer(rowsRenderApart: false, inPieces: true))
      var whole = (consumer(rowsRenderApart: true, inPieces: false), consumer(rowsRenderApart: false, inPieces: false))
      // The terminal consumer's tables, laid out a row at a time.
      var tables = consumer(rowsRenderApart: false, inPieces: true, terminalTables: ansi.options)
      var received = ""
      for chunk in chunks {
        received += chunk
        let update = stream.feed(chunk)
        pieces.0.apply(update)
        whole.0.apply(update)
        pieces.1.apply(update)
        whole.1.apply(update)
        tables.apply(update)
        #expect(pieces.0.output.tailLines == whole.0.output.tailLines, "plain after \(received.debugDescription)")
        #expect(pieces.1.output.tailLines == whole.1.output.tailLines, "ansi after \(received.debugDescription)")
        #expect(tables.output.tailLines == whole.1.output.tailLines, "ansi tables after \(received.debugDescription)")
      }
    }
  }
}

/// `MarkdownStreamTail.document` is the whole open part: rendered alone, it shows what the HTML
/// renderer shows after the committed blocks, however the renderer split it into pieces.
@Suite struct StreamingTailDocumentTests {
  @Test(arguments: StreamingLinePiecesTests.inputs)
  func tailDocumentIsTheWholeOpenPart(text: String) {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var received = ""
    for chunk in StreamingHarness.randomCharacterChunks(text, seed: 7) {
      received += chunk
      let update = stream.feed(chunk)
      html.apply(update)
      guard update.held.isEmpty && !update.replacesHeld else { continue }
      let shown = String(decoding: html.utf8(html.committedLength..<html.utf8Count), as: UTF8.self)
      #expect(HTMLRenderer().render(update.tail.document) == shown, "after \(received.debugDescription)")
    }
  }
}
