import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let tablePipesOnly = [
    HealCase("| a | b |\n|---|---|\n|", "<table><thead><tr><th>a</th><th>b</th></tr></thead></table>"),
    HealCase("Intro\n\n| |", "<p>Intro</p>"),
    HealCase(
      "| a | b |\n|---|---|\n| c",
      "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>c</td><td></td></tr></tbody></table>",
      applies: false),
  ]

  static let breakOrSetextCandidate = [
    HealCase("Plain words\n--", "<p>Plain words</p>"),
    HealCase("A heading soon\n=", "<p>A heading soon</p>"),
    HealCase("Intro\n\n- --", "<p>Intro</p>"),
    HealCase("Intro\n\n***", "<p>Intro</p>"),
    HealCase("Intro\n\n- -", "<p>Intro</p>"),
    HealCase("- a\n-", "<ul><li>a</li></ul>"),
    HealCase("- a\n- ", "<ul><li>a</li></ul>"),
    HealCase("Plain words\n---", "<h2>Plain words</h2>", applies: false),
    HealCase("Title\n===", "<h1>Title</h1>", applies: false),
  ]

  static let markerOnlyLine = [
    HealCase("1. Alpha\n2", "<ol><li>Alpha</li></ol>"),
    HealCase("1. Alpha\n2.", "<ol><li>Alpha</li></ol>"),
    HealCase("- a\n+", "<ul><li>a</li></ul>"),
    HealCase("- a\n+ ", "<ul><li>a</li></ul>"),
    HealCase("> quote\n> ", "<blockquote><p>quote</p></blockquote>"),
    HealCase("> - ", ""),
    HealCase("1. Alpha\n2. Beta", "<ol><li>Alpha</li><li>Beta</li></ol>", applies: false),
    // The markers before a leaf the inline holds emptied (fuzz seed 1290): a break, a heading.
    HealCase("- - - `\n", ""),
    HealCase("- - - <!L", ""),
    HealCase("a\n- <!L", "<p>a</p>"),
    // Inside a fence the open part opened, the last line is code (a review: it was held).
    HealCase("# H\n```\nab\n-", "<h1>H</h1><pre><code>ab␤-</code></pre>", applies: false),
    HealCase("a\n~~~~\nb\n~~~\n2.", "<p>a</p><pre><code>b␤~~~␤2.</code></pre>", applies: false),
    HealCase("```\na\n```\n- b\n+", "<pre><code>a␤</code></pre><ul><li>b</li></ul>"),
  ]

  static let emptyHeading = [
    HealCase("# ", ""),
    HealCase("Intro\n\n##", "<p>Intro</p>"),
    HealCase("- ###", ""),
    HealCase("# T", "<h1>T</h1>", applies: false),
  ]

  static let fenceOpener = [
    HealCase("Plain words\n```", "<p>Plain words</p>"),
    HealCase("```py", ""),
    HealCase("~~~ rust", ""),
    HealCase("> ```swift", ""),
    HealCase("```a` b", "<p><code>a` b</code></p>", applies: false),
  ]

  static let shortFenceRun = [
    HealCase("`", ""),
    HealCase("Text\n``", "<p>Text</p>"),
    HealCase("> ```\n> x\n> ``", "<blockquote><pre><code>x␤</code></pre></blockquote>"),
    HealCase("Text\n~", "<p>Text</p>"),
  ]

  static let breakAfterContainerMarker = [
    HealCase("Intro\n\n> ---", "<p>Intro</p>"),
    HealCase("Intro\n\n1. ---", "<p>Intro</p>"),
    HealCase("- **", ""),
    HealCase("> quote\n> =", "<blockquote><p>quote</p></blockquote>"),
    HealCase("> a-b", "<blockquote><p>a-b</p></blockquote>", applies: false),
  ]

  static let taskMarker = [
    HealCase("- [", ""),
    HealCase("- [x", ""),
    HealCase("- a\n- [ ]", "<ul><li>a</li></ul>"),
    // A whole checkbox, its text not begun (then `- [ ] *` held its `*`, and the item vanished).
    HealCase("- [ ] ", ""),
    HealCase("- a\n- [x]  ", "<ul><li>a</li></ul>"),
    HealCase("- [ ] *", ""),
    HealCase(
      "- [x] done", "<ul><li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li></ul>", applies: false),
  ]

  static let definitionLabel = [
    HealCase("[foo", ""),
    HealCase("[foo]", ""),
    HealCase("[foo]:", ""),
    HealCase("Intro\n\n[1]: https://ex", "<p>Intro</p>"),
    HealCase("[foo] bar", "<p><a pending>foo</a> bar</p>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct LineHoldTests {
    @Test(arguments: HealTables.tablePipesOnly)
    func tablePipesOnly(_ row: HealCase) { row.check(.tablePipesOnly) }

    @Test(arguments: HealTables.breakOrSetextCandidate)
    func breakOrSetextCandidate(_ row: HealCase) { row.check(.breakOrSetextCandidate) }

    @Test(arguments: HealTables.markerOnlyLine)
    func markerOnlyLine(_ row: HealCase) { row.check(.markerOnlyLine) }

    @Test(arguments: HealTables.emptyHeading)
    func emptyHeading(_ row: HealCase) { row.check(.emptyHeading) }

    @Test(arguments: HealTables.fenceOpener)
    func fenceOpener(_ row: HealCase) { row.check(.fenceOpener) }

    @Test(arguments: HealTables.shortFenceRun)
    func shortFenceRun(_ row: HealCase) { row.check(.shortFenceRun) }

    @Test(arguments: HealTables.breakAfterContainerMarker)
    func breakAfterContainerMarker(_ row: HealCase) { row.check(.breakAfterContainerMarker) }

    @Test(arguments: HealTables.taskMarker)
    func taskMarker(_ row: HealCase) { row.check(.taskMarker) }

    @Test(arguments: HealTables.definitionLabel)
    func definitionLabel(_ row: HealCase) { row.check(.definitionLabel) }

    /// The line reader on its own: markers, what follows them, and a line that ends inside one.
    @Test func readsContainerMarkers() {
      let line = LineHold(Array("  > - 12. text".utf8)[...])
      #expect(line.hasContainerMarker)
      #expect(Array(line.content) == Array("text".utf8))
      #expect(!line.endsInsideMarker)
      #expect(LineHold(Array("> 12".utf8)[...]).endsInsideMarker)
      #expect(LineHold(Array("   ".utf8)[...]).rule == nil)
    }
  }
}
