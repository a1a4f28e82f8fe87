import Testing

@testable import ReplyMarkdown

/// Golden terminal output for every corpus reply at widths 40 and 80, colour on and off
/// (`Corpus/golden/ansi/<reply>.w<width>[.color].txt`; `make goldens` rewrites them).
@Suite struct ANSIGoldenTests {
  @Test(arguments: [40, 80], [false, true])
  func everyCorpusReplyMatchesItsGolden(width: Int, color: Bool) throws {
    let replies = try SharedData.corpusReplies()
    #expect(!replies.isEmpty)
    let renderer = ANSIRenderer(options: ANSIOptions(width: width, color: color, hyperlinks: color))
    for (name, markdown) in replies {
      let output = renderer.render(MarkdownDocument(markdown))
      let problem = GoldenFile.check(output, against: "ansi/\(name.dropLast(3)).w\(width)\(color ? ".color" : "").txt")
      #expect(problem == nil, "\(problem ?? "")")
    }
  }
}
