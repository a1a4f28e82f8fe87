import Testing

@testable import ReplyMarkdown

/// The plain-text and terminal consumers: their final output equals the one-shot renderers'
/// byte for byte, and committed lines only ever grow.
@Suite struct StreamingLineRendererTests {
  @Test func finalTerminalAndPlainOutputEqualOneShot() throws {
    let replies = try SharedData.corpusReplies()
    #expect(replies.count == 30)
    let ansi = ANSIRenderer(options: ANSIOptions(width: 72, color: true, hyperlinks: true))
    for (index, (name, text)) in replies.enumerated() {
      let document = MarkdownDocument(text)
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: UInt64(index + 7))
      var stream = MarkdownStream()
      var terminal = MarkdownStreamANSIRenderer(renderer: ansi)
      var plain = MarkdownStreamPlainRenderer()
      var committed = 0
      for chunk in chunks {
        let update = stream.feed(chunk)
        let added = terminal.apply(update)
        plain.apply(update)
        #expect(terminal.committedLines.count == committed + added.count, "\(name)")
        committed = terminal.committedLines.count
      }
      let last = stream.finish()
      terminal.apply(last)
      plain.apply(last)
      #expect(terminal.tailLines.isEmpty)
      #expect(terminal.text == ansi.render(document), "ansi \(name)")
      #expect(plain.text == PlainTextRenderer().render(document), "plain \(name)")
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
