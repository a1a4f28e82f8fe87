import Testing

@testable import ReplyMarkdown

/// The defects of issue 12, each as counts: what an update parses, what is held, what is lost.
@Suite struct StreamingDefectTests {
  /// A footnote defined before its use is rendered from the final parse's preamble, where its
  /// lines lay above the region: it carried `data-sourcepos="-3:7--3:10"` (a library trial). No
  /// range is below line 1 now, in any chunking.
  @Test func noSourcePositionIsBelowLineOne() {
    let renderer = HTMLRenderer(options: .sourcePositions)
    for text in ["[^1]: note\n\nb[^1]\n", "intro\n\n[^a]: one\n[^b]: two\n\nx[^a] y[^b]\n\n# end\n"] {
      for chunk in [1, 3, 400] {
        var stream = MarkdownStream()
        var html = MarkdownStreamHTMLRenderer(renderer: renderer)
        var documents: [MarkdownDocument] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset <= bytes.count {
          let update =
            offset == bytes.count
            ? stream.finish() : stream.feed(bytes: bytes[offset..<min(bytes.count, offset + chunk)])
          html.apply(update)
          documents += update.committed.map(\.document)
          offset += chunk
          if update.isFinal { break }
        }
        #expect(!html.html.contains("data-sourcepos=\"-"), "\(text.debugDescription), chunks of \(chunk)")
        for document in documents {
          for node in document.nodes { #expect((node.range?.start.line ?? 1) >= 0) }
        }
      }
    }
  }

  /// Streams `text` in `chunk`-byte pieces through the HTML consumer; returns the final HTML and
  /// every update's statistics.
  static func stream(_ text: String, chunk: Int, policy: MarkdownStream.ReferencePolicy = .live)
    -> (html: String, statistics: [MarkdownStreamStatistics])
  {
    var stream = MarkdownStream()
    stream.referencePolicy = policy
    var html = MarkdownStreamHTMLRenderer()
    var statistics: [MarkdownStreamStatistics] = []
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      let update = stream.feed(bytes: bytes[offset..<end])
      html.apply(update)
      statistics.append(update.statistics)
      offset = end
    }
    let last = stream.finish()
    html.apply(last)
    statistics.append(last.statistics)
    return (html.html, statistics)
  }

  static func oneShot(_ text: String) -> String { HTMLRenderer().render(MarkdownDocument(text)) }

  static let paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n\n"

  /// 1: a sentence glued to a table used to make every later update re-parse from the sentence.
  @Test func aSentenceGluedToATableClosesOnItsOwn() {
    let text = "Intro text\n| a | b |\n|---|---|\n| c | d |\n\n" + String(repeating: Self.paragraph, count: 300)
    let result = Self.stream(text, chunk: 20)
    #expect(result.html == Self.oneShot(text))
    let largest = result.statistics.dropLast().map(\.parsedBytes).max() ?? 0
    #expect(largest < 1_000, "largest update parsed \(largest) bytes")
    #expect(result.statistics.dropLast().last?.committedBytes ?? 0 > text.utf8.count - 200)
  }

  /// 3: a citation whose definition comes at the end used to hold every later block.
  @Test(arguments: ["Claim with a citation [1] in it.", "Claim with a footnote[^1] in it."])
  func referencesDefinedAtTheEndHoldWithinTheBudget(claim: String) {
    var text = ""
    for index in 0..<600 { text += "\(claim) Paragraph \(index).\n\n" }
    text += claim.contains("^") ? "[^1]: The note.\n" : "[1]: https://example.com/source\n"
    let result = Self.stream(text, chunk: 20)
    #expect(result.html == Self.oneShot(text))
    #expect(result.statistics.allSatisfy { $0.heldBytes <= 4096 })
    #expect(result.statistics.dropLast().last?.committedBytes ?? 0 > text.utf8.count - 5_000)
    // Held until the end, nothing commits early and the output is exact without a replacement.
    let strict = Self.stream(text, chunk: 20, policy: .holdUntilFinish)
    #expect(strict.html == Self.oneShot(text))
  }

  /// 4: link reference definitions used to make streaming cubic.
  @Test func manyDefinitionsCostTheirOwnSize() {
    func total(_ pairs: Int) -> Int {
      var text = ""
      for index in 0..<pairs { text += "[x]\n\n[y\(index)]: /u\n\n" }
      let result = Self.stream(text, chunk: 20)
      #expect(result.html == Self.oneShot(text))
      return result.statistics.map(\.parsedBytes).reduce(0, +)
    }
    let small = total(300)
    let large = total(600)
    #expect(Double(large) <= 2.2 * Double(small), "300 pairs: \(small) bytes parsed, 600: \(large)")
  }

