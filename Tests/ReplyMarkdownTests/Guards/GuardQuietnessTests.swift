import Testing

@testable import ReplyMarkdown

/// The guards must never act on ordinary markdown: not on any spec example (with its own options
/// and with GitHub's), nor on any reply of the corpus. So the HTML differential holds unchanged.
@Suite struct GuardQuietnessTests {
  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func noGuardActsOnSpecExamples() throws {
    let examples = try SharedData.specExamples()
    #expect(!examples.isEmpty)
    var fired: [String] = []
    for (file, example) in examples {
      for options in [example.parseOptions, .github, [.github, .smartPunctuation] as ParseOptions] {
        let guarded = InputGuard.apply(example.markdown, options: options)
        if !guarded.diagnostics.isEmpty || guarded.text != example.markdown {
          fired.append("\(file) #\(example.example): \(guarded.diagnostics)")
        }
      }
    }
    print("guards: quiet on \(examples.count) spec examples × 3 option sets")
    #expect(fired.isEmpty, "\(fired.prefix(10).joined(separator: "\n"))")
  }

  @Test func noGuardActsOnCorpusReplies() throws {
    let replies = try SharedData.corpusReplies()
    #expect(!replies.isEmpty)
    for (name, markdown) in replies {
      let document = MarkdownDocument(markdown)
      #expect(document.diagnostics.isEmpty, "\(name): \(document.diagnostics)")
      #expect(InputGuard.apply(markdown).text == markdown)
      #expect(HTMLRenderer().render(document) == CmarkReference.html(markdown), "\(name)")
    }
  }

  @Test func unlimitedSkipsTheGuard() {
    let deep = String(repeating: "> ", count: 100) + "a"
    #expect(InputGuard.apply(deep, limits: .unlimited).text == deep)
    #expect(!InputGuard.apply(deep).diagnostics.isEmpty)
  }
}
