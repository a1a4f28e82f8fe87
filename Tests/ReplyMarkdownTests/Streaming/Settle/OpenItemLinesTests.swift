import Testing

@testable import ReplyMarkdown

/// Lines that stay inside a long list's open item settle nothing, so the stream does not parse
/// the item for its structure when they arrive (`MarkdownStream.linesContinueOpenItem`): the
/// display must be what the parsed path shows, after every update, and the parsing must drop.
@Suite struct OpenItemLinesTests {
  /// Where the content of an item begins, from its first line alone.
  @Test(
    arguments: [
      ("- a\n", 2), ("-   a\n", 4), ("-    a\n", 5), ("-     a\n", 2), ("-\n", 2), ("   * a\n", 5),
      ("1. a\n", 3), ("10) a\n", 4), ("123456789. a\n", 11), ("1234567890. a\n", nil), ("-a\n", nil),
      ("-\ta\n", nil), ("    - a\n", nil), ("a\n", nil), (". a\n", nil), ("+ \r\n", 2),
    ] as [(String, Int?)])
  func contentIndent(line: String, expected: Int?) {
    let bytes = Array(line.utf8)
    #expect(
      MarkdownStream.contentIndent(ofItemAt: 0, in: bytes, end: bytes.count) == expected, "\(line.debugDescription)")
  }

  static let replies = [
    "- first\n- second\n  - nested one\n  - nested two\n    deeper text\n  lazy? no, indented\n- third\n",
    "- first\n- second\n\n  after a blank: the list turns loose\n  - nested\n- third\n",
    "1. one\n2. two\n   ```swift\n   let x = 1\n   - not an item\n   ```\n   text\n3. three\n",
    "* a\n* b\n  > quoted\n  > more\n  text\n* c\n\nafter the list\n",
    "- a\n- b\n  [x]: https://example.com\n  [x] used\n- c [x]\n",
    "- a\n- b\n  - c\n    - d\n      - e\n        f\n  g\nlazy line\n- h\n",
    "- a\r\n- b\r\n  - c\r\n  - d\r\n- e\r\n",
    "10. a\n11. b\n    - c\n    d\n   e\n12. f\n",
    "- a\n-\n  b\n  c\n- d\n",
    "- a\n- b\n  | x | y |\n  |---|---|\n  | 1 | 2 |\n- c\n",
    // A line whose container holds nothing after its opener is blank to cmark-gfm: what follows it
    // in the item may make the list loose (fuzz seed 1358: a footnote definition `[^a]: ` in a
    // nested item, then a line of the outer item).
    "- a\n  - b\n\n     [^a]: \n  | c | [^1]: z\n    c\n- d\n",
    "- a\n  - b\n    [^a]:\n  c\n- d\n",
    "- a\n  - b\n    > [^a]:\n  c\n- d\n",
    "- a\n  - b\n    - [^a]:  \n  c\n- d\n",
  ]

  @Test(arguments: replies)
  func showsWhatTheParseShows(text: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
    #expect(StreamingFastPathTests.firstDifference(lines.map(String.init)) == nil, "\(text.debugDescription)")
    for seed in UInt64(1)...3 {
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: seed, maximum: 9)
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription) seed \(seed)")
    }
  }

  /// An item of two hundred nested lines, one line per chunk: the lines arrive without a parse
  /// for the structure, so the stream parses at most about half as much (a count, not a time).
  @Test func nestedLinesParseOnlyForTheTail() {
    var lines = ["- first item\n", "- second item, with nested items:\n"]
    for index in 0..<200 { lines.append("  - nested item \(index) with a few words\n") }
    let fast = StreamingHarness.parsedBytes(lines, fastPaths: true)
    let slow = StreamingHarness.parsedBytes(lines, fastPaths: false)
    #expect(fast * 10 <= slow * 6, "parsed \(fast) bytes with the shortcut, \(slow) without")
  }
}
