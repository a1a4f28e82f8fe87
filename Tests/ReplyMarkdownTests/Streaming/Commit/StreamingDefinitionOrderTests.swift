import Testing

@testable import ReplyMarkdown

/// A label defined twice keeps its first definition, as in cmark-gfm, whatever order the stream
/// closes the two definitions in (fuzz: `[foo]:u` before a paragraph and `[foo]:2` after it, cut
/// after the first byte, linked `[foo]` to `2`).
@Suite struct StreamingDefinitionOrderTests {
  static let replies = [
    "[foo]:u\n1\n\n[foo]:2\n\n[foo]\n",
    "[a]: /first\ntext\n\n[a]: /second\n[b]: /b\n\n[a] and [b]\n",
    "> [x]: /in-quote\n> quoted\n\n[x]: /later\n\nsee [x]\n",
  ]

  /// Every cut into three chunks ends in the one-shot HTML.
  @Test(arguments: replies)
  func firstDefinitionWinsWhateverTheCuts(text: String) {
    let bytes = Array(text.utf8)
    let expected = HTMLRenderer().render(MarkdownDocument(text))
    var failures: [String] = []
    for first in 1..<bytes.count {
      for second in (first + 1)...bytes.count {
        var stream = MarkdownStream()
        var html = MarkdownStreamHTMLRenderer()
        html.apply(stream.feed(bytes: bytes[0..<first]))
        html.apply(stream.feed(bytes: bytes[first..<second]))
        if second < bytes.count { html.apply(stream.feed(bytes: bytes[second...])) }
        html.apply(stream.finish())
        if html.html != expected { failures.append("cut at \(first), \(second): \(html.html.debugDescription)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
  }
}
