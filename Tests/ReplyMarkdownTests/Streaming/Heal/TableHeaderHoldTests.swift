import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let tableHeaderUntilDelimiterRow = [
    HealCase("| x | y |\n| --", ""),
    HealCase("| a | b |\n", ""),
    // CRLF ends one line: the header above the delimiter row is held too.
    HealCase("| x | y |\r\n| --", ""),
    HealCase("| a | b |\r\n", ""),
    HealCase("| [Guide](https://docs.example.org/deep/route", ""),
    HealCase("Intro\n| a | b |", "<p>Intro</p>"),
    HealCase("a \\| b", "<p>a | b</p>", applies: false),
    HealCase("| x | y |\n|---|---|", "<table><thead><tr><th>x</th><th>y</th></tr></thead></table>", applies: false),
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
