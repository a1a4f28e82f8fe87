import Testing

@testable import ReplyMarkdown

/// The terminal layout of each element, with colour off unless the test is about colour.
@Suite struct ANSILayoutTests {
  func render(_ markdown: String, width: Int = 40, color: Bool = false, hyperlinks: Bool = false) -> String {
    ANSIRenderer(options: ANSIOptions(width: width, color: color, hyperlinks: hyperlinks))
      .render(MarkdownDocument(markdown))
  }

  @Test func headingsLoseTheirMarkersAndTopLevelsAreUnderlined() {
    #expect(render("# Title\n\n## Part\n\n### Small") == "Title\n═════\n\nPart\n────\n\nSmall\n")
  }

  @Test func proseWrapsAtSpacesWithoutTrailingSpaces() {
    let output = render("one two three four five six seven eight nine ten eleven twelve", width: 20)
    #expect(output == "one two three four\nfive six seven eight\nnine ten eleven\ntwelve\n")
  }

  @Test func clustersAreNeverSplitAndWideCharactersBreakAnywhere() {
    let family = "👨‍👩‍👧‍👦"
    let markdown = Array(repeating: family, count: 30).joined() + " " + Array(repeating: "🇯🇵", count: 15).joined()
    let output = render(markdown, width: 20)
    #expect(output.filter { $0 == Character(family) }.count == 30)
    #expect(output.filter { $0 == Character("🇯🇵") }.count == 15)
    #expect(TerminalOutput.layoutProblems(output, width: 20).isEmpty)
    #expect(
      render("日本語の文章もテストします。全角文字は二つのセルを占める", width: 20)
        == "日本語の文章もテスト\nします。全角文字は二\nつのセルを占める\n")
  }

  @Test func kinsokuKeepsClosingPunctuationOffTheLineStart() {
    let output = render("あいうえおかきくけこ、さしすせそ", width: 20)
    #expect(output == "あいうえおかきくけ\nこ、さしすせそ\n")
  }

  @Test func longWordsAreSplitNotTruncated() {
    let url = "https://example.com/" + String(repeating: "abcdefghij", count: 4)
    let output = render(url, width: 20)
    #expect(output.replacingOccurrences(of: "\n", with: "") == url)
  }

  @Test func codeKeepsItsTextAndMarksContinuationsInTheGutter() {
    let output = render("```swift\nlet value = \"0123456789abcdefghij\"\n\n\tindented\n```", width: 20)
    #expect(output == "swift\n│ let value = \"01234\n↪ 56789abcdefghij\"\n│\n│     indented\n")
  }

  @Test func listsShowBulletsByDepthNumbersAndTaskBoxes() {
    #expect(render("- a\n  - b\n    - c\n- [x] done\n- [ ] todo") == "• a\n  ◦ b\n    ▪ c\n☑ done\n☐ todo\n")
    #expect(render("9. nine\n10. ten\n\n    more") == "9. nine\n\n10. ten\n\n    more\n")
  }

  /// An empty footnote definition is still listed, as HTML lists it.
  @Test func anEmptyFootnoteIsStillListed() {
    #expect(render("Text[^1] and [^2].\n\n[^1]:\n\n[^2]: two\n") == "Text[1] and [2].\n\n[1]\n[2] two\n")
  }

  @Test func quotesHaveABarPerLevel() {
    #expect(render("> a\n>\n>> b") == "┃ a\n┃\n┃ ┃ b\n")
  }

  @Test func tablesHaveBordersAlignmentAndWrappedCells() {
    let markdown = "| Name | Qty |\n|:--|--:|\n| apples and pears from the market | 12 |"
    #expect(
      render(markdown, width: 24)
        == """
        ┌────────────────┬─────┐
        │ Name           │ Qty │
        ├────────────────┼─────┤
        │ apples and     │  12 │
        │ pears from the │     │
        │ market         │     │
        └────────────────┴─────┘

        """)
    #expect(ANSITable.fit([10, 30, 5], into: 30) == [10, 15, 5])
  }

  @Test func tablesTooWideForColumnsBecomeRecords() {
    let markdown = "| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 | 6 |"
    #expect(render(markdown, width: 20) == "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n")
  }

  /// Records name each cell by its header: the first record by the whole header, the later ones
  /// by at most 24 columns of it and `…`; a cell with nothing in it (cmark-gfm fills a short row
  /// with empty ones) writes no entry. So the headers' output grows with the cells that hold
  /// text: 32 headers of 1,800 bytes over rows of one byte wrote every header for every row, 187 MB
  /// from 64 KB (a helper's review).
  @Test func recordsRepeatShortHeadersForTheCellsThatHoldText() {
    let header = (1...8).map { "Header \($0) of the column that says what it holds" }
    let markdown =
      header.joined(separator: "|") + "\n" + Array(repeating: "-", count: 8).joined(separator: "|")
      + "\n1|2|3|4|5|6|7|8\nx\n|y||z\n"
    let output = render(markdown, width: 30)
    let records = output.components(separatedBy: "\n\n")
    #expect(records.count == 3)
    #expect(records[0].hasPrefix("Header 1 of the column that\n  says what it holds: 1\n"), "\(records[0])")
    #expect(records[1] == "Header 1 of the column…: x")
    #expect(records[2] == "Header 1 of the column…: y\nHeader 3 of the column…: z\n")
    // A thousand one-byte rows under long headers: an entry of 26 columns each, not eight of 50.
    let long = markdown + String(repeating: "a\n", count: 1_000)
    #expect(render(long, width: 30).utf8.count <= 30 * 1_000 + output.utf8.count)
  }

  @Test func rulesImagesLinksAndFootnotes() {
    #expect(render("a\n\n---\n\nb", width: 20) == "a\n\n────────────────────\n\nb\n")
    #expect(render("![a cat](https://x.org/cat.png)") == "a cat (https://x.org/cat.png)\n")
    #expect(
      render("see [docs](https://x.org) and https://y.org", width: 60) == "see docs (https://x.org) and https://y.org\n"
    )
    #expect(render("x[^n]\n\n[^n]: note") == "x[1]\n\n[1] note\n")
  }

  /// A link is clickable on its first eight lines: each line opens its links again, so a link
  /// over thousands of short lines wrote its address on each (41 MB from 62 KB: a helper's
  /// review). The same address is clickable again in a later link.
  @Test func aLinkOverManyLinesOpensItsAddressOnItsFirstLines() {
    let address = "https://x.org/" + String(repeating: "a", count: 200)
    let text = (1...30).map { "word\($0)" }.joined(separator: "\\\n")
    let output = render("[\(text)](\(address))\n\nthen [again](\(address))", width: 40, hyperlinks: true)
    let opener = "\u{1B}]8;;" + address
    #expect(output.components(separatedBy: opener).count - 1 == ANSILineWriter.maximumLinkLines + 1)
    #expect(output.contains(opener + "\u{1B}\\again"))
    #expect(output.contains("word30"))
  }

  @Test func hyperlinksUseOSC8AndColourUsesSGR() {
    let output = render("[docs](https://x.org)", color: true, hyperlinks: true)
    #expect(output == "\u{1B}]8;;https://x.org\u{1B}\\\u{1B}[0;4mdocs\u{1B}[0m\u{1B}]8;;\u{1B}\\\n")
    #expect(
      render("**b** *i* ~~s~~ `c`", color: true)
        == "\u{1B}[0;1mb\u{1B}[0m \u{1B}[0;3mi\u{1B}[0m \u{1B}[0;9ms\u{1B}[0m \u{1B}[0;32mc\u{1B}[0m\n")
  }

  @Test func linesAndTopLevelBlocksAgreeWithTheWholeRendering() {
    let markdown = "# T\n\n- a\n- b\n\n```\nx\n```\n"
    let document = MarkdownDocument(markdown)
    let renderer = ANSIRenderer(options: ANSIOptions(width: 30))
    let whole = renderer.render(document)
    #expect(renderer.renderLines(document).map { $0 + "\n" }.joined() == whole)
    let blocks = document.topLevelBlocks.map { renderer.render(document, topLevelBlock: $0) }
    #expect(blocks.joined(separator: "\n") == whole)
    #expect(renderer.renderLines(document, topLevelBlock: 1) == ["T", "═"])
  }

  @Test func deepNestingRendersOnASmallStackWithinTheWidth() {
    let depth = 100_000
    for markdown in [String(repeating: "> ", count: depth) + "x\n", String(repeating: "- ", count: depth) + "x\n"] {
      let output = SmallStackThread.run {
        ANSIRenderer(options: ANSIOptions(width: 20)).render(MarkdownDocument(markdown))
      }
      #expect(TerminalOutput.layoutProblems(output, width: 20).isEmpty)
      #expect(output.hasSuffix("x\n"))
    }
  }

  @Test func widthsBelowTwentyCountAsTwenty() {
    #expect(ANSIOptions(width: 5).width == 20)
  }

  /// A link's URL is repeated on every line its text wraps to, so a URL past 2 KB is no hyperlink:
  /// it shows after its text, once. Before, a 100 KB autolink made 250 MB at 40 columns.
  @Test func aVeryLongURLIsShownOnceNotRepeatedPerLine() {
    let autolink = String(repeating: "www.a", count: 2_000)  // 10 KB
    let output = render(autolink, width: 40, color: true, hyperlinks: true)
    #expect(output.utf8.count < 4 * autolink.utf8.count, "\(output.utf8.count) bytes")
    #expect(!output.contains("\u{1B}]8;"))
    let text =
      "[" + String(repeating: "long link text ", count: 200) + "](https://example.com/"
      + String(repeating: "p", count: 3000) + ")"
    #expect(render(text, width: 40, hyperlinks: true).utf8.count < 3 * text.utf8.count)
    // A short one is still a hyperlink.
    #expect(render("[docs](https://example.com/docs)", hyperlinks: true).contains("\u{1B}]8;;https://example.com/docs"))
  }
}

/// A highlighter that breaks its contract: spans far past the line.
private struct OutOfRangeHighlighter: CodeHighlighter {
  var theme: CodeTheme? { nil }
  func language(named name: String) -> CodeLanguage? { CodeLanguage(name: name, identifier: 1) }
  func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
    HighlightedLine(
      spans: [
        CodeSpan(range: -5..<1, kind: .keyword, style: .plain),
        CodeSpan(range: (Int.max - 1)..<Int.max, kind: .keyword, style: .plain),
      ], state: state)
  }
}

extension ANSILayoutTests {
  /// Spans out of the line are clamped to it, as the HTML renderer does (an overflow crashed).
  @Test func outOfRangeSpansAreClamped() {
    var options = ANSIOptions(color: true)
    options.highlighter = OutOfRangeHighlighter()
    let output = ANSIRenderer(options: options).render(MarkdownDocument("```x\nabc\n```"))
    #expect(output.contains("bc"))
    #expect(
      HTMLRenderer(highlighter: OutOfRangeHighlighter()).render(MarkdownDocument("```x\nabc\n```")).contains("bc"))
  }
}
