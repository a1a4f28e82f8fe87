import Testing

@testable import ReplyMarkdown

/// Our Swift HTML renderer against cmark-gfm's own `cmark_render_html`, byte for byte.
@Suite struct HTMLDifferentialTests {
  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func everySpecExampleMatchesTheCLibrary() throws {
    let examples = try SharedData.specExamples()
    #expect(!examples.isEmpty)
    var identical = 0
    var failures: [String] = []
    for (file, example) in examples {
      let document = MarkdownDocument(example.markdown, options: example.parseOptions)
      let ours = HTMLRenderer(options: example.renderOptions).render(document)
      let reference = CmarkReference.html(
        example.markdown, options: example.parseOptions, renderOptions: example.renderOptions)
      if ours == reference {
        identical += 1
      } else if failures.count < 15 {
        failures.append("\(file) #\(example.example): ours \(ours.debugDescription) ≠ C \(reference.debugDescription)")
      }
      // The shared expectations were verified against the same library; check we agree with it too.
      #expect(
        example.html == "<IGNORE>\n" || reference == example.html,
        "\(file) #\(example.example): C library differs from the spec file")
    }
    print("HTML differential: \(identical) of \(examples.count) spec examples identical to cmark-gfm")
    #expect(identical == examples.count, "\(failures.joined(separator: "\n"))")
  }

  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func everySpecExampleMatchesInSafeModeWithGitHubOptions() throws {
    let examples = try SharedData.specExamples()
    #expect(!examples.isEmpty)
    var identical = 0
    var failures: [String] = []
    for (file, example) in examples {
      let ours = HTMLRenderer().render(MarkdownDocument(example.markdown))
      let reference = CmarkReference.html(example.markdown)
      if ours == reference {
        identical += 1
      } else if failures.count < 15 {
        failures.append("\(file) #\(example.example): ours \(ours.debugDescription) ≠ C \(reference.debugDescription)")
      }
    }
    print("HTML differential (GitHub options, safe): \(identical) of \(examples.count) identical")
    #expect(identical == examples.count, "\(failures.joined(separator: "\n"))")
  }
}
