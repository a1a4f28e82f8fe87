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
    // A delimiter row without a leading pipe: a run of `-` under the header would show it as a
    // heading, `:` as one more word of a paragraph (a review's seeded replies).
    HealCase("a | b\n---", ""),
    HealCase("a | b\n:-", ""),
    HealCase("Intro:\na | b\n-", "<p>Intro:</p>"),
    HealCase("a | b\n---\n", "<h2>a | b</h2>", applies: false),
    HealCase("Title\n---", "<h2>Title</h2>", applies: false),
    HealCase("# a | b", "<h1>a | b</h1>", applies: false),
    // Inside a quote or a list item, after the container's markers and indentation.
    HealCase("> | a | b |\n> |-", ""),
    HealCase("> | a |\n> ", ""),
    HealCase("> a | b\n> --|", ""),
    HealCase("- | a | b |\n  |--", ""),
    // One column: `|-` completes the delimiter row, and the table shows.
    HealCase(
      "> | a |\n> |-", "<blockquote><table><thead><tr><th>a</th></tr></thead></table></blockquote>",
      applies: false),
    HealCase("1. Step:\n\n   | a | b |\n   ", "<ol><li>Step:</li></ol>"),
    HealCase("> a | b\n> c", "<blockquote><p>a | b␤c</p></blockquote>", applies: false),
    // A line whose only pipes are in code spans shows as it arrives (a review: `ls | grep x` in
    // a sentence hid the sentence until its line ended); one opening with a pipe, or with a pipe
    // outside code too, waits.
    HealCase("Run `ls | grep x` to", "<p>Run <code>ls | grep x</code> to</p>", applies: false),
    HealCase("Run `ls | gr", "<p>Run <code>ls | gr</code></p>", applies: false),
    HealCase("Use ``a|`b`` or", "<p>Use <code>a|`b</code> or</p>", applies: false),
    HealCase("| `a | b` | c", ""),
    HealCase("`a | b` | c", ""),
    HealCase("Run \\`ls | grep", ""),
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
