import Testing

@testable import ReplyMarkdown

/// An open part of lines that all open with `>` is one block quote, open at its end, so the stream
/// does not parse it for its structure when such lines arrive (`MarkdownStream.isOneOpenQuote`):
/// the display must be what the parsed path shows, after every update, and the parsing must drop.
@Suite struct OpenQuoteLinesTests {
  @Test(arguments: [
    ("> a\n", true), ("   > a\n> b\n", true), (">\n>\n", true), ("> a\r\n>b\r\n", true), ("    > a\n", false),
    ("> a\nb\n", false), ("a\n> b\n", false), ("\n", false), ("", false),
  ])
  func recognisesOneOpenQuote(text: String, expected: Bool) {
    #expect(MarkdownStream.isOneOpenQuote(Array(text.utf8)[...]) == expected, "\(text.debugDescription)")
  }

  static let replies = [
    "> first line\n> second *em* line\n> - item\n> - item two\n>\n> after a blank\n\nafter the quote\n",
    "Intro\n> quote interrupts\n> more\nlazy line\n> again\n\n# Heading\n",
    "> ```swift\n> let x = 1\n> ```\n> text [x]\n\n[x]: https://example.com\n",
    "> [^1] cites\n> [^1]: a note inside\n\ntext [^1]\n\n[^1]: the note\n",
    "> a\n> > nested\n> > deeper\n> back\n---\n",
    "> a\r\n> b\r\n\r\nc\r\n",
    "> | a | b |\n> |---|---|\n> | c | d |\n> after\n\n",
  ]

  @Test(arguments: replies)
  func showsWhatTheParseShows(text: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) + "\n" }
    #expect(StreamingFastPathTests.firstDifference(lines) == nil, "\(text.debugDescription)")
    for seed in UInt64(1)...3 {
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: seed, maximum: 9)
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription) seed \(seed)")
    }
  }

  /// A quote of twenty lines, one line per chunk: the lines arrive without a parse for the
  /// structure (a count, not a time).
  @Test func quoteLinesParseOnlyForTheTail() {
    let lines = (0..<20).map { "> quoted line \($0) with a few words and *emphasis*\n" }
    let fast = StreamingHarness.parsedBytes(lines, fastPaths: true)
    let slow = StreamingHarness.parsedBytes(lines, fastPaths: false)
    #expect(fast * 10 <= slow * 6, "parsed \(fast) bytes with the shortcut, \(slow) without")
  }
}
