import Testing

@testable import ReplyMarkdown

/// Every reply in `Corpus/replies`: our HTML equals cmark-gfm's and its golden file.
@Suite struct CorpusHTMLTests {
  @Test func everyCorpusReplyMatchesTheCLibraryAndItsGolden() throws {
    let replies = try SharedData.corpusReplies()
    #expect(replies.count >= 25)
    var identical = 0
    for (name, markdown) in replies {
      let ours = HTMLRenderer().render(MarkdownDocument(markdown))
      let reference = CmarkReference.html(markdown)
      #expect(ours == reference, "\(name): differs from cmark-gfm")
      if ours == reference { identical += 1 }
      let golden = name.replacingOccurrences(of: ".md", with: ".html")
      let problem = GoldenFile.check(ours, against: "html/\(golden)")
      #expect(problem == nil, "\(problem ?? "")")
    }
    print("HTML differential (Corpus): \(identical) of \(replies.count) replies identical to cmark-gfm")
  }

  @Test func everyCorpusReplyMatchesInUnsafeMode() throws {
    for (name, markdown) in try SharedData.corpusReplies() {
      let ours = HTMLRenderer(options: .unsafe).render(MarkdownDocument(markdown))
      #expect(ours == CmarkReference.html(markdown, renderOptions: .unsafe), "\(name)")
    }
  }
}