  /// 5: one huge open block: the refresh schedule keeps the parsing per byte bounded.
  @Test func aHugeParagraphIsParsedAboutEightTimesPerByte() {
    let text = String(repeating: "word **bold** `code` and more words ", count: 1_500) + "\n"
    let result = Self.stream(text, chunk: 20)
    #expect(result.html == Self.oneShot(text))
    let parsed = result.statistics.map(\.parsedBytes).reduce(0, +)
    let perByte = Double(parsed) / Double(text.utf8.count)
    #expect(perByte < 1_200, "parsed \(perByte) times the text")
  }

  /// 6: an empty footnote definition, then a block, then indented code: the code was lost.
  @Test(arguments: [1, 3, 7, 100])
  func indentedCodeAfterAFootnoteDefinitionIsKept(chunk: Int) {
    let text = "[^1]:\n# Title\n    indented text\n"
    #expect(Self.stream(text, chunk: chunk).html == Self.oneShot(text))
  }

  /// A paragraph of more than 1 KB glued to a table (a long intro, then the table): the input
  /// guard splits the paragraph off with a line break before the header line, so that cmark-gfm
  /// does not read it again, and the parse's lines counted that break. The stream took the
  /// table to start a line later, and lost the header row: `| a | b |` was gone from the output
  /// (an adversarial trial; chunks of 64 bytes and more, and the whole text in one). Lines now
  /// count as the input's.
  @Test(arguments: [
    String(repeating: "x", count: 1030) + "\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "> " + String(repeating: "q ", count: 600) + "\n> | a | b |\n> |---|---|\n> | 1 | 2 |\n",
    String(repeating: String(repeating: "word ", count: 15) + "\n", count: 20)
      + "| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter.\n",
  ])
  func aTableAfterALongParagraphKeepsItsHeader(text: String) {
    let document = MarkdownDocument(text)
    #expect(document.diagnostics.map(\.kind) == [.tableHeaderScan])
    for chunk in [1, 7, 64, 4096] {
      let streamed = StreamingHarness.streamAllConsumers(text, chunk: chunk)
      #expect(streamed.html == HTMLRenderer().render(document), "chunk \(chunk)")
      #expect(streamed.plain == PlainTextRenderer().render(document), "chunk \(chunk)")
      #expect(streamed.terminalLines == ANSIRenderer(options: ANSIOptions(width: 60)).renderLines(document))
    }
  }

  /// The lines of a document the guard broke count as the input's: the table of a paragraph split
  /// off before its header starts on the header's line, and an inserted line maps to the line
  /// before it.
  @Test func guardedLineBreaksAreNotCounted() throws {
    let text = String(repeating: "x", count: 1030) + "\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    let document = MarkdownDocument(text)
    let table = try #require(document.nodes.firstIndex { if case .table = $0.kind { true } else { false } })
    #expect(document.nodes[table].range?.start.line == 2)
    #expect(document.nodes[table].range?.end.line == 4)
    var guarded = GuardedInput(text: "", diagnostics: [])
    guarded.linesBrokenBefore = [2, 2, 5]
    // Text lines: 1, (2), (3), 4 = input 2, 5, 6, (7), 8 = input 5.
    #expect([1, 2, 3, 4, 5, 6, 7, 8].map(guarded.inputLine) == [1, 1, 1, 2, 3, 4, 4, 5])
    let lines = Array("a\nb\r\nc\rd\n".utf8).withUnsafeBufferPointer {
      InputGuard.lines(of: [0, 2, 3, 6, 7, 9], in: $0)
    }
    #expect(lines == [1, 2, 2, 3, 4, 5])
  }

  /// 7: an empty list item after a paragraph gets no blank line in one-shot plain text and
  /// terminal output; streaming used to add one.
  @Test(arguments: ["Text\n- <span>\n", "Text\n\n- <span>\n", "x\n\n- > > ---\n- b\n"])
  func linesJoinAsOneShotJoinsThem(text: String) {
    for chunk in [1, 3, 100] {
      let streamed = StreamingHarness.streamAllConsumers(text, chunk: chunk)
      #expect(streamed.plain == PlainTextRenderer().render(MarkdownDocument(text)), "chunk \(chunk)")
      let lines = ANSIRenderer(options: ANSIOptions(width: 60)).renderLines(MarkdownDocument(text))
      #expect(streamed.terminalLines == lines, "chunk \(chunk)")
    }
  }
}
