import Testing

@testable import ReplyMarkdown

/// A footnote definition or indented code followed by a blank line closes as soon as the next
/// line begins without indentation, not when that line is complete.
@Suite struct StreamingNextLineCloseTests {
  static func shown(_ chunks: [String]) -> [String] {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    return chunks.map { chunk in
      html.apply(stream.feed(chunk))
      return html.html
    }
  }

  @Test func aFootnoteDefinitionClosesWhenTheNextLineBegins() {
    let frames = Self.shown(["Fact[^a] stands.\n\n", "[^a]: Source.\n", "\n", "N"])
    #expect(!frames[2].contains("footnote-ref"), "still open after the blank line: \(frames[2])")
    #expect(frames[3].contains("<sup class=\"footnote-ref\"><a href=\"#fn-a\""), "\(frames[3])")
  }

  @Test(arguments: [" ", "\r", "\t"])
  func aBlankOrALineEndDoesNotCloseIt(first: String) {
    let frames = Self.shown(["Fact[^a] stands.\n\n", "[^a]: Source.\n", "\n", first])
    #expect(!frames[3].contains("footnote-ref"), "\(first.debugDescription): \(frames[3])")
    // And the whole reply still ends as one-shot rendering.
    let text = "Fact[^a] stands.\n\n[^a]: Source.\n\n" + first + "   more of the note\n"
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    for byte in text.utf8 { html.apply(stream.feed(bytes: [byte])) }
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
  }

  @Test func indentedCodeClosesWhenTheNextLineBegins() {
    let text = "Intro.\n\n    let x = 1\n    let y = 2\n\nAfter the code.\n"
    var stream = MarkdownStream()
    var committedCodeBefore: Int?
    let bytes = Array(text.utf8)
    for end in 1...bytes.count {
      let update = stream.feed(bytes: bytes[(end - 1)..<end])
      if committedCodeBefore == nil,
        update.committed.contains(where: { block in
          block.document.nodes.contains { if case .codeBlock = $0.kind { true } else { false } }
        })
      {
        committedCodeBefore = end
      }
    }
    _ = stream.finish()
    // Committed once "A" of "After" arrived, not at the end of that line.
    let after = Array(text.utf8).firstIndex(of: UInt8(ascii: "A")).map { $0 + 1 }
    #expect(committedCodeBefore == after, "committed after \(String(describing: committedCodeBefore)) bytes")
  }
}
