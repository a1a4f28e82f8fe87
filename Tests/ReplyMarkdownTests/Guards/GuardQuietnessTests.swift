import ReplyKitFuzz
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

  /// Long mixed replies of our generator (every block kind, tables with glued lists, runs of
  /// footnote definitions): the guard kept quiet on the 30 Corpus replies but counted these
  /// replies' emphasis and links too high, on a run of footnote definitions (one paragraph to it)
  /// and on a list glued under a table (rows to it), where cmark-gfm parses each definition and
  /// each row on its own; and it escaped the header and delimiter rows of a table glued under a
  /// table past 1 KB (seeds 2 and 3), which are rows of the first table to cmark-gfm. Now no guard
  /// acts, and the HTML is cmark-gfm's.
  @Test(arguments: UInt64(1)...12)
  func noGuardActsOnSeededMixedReplies(seed: UInt64) {
    let reply = MixedReplyGenerator(seed: seed).reply(bytes: 200_000)
    let guarded = InputGuard.apply(reply)
    #expect(guarded.diagnostics.isEmpty, "seed \(seed): \(guarded.diagnostics)")
    #expect(guarded.text == reply)
    #expect(HTMLRenderer().render(MarkdownDocument(reply)) == CmarkReference.html(reply), "seed \(seed)")
  }

  /// A sure table (``GuardScanner/OpenTable/isCertain``) longer than
  /// ``InputLimits/maxTableHeaderScan`` with another table's header and delimiter row glued under
  /// it: both are rows of the first table to cmark-gfm, which re-reads nothing for them, so the
  /// guard leaves them alone. The same rows under a table the guard only believes in (indented
  /// four columns: code to cmark-gfm) are still escaped past the limit.
  @Test func aTableGluedUnderASureTableIsLeftAlone() {
    let rows = (0..<60).map { "| row \($0) | value \($0) |\n" }.joined()
    let sure = "| a | b |\n|---|---|\n" + rows + "| c | d | e |\n|:--|---|--:|\n| f | g | h |\n"
    let guarded = InputGuard.apply(sure)
    #expect(guarded.diagnostics.isEmpty, "\(guarded.diagnostics)")
    #expect(HTMLRenderer().render(MarkdownDocument(sure)) == CmarkReference.html(sure))
    let believed = sure.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
    #expect(InputGuard.apply(believed).diagnostics.map(\.kind).contains(.tableHeaderScan))
  }

  @Test func unlimitedSkipsTheGuard() {
    let deep = String(repeating: "> ", count: 100) + "a"
    #expect(InputGuard.apply(deep, limits: .unlimited).text == deep)
    #expect(!InputGuard.apply(deep).diagnostics.isEmpty)
  }
}
