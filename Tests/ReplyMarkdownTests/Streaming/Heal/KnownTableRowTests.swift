import Testing

@testable import ReplyMarkdown

/// A long table's open row made without a parse (`KnownTableRow`) is, node for node and position
/// for position, what a parse of the rows header and that row gives; rows it cannot vouch for are
/// left to the parse; and a stream that takes it shows what a stream parsing every row shows.
@Suite struct KnownTableRowTests {
  /// Rows headers: the stand-in a long table's rows are parsed after, and headers kept as they are.
  static let headers = [
    "|a|a|\n|-|-|\n", "|a|a|a|\n|:-|-:|:-:|\n", "| Name | Value |\n|---|---|\n", "|a|\n|-|\n",
    "Name | Value | Note | More\n--- | :---: | ---: | ---\n",
  ]

  /// Rows with the edges of cmark-gfm's splitting: cells left empty, of spaces, past the
  /// columns, missing, a last cell after its pipe or not, spaces trailing, words beyond ASCII.
  static let rows = [
    "| 1 | name 1 |", "| 1 | na", "|  1 | na  ", "|na|", "|a||b", "| a | b | c | d | e", "| 1 |", "| 1 |  ",
    "| a b  c |x", "| é | 日本 |", "| v1.2 | 50% (est) |", "| it's | \"q\" - x |", "|#|=|;|$|^|", "| www |", "|x|",
  ]

  /// Rows it must leave to the parse: markup, an address, a tab, indentation, no content.
  static let declined = [
    "| *a* | b |", "| `a` | b |", "| [a] |", "| a\\|b |", "| www.x.com |", "| a@b |", "| <b> |", "| a\tb |",
    " | a | b", "|", "| |", "|  |", "||", "| a & b |", "| a_b |", "| ~a~ |", "| http://x |", "| a:b |",
  ]

  static func parsed(_ header: String, _ row: String, options: ParseOptions = .github) -> MarkdownDocument {
    MarkdownDocument(header + row, options: options)
  }

  static func known(_ header: String, _ row: String, options: ParseOptions = .github) -> MarkdownDocument? {
    KnownTableRow.document(
      head: MarkdownDocument(header, options: options), headerLines: header.count(where: { $0 == "\n" }),
      line: ArraySlice(Array(row.utf8)), smartPunctuation: options.contains(.smartPunctuation))
  }

  @Test(arguments: headers)
  func aPlainRowIsWhatTheParseGives(header: String) {
    for row in Self.rows {
      let known = Self.known(header, row)
      #expect(known != nil, "\(row.debugDescription)")
      #expect(known?.nodes == Self.parsed(header, row).nodes, "\(header.debugDescription) \(row.debugDescription)")
    }
    for row in Self.declined {
      #expect(Self.known(header, row) == nil, "\(row.debugDescription)")
    }
  }

  /// Generated rows of plain and special bytes: every one taken is what the parse gives, and
  /// most plain ones are taken.
  @Test func generatedRowsAreWhatTheParseGives() {
    let pieces = ["a", "b", " ", " ", "|", "1", ".", "w", "-", "'", ",", "é", "日", "#", "*", "`", "\t", "[", ":", "&"]
    var generator = StreamingHarness.SeededGenerator(state: 12)
    var taken = 0
    for index in 0..<3000 {
      var row = "|"
      for _ in 0..<Int.random(in: 1...24, using: &generator) { row += pieces.randomElement(using: &generator)! }
      let header = Self.headers[index % Self.headers.count]
      for options in [ParseOptions.github, [.github, .smartPunctuation]] {
        guard let known = Self.known(header, row, options: options) else { continue }
        taken += 1
        #expect(known.nodes == Self.parsed(header, row, options: options).nodes, "\(row.debugDescription)")
      }
    }
    #expect(taken > 300)
  }

  /// With smart punctuation, quotes, dashes and periods take the parse.
  @Test func smartPunctuationTakesTheParse() {
    for row in ["| it's |", "| a \"b\" |", "| a -- b |", "| a... |"] {
      #expect(Self.known("|a|\n|-|\n", row, options: [.github, .smartPunctuation]) == nil)
      #expect(Self.known("|a|\n|-|\n", row) != nil)
    }
  }

