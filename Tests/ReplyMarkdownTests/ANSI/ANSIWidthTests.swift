import Testing

@testable import ReplyMarkdown

/// No line is wider than the width, and none ends in a space, for every corpus reply and every
/// spec example at widths 20, 40, 80 and 120.
@Suite struct ANSIWidthTests {
  static let widths = [20, 40, 80, 120]

  @Test(arguments: widths)
  func corpusRepliesFitTheWidth(width: Int) throws {
    let replies = try SharedData.corpusReplies()
    #expect(!replies.isEmpty)
    for color in [false, true] {
      let renderer = ANSIRenderer(options: ANSIOptions(width: width, color: color, hyperlinks: color))
      for (name, markdown) in replies {
        let problems = TerminalOutput.layoutProblems(renderer.render(MarkdownDocument(markdown)), width: width)
        #expect(problems.isEmpty, "\(name) at \(width) (colour \(color)): \(problems.prefix(3))")
      }
    }
  }

  @Test(.enabled(if: SharedData.isPresent, SharedData.absent), arguments: widths)
  func specExamplesFitTheWidth(width: Int) throws {
    let examples = try SharedData.specExamples()
    #expect(!examples.isEmpty)
    let renderer = ANSIRenderer(options: ANSIOptions(width: width, color: true, hyperlinks: true))
    var failures: [String] = []
    for (file, example) in examples {
      let rendered = renderer.render(MarkdownDocument(example.markdown, options: example.parseOptions))
      let problems = TerminalOutput.layoutProblems(rendered, width: width)
      if !problems.isEmpty && failures.count < 10 { failures.append("\(file) #\(example.example): \(problems[0])") }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
