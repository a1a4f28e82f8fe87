import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let unterminatedHTMLBlockTag = [
    HealCase("<aside>words</asi", "<aside>words"),
    HealCase("<div>\ntext <span", "<div>␤text"),
    HealCase("<div>content</div>", "<div>content</div>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct StreamHealerTests {
    @Test(arguments: HealTables.unterminatedHTMLBlockTag)
    func unterminatedHTMLBlockTag(_ row: HealCase) { row.check(.unterminatedHTMLBlockTag) }

    /// A prefix and the natural closers its writer would type next.
    struct Completion: Sendable, CustomTestStringConvertible {
      let prefix: String
      let closers: String
      var testDescription: String { "\(prefix.debugDescription) + \(closers.debugDescription)" }
    }

    /// Delimiter runs whose healed display must equal cmark-gfm's rendering once the closers arrive
    /// (P3: no delimiter shows that the final rendering would not show as text).
    static let completions: [Completion] = [
      Completion(prefix: "*foo*bar*baz", closers: "*"),
      Completion(prefix: "**foo**bar**baz", closers: "**"),
      Completion(prefix: "***foo***bar***baz", closers: "***"),
      Completion(prefix: "~~foo~~bar~~baz", closers: "~~"),
      Completion(prefix: "_foo_bar_baz", closers: "_"),
      Completion(prefix: "__foo__bar__baz", closers: "__"),
      Completion(prefix: "a*b*c*d", closers: "*"),
      Completion(prefix: "*a*b*c*d*e", closers: "*"),
      Completion(prefix: "**foo*bar*baz", closers: "**"),
      Completion(prefix: "*foo*bar*baz **qux", closers: "***"),
      Completion(prefix: "**foo**bar*baz", closers: "*"),
      Completion(prefix: "Say it **loud", closers: "**"),
      Completion(prefix: "**bold *italic `code", closers: "`***"),
      Completion(prefix: "~~gone with **force", closers: "**~~"),
    ]

    @Test(arguments: completions)
    func healedPrefixRendersAsItsCompletion(_ completion: Completion) {
      let shown = HealCase(completion.prefix, "").heal().show
      let final = CmarkReference.html(
        completion.prefix + completion.closers, options: StreamingHarness.caseOptions, renderOptions: [.unsafe])
      #expect(shown == StreamingHarness.normalise(final))
    }

    @Test func protectedContextIsNeverChanged() {
      // The protected first line ends in markers a heal of the open part would otherwise trim.
      let input = Array("*a **\nb **c".utf8)
      let healed = StreamHealer(options: StreamingHarness.caseOptions).heal(input, protectedLength: 6, context: .blocks)
      #expect(HealCase.render(healed) == "<p><em>a **␤b <strong>c</strong></em></p>")
    }
  }
}
