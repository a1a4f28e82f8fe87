import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let tableHeaderUntilDelimiterRow = [
    HealCase("| a | b |\n| --", ""),
    HealCase("| a | b |\n", ""),
    HealCase("| [Docs](https://very.example.com/long/path", ""),
    HealCase("Intro\n| a | b |", "<p>Intro</p>"),
    HealCase("a \\| b", "<p>a | b</p>", applies: false),
    HealCase("| a | b |\n|---|---|", "<table><thead><tr><th>a</th><th>b</th></tr></thead></table>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct TableHeaderHoldTests {
    @Test(arguments: HealTables.tableHeaderUntilDelimiterRow)
    func tableHeaderUntilDelimiterRow(_ row: HealCase) { row.check(.tableHeaderUntilDelimiterRow) }

    @Test func pipesAfterABackslashAreEscaped() {
      #expect(!TableHeaderHold.hasUnescapedPipe(Array("a \\| b".utf8)[...]))
      #expect(TableHeaderHold.hasUnescapedPipe(Array("a \\\\| b".utf8)[...]))
      #expect(TableHeaderHold.isDelimiterRowCandidate(Array("|:--| -".utf8)[...]))
      #expect(!TableHeaderHold.isDelimiterRowCandidate(Array("| a".utf8)[...]))
    }
  }
}
