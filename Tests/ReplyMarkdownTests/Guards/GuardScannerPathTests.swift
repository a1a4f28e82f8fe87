import Testing

@testable import ReplyMarkdown

/// The guard scanner's fast paths against the slow ones they stand in for: line endings (`memchr`
/// splitting is only used without `\r`), the lazy word start of autolink candidates, the
/// reference-definition scan that only reads lines with a `[`, and markers past the nesting limit.
@Suite struct GuardScannerPathTests {
  /// Small limits, so that every guard acts on short inputs.
  static let tight = InputLimits(
    maxNestingDepth: 3, maxDelimiterRuns: 5, maxDelimiterRunLength: 3, maxBrackets: 4, maxUnclosedHTMLOpeners: 2,
    maxAutolinkScanBytes: 200, maxTableColumns: 3, maxTableCells: 20, maxTableHeaderScan: 16,
    maxReferenceExpansionBytes: 50)

  /// Inputs that make every kind of guard act under ``tight``.
  static let samples: [String] = [
    "> > > > > - - 1. [^a]: deep\n> > > > text\n",
    "*a* _b_ **c** ~~d~~ *e* *f* *g* ****long**** end\n",
    "[a] [b] [c] [d] [e] [f]\n\n[a]: /a-very-long-destination \"and a title\"\n",
    "<?x <!y <![CDATA[ <!-- <?z <!w\n",
    "see http://example.com/path and www.example.org/(x)) and mail@example.net "
      + String(repeating: "www.a.com ", count: 20) + "\n",
    "[a b]: http://x.example www.y.example " + String(repeating: "www.b.com ", count: 20) + "\n",
    "\\*www.x.com \\[y] `www.z.com` " + String(repeating: "a@b.c ", count: 30) + "\n",
    String(repeating: "long paragraph line\n", count: 3) + "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 | 5 | 6 | 7 |\n",
    "| a | b | c | d | e |\n|---|---|---|---|---|\n| 1 |\n",
    "```\n*a* *b* *c* *d* *e* *f* *g*\n```\n*a* *b* *c* *d* *e* *f* *g*\n",
    "- [ ] task [x] [y] [z] [w] [v]\n- [x] done\n\n[^1]: note [a] [b]\n",
  ]

  @Test(arguments: samples)
  func lineEndingsDoNotChangeWhatIsGuarded(_ sample: String) {
    let lf = InputGuard.apply(sample, limits: Self.tight)
    #expect(!lf.diagnostics.isEmpty, "the sample should make a guard act")
    for ending in ["\r\n", "\r"] {
      let variant = sample.replacingOccurrences(of: "\n", with: ending)
      let guarded = InputGuard.apply(variant, limits: Self.tight)
      #expect(guarded.text.replacingOccurrences(of: ending, with: "\n") == lf.text, "ending \(ending.debugDescription)")
      #expect(guarded.diagnostics == lf.diagnostics, "ending \(ending.debugDescription)")
    }
  }

  @Test func autolinkBudgetChargesWholeWords() {
    // Each candidate costs 64 plus its word's length: with 200 bytes, two short words pass and the
    // third is defused, wherever the word starts (after a definition label, an escape or a space).
    let text = "[a b]: /u\n\nx www.one.com \\*www.two.com (www.three.com\n"
    let guarded = InputGuard.apply(text, limits: Self.tight)
    #expect(guarded.diagnostics.map(\.kind) == [.autolinkScan])
    #expect(guarded.text == "[a b]: /u\n\nx www.one.com \\*www.two.com (www\\.three.com\n")
  }

  @Test func definitionsAreFoundOnlyOnLinesWithABracket() {
    // The long definition makes every later `[` cost its length; the budget (50 bytes plus four
    // times the input) runs out after nine of the twenty links, and the rest are escaped.
    let limits = InputLimits(maxReferenceExpansionBytes: 50)
    let long = "[d]: /" + String(repeating: "x", count: 60) + "\n\n"
    let links = String(repeating: "[a] ", count: 19) + "[a]\n"
    #expect(InputGuard.apply(links, limits: limits).diagnostics.isEmpty)
    let guarded = InputGuard.apply(long + links, limits: limits)
    #expect(guarded.diagnostics.map(\.kind) == [.referenceExpansion])
    #expect(guarded.text.hasSuffix("\\[a] \\[a]\n"))
    #expect(guarded.text.hasPrefix(long + "[a] "))
  }

  @Test func theFirstMarkerPastTheNestingLimitIsEscaped() {
    let guarded = InputGuard.apply("> > > > deep\n- - - - item\n", limits: Self.tight)
    #expect(guarded.text == "> > > \\> deep\n- - - \\- item\n")
    #expect(guarded.diagnostics.map(\.kind) == [.nestingDepth])
    #expect(guarded.diagnostics.first?.count == 2)
  }

  @Test func hugeLimitsDoNotOverflow() {
    var limits = InputLimits.default
    limits.maxTableColumns = .max
    let text = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    #expect(InputGuard.apply(text, limits: limits).text == text)
  }
}
