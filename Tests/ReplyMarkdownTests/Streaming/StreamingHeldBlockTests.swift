import Testing

@testable import ReplyMarkdown

/// Held blocks (closed, but a later definition could change them) become real links as soon as
/// the definition arrives, before the end of the stream; committed blocks never change.
@Suite struct StreamingHeldBlockTests {
  static let text =
    "# Title\n\nSee [docs] and [other][ref].\n\nNext para.\n\n[docs]: https://example.com/docs\n\nMore text.\n\n"
    + "[ref]: https://example.com/ref\n\nEnd.\n"

  @Test func aDefinitionArrivingMidStreamResolvesHeldLinks() {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var plain = MarkdownStreamPlainRenderer()
    var terminal = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 60)))
    var committed = ""
    var committedLines: [String] = []
    var received = ""
    var sawDocsAlone = false
    for character in Self.text {
      received.append(character)
      let update = stream.feed(String(character))
      let edit = html.apply(update)
      plain.apply(update)
      terminal.apply(update)
      #expect(edit.keep >= committed.utf8.count, "retracted after \(received.debugDescription)")
      #expect(html.committedHTML.hasPrefix(committed))
      #expect(Array(terminal.committedLines.prefix(committedLines.count)) == committedLines)
      committed = html.committedHTML
      committedLines = terminal.committedLines
      if received.hasSuffix("\n\nMore") {
        // The first definition is in: its link is real, the other is still pending.
        #expect(html.html.contains("<a href=\"https://example.com/docs\">docs</a>"), "\(html.html)")
        #expect(html.html.contains("<a data-pending=\"\">other</a>"), "\(html.html)")
        #expect(plain.text.contains("docs (https://example.com/docs)"))
        #expect(terminal.text.contains("docs (https://example.com/docs)"))
        sawDocsAlone = true
      }
      if received.hasSuffix("\n\nEnd") {
        #expect(html.html.contains("<a href=\"https://example.com/ref\">other</a>"), "\(html.html)")
      }
    }
    #expect(sawDocsAlone)
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(Self.text)))
  }
}