  static let tables = [
    "| # | name | value | note |\n|---|:-:|--:|---|\n"
      + (1...12).map { "| \($0) | name \($0) | v\($0).5 | it's 50% (est) |\n" }.joined() + "\nafter\n",
    "Name | Value\n--- | ---\n| a | b |\n| c |\n| d | e | f |\n| *g* | h |\n| www.x.com | i |\n| é 日本 | j |\n",
    "| a |\n|---|\n| 1 |\n|  |\n| x \\| y |\n| 2 |\n[x]: /u\n",
    "| A | B |\n|---|---|\n| [^1] | x |\n| y | z |\n\n[^1]: note\n",
    // Rows whose last cell with content holds markup: the cell healed on its own.
    "| # | name | note |\n|---|---|---|\n"
      + (1...6).map { "| \($0) | name \($0) | a note with **bold** text, `code` and [a link](https://x.io/\($0)) |\n" }
      .joined()
      + "| 7 | x | *open emphasis and `code\n| 8 | ~~gone~~ | <b>tag</b> &amp; www.example.com |\n| 9 | [^n] | [ref] |\n"
      + "| 10 | last | ![img](u \"t\") |\n| 11 | **a | b** |\n| 12 |   | x\\|y |\n\n[ref]: /r\n",
    "| a | b |\n|:-:|--:|\n| 1 | **x** |\n| 2 | *y* | extra *cell* |\n| *3* | z |\n| 4 |  **w** |  \n| é | `日本` |\n",
    // Constructs left open in a cell before the last: text to cmark-gfm, which reads the cell alone.
    "| a | b |\n|---|---|\n| **open | b c d |\n| `code | b |\n| [l]( | b |\n| <b | x |\n| *a | b* |\n| &am | x; |\n"
      + "| ~~s | t~~ |\n| [^ | 1] |\n| ![i]( | u) |\n",
  ]

  /// An open row ending in a Unicode space (which the heal holds back) shows what the parse
  /// shows: no row for a `|` before it, the words without it after them (a review found the row
  /// made with the space).
  @Test(arguments: ["\u{A0}", "\u{3000}", "\u{2007}", "\u{202F}", "\u{1680}"])
  func anOpenRowEndingInAUnicodeSpaceShowsWhatTheParseShows(space: String) {
    let rows = (1...30).map { "| \($0) | plain \($0) |\n" }.joined()
    for open in ["|" + space, "| " + space, "| x " + space, "| x " + space + space, "| x | y" + space] {
      #expect(StreamingFastPathTests.firstDifference(["x|1\n-|-\n" + open]) == nil, "\(open.debugDescription)")
      #expect(StreamingFastPathTests.firstDifference(["a|b\n-|-\n", rows, open]) == nil, "\(open.debugDescription)")
      #expect(
        StreamingFastPathTests.firstDifference(("a|b\n-|-\n" + rows + open).map { String($0) }) == nil,
        "\(open.debugDescription)")
    }
  }

  /// Generated tables whose last cells hold markup: a stream taking the shortcuts shows what a
  /// stream parsing every row shows.
  @Test func generatedMarkupRowsShowWhatTheParseShows() {
    let words = [
      "a", "b c", "**b**", "*i*", "`c`", "[l](u)", "[l](", "**open", "~~s~~", "<t>", "&amp;", "www.x.io", "2 * 3",
    ]
    var generator = StreamingHarness.SeededGenerator(state: 5)
    for round in 0..<6 {
      var text = "| h1 | h2 | h3 |\n|---|:-:|--:|\n"
      for _ in 0..<8 {
        var row = "|"
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          row += " " + words.randomElement(using: &generator)! + " " + words.randomElement(using: &generator)! + " |"
        }
        text += (Bool.random(using: &generator) ? String(row.dropLast(2)) : row) + "\n"
      }
      let chunks = StreamingHarness.randomCharacterChunks(text, seed: UInt64(round))
      #expect(StreamingFastPathTests.firstDifference(chunks) == nil, "\(text.debugDescription)")
    }
  }

  /// Streams that take the row shortcut show what a stream parsing every row shows, in every
  /// consumer, at every update.
  @Test(arguments: tables)
  func streamedRowsShowWhatTheParseShows(text: String) {
    #expect(StreamingFastPathTests.firstDifferenceInChunkings(text) == nil)
  }

  /// Within a long table's plain rows no update parses: the open row is made, not parsed (a pipe
  /// that opens a cell took a parse of the head and row), a row's first `|` and spaces, no row
  /// yet, show the rows header alone, and a row its line end completes settles made too.
  @Test func plainRowsParseNothing() {
    let text =
      "| # | name | value |\n|---|---|---|\n" + (1...40).map { "| \($0) | name \($0) | value \($0) |\n" }.joined()
    var stream = MarkdownStream()
    var parsed = 0
    var updates = 0
    let body = text.utf8.count / 2
    var lines: [String] = []
    var line = ""
    for (index, chunk) in text.map({ String($0) }).enumerated() {
      let update = stream.feed(chunk)
      line = chunk == "\n" ? "" : line + chunk
      guard index > body else { continue }
      updates += 1
      parsed += update.statistics.parsedBytes
      if update.statistics.parsedBytes > 0 { lines.append(line) }
    }
    #expect(updates > 300)
    #expect(parsed == 0, "\(lines)")
    // A row with markup still takes the parse.
    #expect(stream.feed("| *a* |").statistics.parsedBytes > 0)
  }
}
