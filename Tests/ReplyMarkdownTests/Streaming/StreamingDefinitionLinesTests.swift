import Testing

@testable import ReplyMarkdown

/// Link reference definitions written one per line, with no blank line after them (a citation
/// list at the end of a reply): each is complete once a line starting a new label follows it,
/// so the open part stays the last definition, not all of them.
@Suite struct StreamingDefinitionLinesTests {
  static func citationList(_ count: Int) -> String {
    var text = "Sources cited below: [1] and [\(count)].\n\n"
    for number in 1...count { text += "[\(number)]: https://example.com/source/\(number) \"Source \(number)\"\n" }
    return text
  }

  @Test func theOpenPartStaysTheLastDefinition() {
    let text = Self.citationList(300)
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var largestOpen = 0
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: 20) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)])
      largestOpen = max(largestOpen, update.statistics.openBytes)
      html.apply(update)
    }
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    // A definition line is about 60 bytes: the open part holds two of them and a chunk at most.
    #expect(largestOpen <= 200, "largest open part \(largestOpen) B")
  }

  /// A title that runs on over the next line, and that line starting with `[`: the definitions
  /// before the split would be cut short, so nothing is split there.
  @Test(arguments: [
    "[a]: /url\n\"title\n[b]: x\"\n\n[a] and [b]\n",
    "[a]: /url 'one\n[b]: two'\n[c]: /c\n\n[a] [b] [c]\n",
    "[a]:\n/url\n[b]: /b\n\n[a] [b]\n",
    "  [a]: /a\n   [b]: /b\n[^c]: note\n\n[a] [b] [^c]\n",
  ])
  func definitionsThatRunOverLinesEndAsOneShot(text: String) {
    for chunk in [1, 3, 20] {
      var stream = MarkdownStream()
      var html = MarkdownStreamHTMLRenderer()
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)]))
      }
      html.apply(stream.finish())
      #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)), "\(chunk)-byte chunks")
    }
  }
}
