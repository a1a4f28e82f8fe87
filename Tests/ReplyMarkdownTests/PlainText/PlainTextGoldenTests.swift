import Testing

@testable import ReplyMarkdown

/// Golden plain text for every corpus reply (`Corpus/golden/plain/`; `make goldens` rewrites).
@Suite struct PlainTextGoldenTests {
  @Test func everyCorpusReplyMatchesItsGolden() throws {
    let replies = try SharedData.corpusReplies()
    #expect(!replies.isEmpty)
    for (name, markdown) in replies {
      let text = PlainTextRenderer().render(MarkdownDocument(markdown))
      let problem = GoldenFile.check(text, against: "plain/\(name.dropLast(3)).txt")
      #expect(problem == nil, "\(problem ?? "")")
    }
  }
}
