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
    // A definition line is about 60 bytes: past the limit, the open part holds two of them and a
    // chunk at most.
    // Past 2 KB the open part is parsed again only once it grew by an eighth (RefreshSchedule).
    #expect(
      largestOpen <= MarkdownStream.definitionRunLimit * 9 / 8 + 200,
      "largest open part \(largestOpen) B")
  }

  /// A delimiter row right after definitions written one per line makes the last line a table's
  /// header, and to cmark-gfm every line before it in that paragraph is text, not a definition
  /// (fuzz `--seed 1240`). Below ``MarkdownStream/definitionRunLimit`` the definitions stay open,
  /// so the stream commits what one-shot rendering shows, in HTML, plain text and on a terminal.
  @Test(arguments: [
    "[x]: u\n[x]: u\n|-|\n\n[x]\n",
    "[x]: u\n[y]: u\n|-|\n\n[x] [y]\n",
    "[x]: u\nfoo\n|-|\n\n[x]\n",
    "See [a] and [b].\n\n[a]: /a\n[b]: /b\n[c]: /c\n| x |\n|---|\n| y |\n\n[a] [c]\n",
  ])
  func definitionsBeforeATableHeaderAreTextAtEveryChunking(text: String) {
    let document = MarkdownDocument(text)
    let html = HTMLRenderer().render(document)
    let lines = ANSIRenderer(options: ANSIOptions(width: 60)).renderLines(document)
    for chunk in [1, 3, 7, 20, 400] {
      var stream = MarkdownStream()
      var htmlOut = MarkdownStreamHTMLRenderer()
      var ansi = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 60)))
      var sawReplacement = false
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)])
        htmlOut.apply(update)
        ansi.apply(update)
      }
      let last = stream.finish()
      sawReplacement = last.replacement != nil
      htmlOut.apply(last)
      ansi.apply(last)
      #expect(htmlOut.html == html, "\(chunk)-byte chunks")
      #expect(!sawReplacement, "\(chunk)-byte chunks: committed inexactly")
      #expect(ansi.committedLines == lines, "\(chunk)-byte chunks")
    }
  }

  /// Past the limit, definitions one per line are taken early, yet they stay one paragraph with
  /// the lines after them, and a delimiter row may make its last line a table's header. The input
  /// guard splits a paragraph over 1 KB off such a header line, so to one-shot rendering the lines
  /// before it stay definitions; the stream's parses count the bytes taken early as the guard
  /// does, so they split there too, and what a pipe writes is one-shot's (the definitions after
  /// the limit were written as text: a trial). Also with CRLF line ends, which the guard counts
  /// as one byte, and with a header whose cells differ from the row's (no table).
  @Test(arguments: [
    "| after |\n|---|\n\n[1] and [60]\n", "|---|\n\n[1] and [60]\n", "x\n|-|\n\n[1] [60]\n",
    "| h |\n|---|---|\n\n[3]\n", "|-|\n| row |\n\n# [1] [59]\n",
  ])
  func aTableAfterALongDefinitionRunEndsAsOneShot(ending: String) {
    // No block cites them before: with ``MarkdownStream/ReferencePolicy/holdUntilFinish`` such a
    // block would hold everything after it until the end.
    var text = ""
    for number in 1...60 { text += "[\(number)]: https://example.com/source/\(number)\n" }
    text += ending
    StreamingFuzzFindingTests.expectStreamsToOneShot(text, options: .github)
    StreamingFuzzFindingTests.expectStreamsToOneShot(text.replacing("\n", with: "\r\n"), options: .github)
  }

  /// A title that runs on over the next line, and that line starting with `[`: the definitions
  /// before the split would be cut short, so nothing is split there.
  @Test(arguments: [
    "[a]: /url\n\"title\n[b]: x\"\n\n[a] and [b]\n",
    "[a]: /url 'one\n[b]: two'\n[c]: /c\n\n[a] [b] [c]\n",
    "[a]:\n/url\n[b]: /b\n\n[a] [b]\n",
    "  [a]: /a\n   [b]: /b\n[^c]: note\n\n[a] [b] [^c]\n",
    // CRLF ends one line, not a line and a blank one: the definition was taken as closed before
    // its title arrived, and the title streamed as a paragraph.
    "[a]: /u\r\n\"t\"",
    "[a]: /u\r\n\"t\"\r\n\r\n[a]\r\n",
    "[a]: /a\r\n[b]: /b\r\n'title b'\r\n\r\n[a] [b]\r\n",
  ])
  func definitionsThatRunOverLinesEndAsOneShot(text: String) {
    for chunk in [1, 3, 20] {
      #expect(
        StreamingHarness.streamedHTML(text, chunk: chunk) == HTMLRenderer().render(MarkdownDocument(text)),
        "\(chunk)-byte chunks")
    }
  }

}
