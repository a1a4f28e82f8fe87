import Testing

@testable import ReplyMarkdown

/// Each guard, with small limits so the inputs stay readable: what it changes (golden text), what
/// it reports, and that the rest of the input is left alone.
@Suite struct InputGuardTests {
  func guarded(_ text: String, _ limits: InputLimits, options: ParseOptions = .github) -> GuardedInput {
    InputGuard.apply(text, options: options, limits: limits)
  }

  @Test func nestingDepthEscapesTheMarkerPastTheLimit() {
    let result = guarded("> > > > a\n", InputLimits(maxNestingDepth: 2))
    #expect(result.text == "> > \\> > a\n")
    #expect(result.diagnostics == [MarkdownDiagnostic(kind: .nestingDepth, line: 1, count: 1, limit: 2)])
    let html = HTMLRenderer().render(MarkdownDocument("> > > > a\n", limits: InputLimits(maxNestingDepth: 2)))
    #expect(html == "<blockquote>\n<blockquote>\n<p>&gt; &gt; a</p>\n</blockquote>\n</blockquote>\n")
  }

  /// cmark-gfm drops a byte order mark that starts the text, so the first line's markers count
  /// after it. They went unseen: 10,000 `- ` and 10,000 `_a ` after one took 13 s to render.
  @Test func aByteOrderMarkStartingTheTextHidesNoMarkers() {
    let result = guarded("\u{FEFF}> > > > a\n", InputLimits(maxNestingDepth: 2))
    #expect(result.text == "\u{FEFF}> > \\> > a\n")
    #expect(result.diagnostics == [MarkdownDiagnostic(kind: .nestingDepth, line: 1, count: 1, limit: 2)])
    let deep = "\u{FEFF}" + String(repeating: "> ", count: 2_000) + "a\n"
    let quotes = MarkdownDocument(deep).nodes.count {
      if case .blockQuote = $0.kind { return true } else { return false }
    }
    #expect(quotes == InputLimits.default.maxNestingDepth)
  }

  /// A tab reaches the next multiple of four columns from the line's start, and after `>` one of
  /// its columns is the optional space: `>\t1.` is a list in a quote. The guard counted the tab as
  /// four columns from the `>`, saw indented code, and let 2,000 lists nest (fuzz seed 1242).
  @Test func aTabAfterAQuoteMarkerHidesNoMarkers() {
    let result = guarded(">\t1. 1. 1. a\n", InputLimits(maxNestingDepth: 2))
    #expect(result.text == ">\t1. 1\\. 1. a\n")
    #expect(result.diagnostics == [MarkdownDiagnostic(kind: .nestingDepth, line: 1, count: 1, limit: 2)])
    #expect(guarded("-\t-\t- a\n", InputLimits(maxNestingDepth: 2)).text == "-\t-\t\\- a\n")
    let deep = ">\t" + String(repeating: "1. ", count: 2_000) + "a\n"
    let lists = MarkdownDocument(deep).nodes.count {
      if case .list = $0.kind { return true } else { return false }
    }
    #expect(lists == InputLimits.default.maxNestingDepth - 1)
    // Below the limit, tabs after markers leave the text as cmark-gfm reads it.
    for text in [">\t1. a\n", "> \t- a\n", "-\t\tcode\n", ">\t\tcode\n", "1.\t>\ta\n", " >\t-\tb\n"] {
      let plain = guarded(text, .default)
      #expect(plain.text == text && plain.diagnostics.isEmpty, "\(text.debugDescription)")
    }
  }

  @Test func nestingDepthCoversListsAndFootnotes() {
    #expect(guarded("- - - a\n", InputLimits(maxNestingDepth: 2)).text == "- - \\- a\n")
    #expect(guarded("1. 1. 1. a\n", InputLimits(maxNestingDepth: 2)).text == "1. 1. 1\\. a\n")
    #expect(guarded("[^a]: [^b]: [^c]: x\n", InputLimits(maxNestingDepth: 2)).text == "[^a]: [^b]: \\[^c]: x\n")
    // A thematic break made of spaced markers is not nesting.
    #expect(guarded("- - - - -\n", InputLimits(maxNestingDepth: 2)).diagnostics.isEmpty)
  }

  /// A line indented four columns or more may sit in list items opened on earlier lines: its
  /// markers nest in cmark-gfm all the same (found by fuzz seed 1212: a 14 KB line of `-   `
  /// nested 694 deep, and inline nodes there cost cmark-gfm a walk to the root each). Its
  /// indentation counts as one level per two columns, the narrowest list item's.
  @Test func markersAfterIndentationFromEarlierLinesAreLimited() {
    let text = "1.  A\n\n       - - - a\n"
    let result = guarded(text, InputLimits(maxNestingDepth: 5))
    #expect(result.text == "1.  A\n\n       - - \\- a\n")
    #expect(result.diagnostics == [MarkdownDiagnostic(kind: .nestingDepth, line: 3, count: 1, limit: 5)])
    let html = HTMLRenderer().render(MarkdownDocument(text, limits: InputLimits(maxNestingDepth: 5)))
    #expect(html.components(separatedBy: "<li>").count - 1 == 3)
    // Indented lines with markers within the limit, and indented code, pass unchanged.
    #expect(guarded("1.  A\n\n       - - a\n", InputLimits(maxNestingDepth: 5)).diagnostics.isEmpty)
    #expect(guarded("    code - - - a\n", InputLimits(maxNestingDepth: 5)).diagnostics.isEmpty)
    // A deep line renders with its nesting limited (the default limit is 32).
    let deep = "1.  A paragraph\n\n       " + String(repeating: "-   ", count: 2_000) + "_a b_ c\n"
    let nested = HTMLRenderer().render(MarkdownDocument(deep)).components(separatedBy: "<li>").count - 1
    #expect(nested == 1 + InputLimits.default.maxNestingDepth - 7 / 2)
  }

  /// A trial: past the paragraph's delimiter limit, the `*` of a code span got backslashes, shown
  /// in the code. Escapes inside a code span are spared (the runs still count), up to the limit
  /// again: the guard may take for a span what cmark-gfm does not.
  @Test func escapesInsideCodeSpansAreSpared() {
    let limits = InputLimits(maxDelimiterRuns: 5, maxBrackets: 1, maxUnclosedHTMLOpeners: 1)
    let text = String(repeating: "*a* ", count: 4) + "`x *b* [c] [d] <!-- <? y` and *e*\n"
    let result = guarded(text, limits)
    #expect(result.text == "*a* *a* *a\\* \\*a\\* `x *b* [c] [d] <!-- <? y` and \\*e\\*\n")
    #expect(result.diagnostics.map(\.kind) == [.delimiterRuns])
    let html = HTMLRenderer().render(MarkdownDocument(text, limits: limits))
    #expect(html.contains("<code>x *b* [c] [d] &lt;!-- &lt;? y</code>"), "\(html)")
    // A code span after the default limit, as the trial had it.
    let trial = String(repeating: "*a* ", count: 201) + "`x *b* y`\n"
    #expect(HTMLRenderer().render(MarkdownDocument(trial)).hasSuffix("<code>x *b* y</code></p>\n"))
    // Backticks in an HTML tag make no span to cmark-gfm: past the spared ones, escapes go on.
    let tag = "<a title=\"`\">" + String(repeating: "*a* ", count: 100) + "`\n"
    let escaped = guarded(tag, limits).diagnostics.first { $0.kind == .delimiterRuns }?.count ?? 0
    #expect(escaped == 200 - 5 - 5)
    // Nor do runs of more than 80 backticks, text to cmark-gfm: the escapes between them go on.
    let ticks = String(repeating: "`", count: 81)
    let long = String(repeating: "*a* ", count: 4) + ticks + " *b* " + ticks + "\n"
    #expect(guarded(long, limits).text.hasSuffix(ticks + " \\*b\\* " + ticks + "\n"))
  }

  /// A trial: 33 `>` in indented code (no list item open before it) got a backslash, shown in the
  /// code; they are code, not containers. Where a list item may be open, they are still limited.
  @Test func markersInIndentedCodeOutsideContainersAreNotLimited() {
    let code = "    " + String(repeating: ">", count: 33) + " x\n"
    #expect(guarded(code, .default).diagnostics.isEmpty)
    #expect(
      HTMLRenderer().render(MarkdownDocument(code))
        == "<pre><code>" + String(repeating: "&gt;", count: 33) + " x\n</code></pre>\n")
    // After a paragraph the line continues it: text, not markers.
    #expect(guarded("Text\n" + code, .default).diagnostics.isEmpty)
    // After a list item, even past a blank line, the indentation may put the line inside it.
    let inItem = "- a\n\n" + code
    #expect(guarded(inItem, .default).diagnostics.map(\.kind) == [.nestingDepth])
    // An unindented line after a blank one closes the item: indented lines after it are code again.
    #expect(guarded("- a\n\nb\n\n" + code, .default).diagnostics.isEmpty)
  }

  /// Lines indented ever deeper, each continuing the items of the lines before and opening as
  /// many again, stay within the limit in all: their indentation counts.
  @Test func nestingBuiltOverManyLinesIsLimited() {
    var lines: [String] = []
    var depth = 0
    for _ in 0..<20 {
      lines.append(String(repeating: " ", count: 2 * depth) + String(repeating: "- ", count: 10) + "x")
      depth += 10
    }
    let document = MarkdownDocument(lines.joined(separator: "\n") + "\n")
    let items = document.nodes.filter { if case .item = $0.kind { return true } else { return false } }
    let deepest = items.map(\.depth).max() ?? 0
    // A list and an item per level below the document.
    #expect(deepest <= 2 * InputLimits.default.maxNestingDepth)
    #expect(document.diagnostics.map(\.kind).contains(.nestingDepth))
  }

  @Test func delimiterRunsPastTheLimitAreEscaped() {
    let result = guarded("*a* *b* *c*\n", InputLimits(maxDelimiterRuns: 4))
    #expect(result.text == "*a* *b* \\*c\\*\n")
    #expect(result.diagnostics.map(\.kind) == [.delimiterRuns])
    #expect(result.diagnostics.first?.count == 2)
    // The count is per paragraph.
    #expect(guarded("*a* *b*\n\n*c* *d*\n", InputLimits(maxDelimiterRuns: 4)).diagnostics.isEmpty)
    // Intraword underscores and lone spaced stars are not delimiters.
    #expect(guarded("snake_case_name * x\n", InputLimits(maxDelimiterRuns: 0)).diagnostics.isEmpty)
  }

  @Test func longDelimiterRunsKeepTheirFirstCharacters() {
    let result = guarded("****a****\n", InputLimits(maxDelimiterRunLength: 2))
    #expect(result.text == "**\\*\\*a**\\*\\*\n")
    #expect(result.diagnostics.map(\.kind) == [.delimiterRunLength])
  }

  @Test func smartQuotesCountAsDelimitersOnlyWithSmartPunctuation() {
    let limits = InputLimits(maxDelimiterRuns: 2)
    #expect(guarded("'a' 'b'\n", limits).diagnostics.isEmpty)
    #expect(guarded("'a' 'b'\n", limits, options: [.github, .smartPunctuation]).text == "'a' \\'b\\'\n")
  }

  @Test func bracketsPastTheLimitAreEscaped() {
    let result = guarded("[a](b) ![c](d) [e]\n", InputLimits(maxBrackets: 2))
    #expect(result.text == "[a](b) ![c](d) \\[e]\n")
    #expect(result.diagnostics.map(\.kind) == [.brackets])
  }

  @Test func unclosedHTMLOpenersAreEscapedClosedOnesKept() {
    let limits = InputLimits(maxUnclosedHTMLOpeners: 1)
    let result = guarded("a <? b <? c <!X d <![CDATA[ e\n", limits)
    #expect(result.text == "a <? b \\<? c \\<!X d \\<![CDATA[ e\n")
    #expect(result.diagnostics.first?.count == 3)
    // An opener with a closer later in the paragraph is not counted.
    #expect(guarded("<? a ?> <? b ?>\n", InputLimits(maxUnclosedHTMLOpeners: 0)).diagnostics.isEmpty)
    // Escaping an unclosed opener renders exactly as before.
    let text = "a <? b <? c <!X d\n"
    #expect(CmarkReference.html(guarded(text, limits).text) == CmarkReference.html(text))
  }

  /// Footnote definitions one per line are a paragraph each to cmark-gfm, so their delimiter runs
  /// and brackets are counted per definition: 300 definitions with three emphasis spans each pass
  /// unchanged (the runs of all of them together were counted as one paragraph's, and the
  /// definitions past the 400th run lost their emphasis).
  @Test func eachFootnoteDefinitionIsAParagraphOfItsOwn() {
    let text = (1...300).map { "[^\($0)]: *a* **b** [c](https://example.com) ~~d~~\n" }.joined() + "\ncite [^1]\n"
    let result = guarded(text, .default)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.text == text)
    // One paragraph with as many runs is still limited.
    let paragraph = (1...300).map { _ in "*a* **b** [c](https://example.com) ~~d~~\n" }.joined()
    #expect(guarded(paragraph, .default).diagnostics.map(\.kind).contains(.delimiterRuns))
  }

  @Test func autolinksPastTheScanBudgetAreNotLinked() {
    let limits = InputLimits(maxAutolinkScanBytes: 150)
    let result = guarded("www.a.com http://b.com c@d.com www.e.com\n", limits)
    #expect(result.text == "www.a.com http://b.com c\u{2060}@d.com www\\.e.com\n")
    #expect(result.diagnostics.map(\.kind) == [.autolinkScan])
    #expect(guarded("www.a.com\n", limits, options: .commonMark).diagnostics.isEmpty)
  }

  /// The budget counts per started mebibyte of input: a 4.8 MB reply of links ran out of the flat
  /// 4 MB budget and showed its later links as text.
  @Test func theAutolinkBudgetGrowsWithTheInput() {
    let links = (1...15).map { "see www.example\($0).com and https://example.org/\($0).\n" }.joined()
    let limits = InputLimits(maxAutolinkScanBytes: 1_500)
    #expect(guarded(links, limits).diagnostics.map(\.kind) == [.autolinkScan])
    // Two started mebibytes: twice the budget.
    let line = String(repeating: "plain words and nothing to link here ", count: 30) + "\n"
    let filler = String(repeating: line, count: 1_000)
    #expect(filler.utf8.count > 1 << 20 && filler.utf8.count < 2 << 20)
    let long = filler + "\n" + links
    let result = guarded(long, limits)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.text == long)
    // Still bounded: twice the links exceed it.
    #expect(guarded(long + links, limits).diagnostics.map(\.kind) == [.autolinkScan])
  }

  @Test func wideTablesStartNoTable() {
    let result = guarded("a|b|c\n-|-|-\nx|y|z\n", InputLimits(maxTableColumns: 2))
    #expect(result.text == "a|b|c\n\\-|-|-\nx|y|z\n")
    #expect(result.diagnostics.map(\.kind) == [.tableColumns])
    #expect(guarded("a|b\n-|-\nx|y\n", InputLimits(maxTableColumns: 2)).diagnostics.isEmpty)
  }

  @Test func tableCellsPastTheLimitEndTheTable() {
    let text = "a|b\n-|-\n1\n2\n3\n4\n"
    let result = guarded(text, InputLimits(maxTableCells: 6))
    // Header (2) + two rows (4) fit; the third row starts a paragraph.
    #expect(result.text == "a|b\n-|-\n1\n2\n\n3\n4\n")
    #expect(result.diagnostics.map(\.kind) == [.tableCells])
    let html = HTMLRenderer().render(MarkdownDocument(text, limits: InputLimits(maxTableCells: 6)))
    #expect(html.hasSuffix("</tbody>\n</table>\n<p>3\n4</p>\n"))
  }

  /// cmark-gfm's table scanner takes a vertical tab or form feed for a blank in a delimiter row,
  /// and a paragraph's line keeps one before its leading pipe (`\v|a|b` is three cells): the
  /// guard saw no table there, and 10 KB of one-byte rows under such a head made 6.5 MB of HTML
  /// (a helper's review; `render` as much as streaming, older than the project's streaming work).
  @Test(arguments: ["a|b\n-|-\u{0B}\n", "a|b\n-\u{0B}|-\n", "a|b\n\u{0C}-|-\n", "\u{0B}|a|b\n-|-|-\n"])
  func blanksOfCmarkGFMsTablesStartATable(head: String) {
    let text = head + "1\n2\n3\n4\n5\n6\n"
    let result = guarded(text, InputLimits(maxTableCells: 9))
    #expect(result.diagnostics.map(\.kind) == [.tableCells], "\(result.text.debugDescription)")
    let html = HTMLRenderer().render(MarkdownDocument(text, limits: InputLimits(maxTableCells: 9)))
    #expect(html.contains("</tbody>\n</table>\n<p>") && html.hasSuffix("\n5\n6</p>\n"), "\(html)")
  }

  /// A line opening with `<` opens a raw HTML block only as cmark-gfm 0.29.0.gfm.6 reads its
  /// start: the guard took `<x` (no complete tag, no block tag's name) and `<!a` (no uppercase
  /// letter) for blocks, so it did not believe the fence under them, took the fence's closer for
  /// an opener and every line after it for code, unguarded (10 KB of table rows after
  /// `<x`, a fence line, a blank line and a fence line made 6.5 MB of HTML: a helper's review).
  @Test(arguments: ["<x\n", "<!a\n", "<scriptx\n", "<divx\n", "<a b=\"c\n", "<a>b\n", "text\n<a>\n", "<a>\u{0B}\n"])
  func aLineCmarkGFMReadsAsTextOpensNoHTMLBlock(first: String) {
    let text = first + "~~~\n\n~~~\na|b\n-|-\n1\n2\n3\n4\n"
    let result = guarded(text, InputLimits(maxTableCells: 6))
    #expect(result.diagnostics.map(\.kind) == [.tableCells], "\(result.text.debugDescription)")
  }

  /// And a line that does open one hides the fence under it until the block ends (at its end
  /// marker, or at a blank line), as in cmark-gfm: the fence line is HTML, and the table after
  /// the block is guarded.
  @Test(arguments: [
    ("<div", ""), ("</div>", ""), ("<DIV class=x>", ""), ("<a href=\"u\">", ""), ("</b >", ""), ("<a>\u{0C}", ""),
    ("<!DOCTYPE", ">"),
    ("<!--", "-->"), ("<?p", "?>"), ("<![CDATA[", "]]>"), ("<script>", "</script>"), ("<pre", "</pre>"),
  ])
  func aLineThatOpensAnHTMLBlockHidesTheFenceUnderIt(opener: String, closer: String) {
    let text = opener + "\n~~~\n" + (closer.isEmpty ? "" : closer + "\n") + "\na|b\n-|-\n1\n2\n3\n4\n"
    let result = guarded(text, InputLimits(maxTableCells: 6))
    #expect(result.diagnostics.map(\.kind) == [.tableCells], "\(result.text.debugDescription)")
  }

  /// A complete tag opens a raw HTML block after a paragraph that cmark-gfm does not continue
  /// with it: one in a container the line does not match, a setext heading's, indented code.
  /// Only after a paragraph outside every container does it stay text (a review of the guard's
  /// first reading of cmark-gfm's start conditions, which believed the fence under `> p`, `<a>`).
  @Test(arguments: [
    "> p\n<a>\n", "- p\n<a>\n", "1. p\n<meta>\n", "[^1]: p\n<a>\n", "-\n<a>\n", "p\n===\n<a>\n", "    c\n<a>\n",
    "> p\nlazy\n<a >\n",
  ])
  func aCompleteTagAfterAParagraphCmarkGFMDoesNotContinueOpensABlock(first: String) {
    let text = first + "```\n\n```\nx\n```\na|b\n-|-\n1\n2\n3\n4\n"
    let result = guarded(text, InputLimits(maxTableCells: 6))
    #expect(result.diagnostics.map(\.kind) == [.tableCells], "\(result.text.debugDescription)")
  }

  /// Expects the guard to charge a six-row table after `first`, each of its lines starting with
  /// `lines`, to a cells limit of 10: cmark-gfm renders it as a table (the cases of the tests below
  /// are checked against it), so the guard must count it, not take it for code or raw HTML.
  private func expectTableGuarded(
    after first: String, lines: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let table = ["a|b", "-|-", "1", "2", "3", "4", "5", "6"].map { lines + $0 + "\n" }.joined()
    let result = guarded(first + table, InputLimits(maxTableCells: 10))
    #expect(
      result.diagnostics.map(\.kind).contains(.tableCells), "\(result.text.debugDescription)",
      sourceLocation: sourceLocation)
  }

  /// A raw HTML block ends where cmark-gfm ends it: with the container its first line opened or
  /// stood in (no container continues lazily around it), at a blank line even after a line that
  /// would start another raw HTML block inside it (none starts there), and not at a `>` line
  /// inside it (text there); a table ends at a raw HTML block's start; a closing fence indented
  /// four columns is code. Each case is a fence that cmark-gfm opens and closes where the guard,
  /// before, took the closing line for an opener and the table after it for code (a helper's
  /// review: 1,268 of 20,000 generated prefixes before a 129-column table, most of them the first).
  @Test(arguments: [
    "> <a>\n```\n\n```\n", "- <div>\n```\n\n```\n", "> <!--\n```\n\n```\n", "1. <pre>\n```\n\n```\n",
    "[^1]: <div>\n```\n\n```\n", "> p\n> <a>\n```\n\n```\n", "a|b\n-|-\n<a>\n```\n\n```\n```\n",
    "<div>\n>\n```\n\n```\n```\n", "<!A\n>\n```\nx>\n```\n", "<p>\n<?\n\n```\n?>\n```\n",
    "```\n    ```\n```\n", "- [ ] p\n  <!-- x\n-->\n  ```\n\n```\n",
  ])
  func aRawHTMLBlockEndsWhereCmarkGFMEndsIt(first: String) {
    expectTableGuarded(after: first)
  }

  /// A raw HTML block in list items and quotes ends with them, as the guard reads them in the
  /// order they open (an item's content column, then the quotes inside it); a `>` left of an
  /// item's content leaves the item; a quote marker takes at most three spaces before it at a
  /// line's start, and a closing fence in a quote at most three columns after its marker's space.
  /// Each case: a prefix, then a table whose lines start with the second string, which cmark-gfm
  /// renders as a table (a helper's review of the first reading, which believed a fence there).
  @Test(arguments: [
    ("- > <div>\n    > x\n  > ```\n  >\n", "  > "), ("- <v>\n>\n  ```\n\n  ```\n", "  "),
    ("- <!--\n> ```\n>```\n", "> > "), ("-\n  <v>\n<!--\n\n```\n-->\n", ""), ("><a>\nx\n>```\n    >\n", "  > "),
    ("[^1]:<v>\n>```\n    >\n", "> > "), ("1. <t>\n>```\n>\t\t```\n>```\n", "  > "),
    ("- ><v>\n  x\n  >```\n>```\n>```\n", "  > "), ("><a>\n-\n  >```\n", "> "), ("- ><!A\n\n  >```\n", ">   "),
    ("0. <!--\n ```\n```\n", "  "), (">```\n    >\n", "> > "), (">```\n>\t\t```\n>```\n", "  > "),
    // A second review: a table in a quote in a list item (its marker four columns in), a fence after
    // an item in a quote, a fence in a quote inside the item its line opens.
    ("-\n", "    >"), ("- x\n", "    > "), ("><a>\n>-\n ```\n```\n", ""), (">[^1]:<e>\n ```\n```\n", ""),
    ("2) <v>\n- >```\n", ">"), ("><?\n[^a]:>```\n", ">"),
  ])
  func aRawHTMLBlockInItemsAndQuotesEndsWithThem(first: String, lines: String) {
    expectTableGuarded(after: first, lines: lines)
  }

  /// A fence on a line of its own sits in the deepest list item or footnote definition its
  /// indentation reaches (the content columns of the items opened before it), else outside them
  /// all, where only a closing fence ends it: taken for one indented as far as its own line, it
  /// ended at the unindented closing line, which the guard then took for an opener (a helper's
  /// review). And where it does sit in an item, a line less indented than the item's content ends
  /// it, however far the fence itself is indented.
  @Test(arguments: [
    "-\n ```\n\n```\n", "- a\n ```\n\n```\n", "[^1]: a\n ```\n\n```\n", "1. a\n  ```\n\n```\n",
    "- a\n# h\n  ```\n\n```\n", "- a\n   ```\n  x\nb\n```\n\n```\n",
    "- a\n  ```\n  x\n  ```\n```\n\n```\n",
  ])
  func aFenceSitsInTheItemItsIndentationReaches(first: String) {
    expectTableGuarded(after: first)
  }

  /// A line of `>` markers alone at the margin is an empty quote that closes the list items and
  /// footnote definitions whose content column it does not reach: a fence indented to an item's
  /// column after it is outside them, closed by a closing fence at the margin. Taken for a blank
  /// line inside the item, the fence ended with the item at that closing line, which the guard
  /// then took for an opener (the last of a review's generated prefixes that hid a table).
  @Test(arguments: [
    "- x\n>\n  ```\n\n```\n", "- <a\n>\n  ~~~\n\n~~~\n", "* p\n  q\n  <a\n>\n  ```\n\n```\n",
    "- x\n>\n>\n  ```\n\n```\n", "1) p\n- <a\n>\n  ```\n\n```\n",
  ])
  func aQuoteLineAloneClosesTheItemsItDoesNotReach(first: String) {
    expectTableGuarded(after: first)
  }

  /// A fence in quotes where a list item or footnote definition opened inside them may hold it
  /// (on an earlier line, or on the fence's own) ends at a line of the quotes whose text starts
  /// left of the fence's line, as it leaves such an item: `>-`, then a fence indented to the
  /// item's content, then the quote's rows of a table, which the guard read as code (a review's
  /// family, and generated prefixes; the guard does not follow items inside quotes).
  @Test(arguments: [
    "> -\n>   ```\n", ">-\n>\t```\n", "- <t>\nx\n>-\n>\t```\n", "> 1. a\n>\n>    ~~~\n", "> - ```\n>\n",
    "> [^1]:  ```x\n>\n", " >\t* ```\n", "> 1. ~~~\n>    x\n",
  ])
  func aFenceInAQuotedItemEndsWhereTheItemEnds(first: String) {
    expectTableGuarded(after: first, lines: "  > ")
  }

  /// A fence in quotes inside the list item its own line opens ends at a line left of that item's
  /// content, whatever items the guard lost track of before it (several markers on one line):
  /// `1. 1) x`, then `- > ~~~~`, and a table in a quote at the margin, which the guard read as the
  /// fence's code (a generated prefix, 1 of 10,000).
  @Test(arguments: ["1. 1) x\n- > ~~~~\n", "1. 111) </pre> -->\n-   > ~~~~\n", "- - x\n* > ```\n"])
  func aFenceInAQuoteOfTheItemItsLineOpensEndsWithTheItem(first: String) {
    expectTableGuarded(after: first, lines: "> ")
  }

  /// Where no item held such a fence (the item closed before it, which the guard does not know),
  /// cmark-gfm keeps it open past the less indented line, and its closing line closes it: the
  /// guard, which ended the fence there, takes that line for no opener either, so the table after
  /// it is guarded (taken for an opener, it hid the table).
  @Test(arguments: ["> - x\n>\n> y\n>   ```\n> code\n> ```\n", "> - x\n\n>   ```\n> code\n> ```\n"])
  func aFenceEndedEarlyInQuotesTakesItsClosingLineForNoOpener(first: String) {
    expectTableGuarded(after: first, lines: "  > ")
  }

  /// 255 fence characters close a longer opener, as cmark-gfm keeps an opener's length in a
  /// byte: the table after them is guarded (the guard waited for 256 and read it as code).
  @Test func twoHundredFiftyFiveFenceCharactersCloseALongerFence() {
    let fence = String(repeating: "`", count: 255)
    let text = fence + "`\nx\n" + fence + "\na|b|c|d\n-|-|-|-\n"
    let result = guarded(text, InputLimits(maxTableColumns: 3))
    #expect(result.diagnostics.map(\.kind) == [.tableColumns], "\(result.text.debugDescription)")
  }

  /// Indented code and empty list items end a table, as cmark-gfm ends it (a table is no paragraph
  /// to continue lazily): the rows after them are no rows of it, and a table too wide after them
  /// is one.
  @Test(arguments: ["    x\n", "\tx\n", "-\n", "2.\n", "[^1]:\n"])
  func linesStartingABlockAfterATableEndIt(line: String) {
    let text = "a|b\n-|-\n" + line + "c|d|e|f\n-|-|-|-\n"
    let result = guarded(text, InputLimits(maxTableColumns: 3))
    #expect(result.diagnostics.map(\.kind) == [.tableColumns], "\(result.text.debugDescription)")
  }

  /// With bare `\r` line ends the inserted break is `\r`: a `\n` joined the line end into one
  /// `\r\n`, and the table went on past the limit, the paragraph after it read as rows (a review).
  @Test func aBreakAfterABareCarriageReturnIsOne() {
    let cells = "a|b\r-|-\r1\r2\r3\r4\r"
    let table = guarded(cells, InputLimits(maxTableCells: 6))
    #expect(table.text == "a|b\r-|-\r1\r2\r\r3\r4\r")
    let html = HTMLRenderer().render(MarkdownDocument(cells, limits: InputLimits(maxTableCells: 6)))
    #expect(html.hasSuffix("</tbody>\n</table>\n<p>3\n4</p>\n"), "\(html)")
    let header = guarded("aaaa\rbbbb\rx|y\r-|-\r", InputLimits(maxTableHeaderScan: 5))
    #expect(header.text == "aaaa\rbbbb\r\rx|y\r-|-\r")
    // After `\r\n` the break is `\n`, as after `\n`.
    let crlf = guarded("a|b\r\n-|-\r\n1\r\n2\r\n3\r\n", InputLimits(maxTableCells: 6))
    #expect(crlf.text == "a|b\r\n-|-\r\n1\r\n2\r\n\n3\r\n")
  }

  /// Past the table cells' limit a delimiter-like row whose header has other cells forms no
  /// table, but cmark-gfm reads the paragraph before it again all the same: past the header scan's
  /// limit it is escaped too (fuzz seed 1448: thousands of `|-|`, `|-|-|` lines after a long
  /// paragraph, once a 128-column table had spent the cells, took 92 s to render 43 KB).
  @Test func delimiterRowsPastTheCellsLimitAreChargedTheirScan() {
    let text =
      "a|b\n-|-\nc|d\ne|f\n\n" + String(repeating: "x\n", count: 20) + String(repeating: "|-|\n|-|-|\n", count: 3)
    let result = guarded(text, InputLimits(maxTableCells: 6, maxTableHeaderScan: 10))
    #expect(result.diagnostics.map(\.kind) == [.tableCells, .tableHeaderScan], "\(result.text.debugDescription)")
    #expect(result.text.hasSuffix(String(repeating: "\\|-|\n\\|-|-|\n", count: 3)), "\(result.text.debugDescription)")
  }

  @Test func longParagraphBeforeATableIsSplitOff() {
    let text = "aaaa\nbbbb\nx|y\n-|-\n"
    let result = guarded(text, InputLimits(maxTableHeaderScan: 5))
    #expect(result.text == "aaaa\nbbbb\n\nx|y\n-|-\n")
    #expect(result.diagnostics.map(\.kind) == [.tableHeaderScan])
    // Same rendering: cmark-gfm keeps the earlier lines as a paragraph anyway.
    #expect(CmarkReference.html(result.text) == CmarkReference.html(text))
    // A delimiter row that cannot match its header after a long paragraph is escaped.
    #expect(guarded("aaaa\nbbbb\nx\n-|-\n", InputLimits(maxTableHeaderScan: 5)).text == "aaaa\nbbbb\nx\n\\-|-\n")
  }

  /// A line that starts another block ends a table (here a heading, a break, a fence): the
  /// paragraph after it is no row, and a long one before the next table's header is split off as
  /// after any paragraph (a review: the guard counted the lines as rows of the first table, and a
  /// stream's pieces, which start after it, were guarded where the whole reply was not). Rendered
  /// as cmark-gfm renders the text unguarded.
  @Test(arguments: ["# h", "---", "```\n```", "   ## h", "***"])
  func aBlockStartEndsATable(_ block: String) {
    let text = "x\n-:\n" + block + "\naaaa\nbbbb\nx|y\n-|-\n"
    let result = guarded(text, InputLimits(maxTableHeaderScan: 5))
    #expect(result.diagnostics.map(\.kind) == [.tableHeaderScan], "\(result.text.debugDescription)")
    #expect(CmarkReference.html(result.text) == CmarkReference.html(text))
  }

  /// A line of text after a table is a row of it: the lines after it are no paragraph.
  @Test func textAfterATableStaysARow() {
    let text = "x\n-:\nrow\naaaa\nbbbb\nx|y\n-|-\n"
    #expect(guarded(text, InputLimits(maxTableHeaderScan: 5)).diagnostics.isEmpty)
    #expect(CmarkReference.html(text).contains("<td align=\"right\">bbbb</td>"))
  }

  /// Found by `replykit fuzz --seed 1206`: an indented delimiter row opens no table in cmark-gfm
  /// (the line continues the paragraph), so every later delimiter-like row re-reads the growing
  /// paragraph; the guard believed in the table and let that go on for four times the limit.
  @Test(arguments: ["            |-|", "    |-|", "\t|-|", " \t|-|"])
  func anIndentedDelimiterRowIsLimitedAsParagraphText(_ indented: String) {
    let lines = String(repeating: "|-|-|\n|-|\n", count: 10)
    let text = "aaa\n" + indented + "\n" + lines
    let result = guarded(text, InputLimits(maxTableHeaderScan: 16))
    #expect(result.diagnostics.map(\.kind) == [.tableHeaderScan])
    // Escaped from the row after the paragraph passes 16 bytes, not 64.
    #expect(result.text.hasPrefix("aaa\n" + indented + "\n|-|-|\n|-|\n|-|-|\n\\|-|\n"))
    #expect(CmarkReference.html(result.text) == CmarkReference.html(text))
    // The same inside a block quote, where the space after `>` belongs to the marker.
    let quoted = "> aaa\n>     |-|\n" + lines.split(separator: "\n").map { "> \($0)\n" }.joined()
    #expect(
      guarded(quoted, InputLimits(maxTableHeaderScan: 16)).text.hasPrefix(
        "> aaa\n>     |-|\n> |-|-|\n> |-|\n> |-|-|\n> \\|-|\n"))
  }

  /// Fuzz seed 1207: a header line indented four columns that starts no paragraph is indented
  /// code to cmark-gfm, so the delimiter rows after it form a paragraph that is re-read on each one.
  @Test func anIndentedHeaderLineIsLimitedAsParagraphText() {
    let lines = String(repeating: "|-|-|\n|-|\n", count: 10)
    let text = "     ba|-|\n" + lines
    let result = guarded(text, InputLimits(maxTableHeaderScan: 16))
    #expect(result.diagnostics.map(\.kind) == [.tableHeaderScan])
    #expect(result.text.hasPrefix("     ba|-|\n|-|-|\n|-|\n|-|-|\n\\|-|\n"))
    #expect(CmarkReference.html(result.text) == CmarkReference.html(text))
  }

  /// Fuzz seed 1209: a header line that underlines a heading (`--`) opens no table in cmark-gfm
  /// either. The guard cannot follow every such case, so delimiter-like rows in a table it only
  /// believes in are limited as in a paragraph. In a table it is sure of they are rows to
  /// cmark-gfm, and only the document's budget (1,024 times the limit) bounds them, in case the
  /// guard is wrong (fuzz seed 1254 found sure tables cmark-gfm did not form; a libFuzzer input
  /// in Corpus another).
  @Test func delimiterLikeRowsInATableAreLimitedAsInAParagraph() {
    let lines = String(repeating: "|-|-|\n|-|\n", count: 10)
    let heading = "-# x\n--\n" + lines
    let result = guarded(heading, InputLimits(maxTableHeaderScan: 16))
    #expect(result.diagnostics.map(\.kind) == [.tableHeaderScan])
    #expect(CmarkReference.html(result.text) == CmarkReference.html(heading))
    let table = "a\n|-|\n" + lines
    let sure = guarded(table, InputLimits(maxTableHeaderScan: 16))
    #expect(sure.diagnostics.isEmpty && sure.text == table)
    #expect(CmarkReference.html(table).contains("<table>"))
    // A budget of 1,024 bytes: each delimiter-like row is charged the table so far.
    let long = "a\n|-|\n" + String(repeating: "|-|-|\n|-|\n", count: 100)
    let spent = guarded(long, InputLimits(maxTableHeaderScan: 1))
    #expect(spent.diagnostics.map(\.kind) == [.tableHeaderScan])
    #expect(spent.text.hasPrefix("a\n|-|\n|-|-|\n|-|\n|-|-|\n|-|\n"))
    #expect(spent.text.hasSuffix("\\|-|-|\n\\|-|\n"))
  }

  /// A table cmark-gfm surely sees parses each row's cells on their own: 250 rows with bold and
  /// links pass unchanged (counted as one paragraph, the rows past the 100th lost them), and so
  /// does a list glued under a table. A table the guard only believes in is still counted whole.
  @Test func rowsOfASureTableAreCountedApart() {
    let rows = (1...250).map { "| **x\($0)** | *y* [z](u) |\n" }.joined()
    let table = "| a | b |\n|---|---|\n" + rows
    #expect(guarded(table, .default).diagnostics.isEmpty)
    let glued = "| a | b |\n|---|---|\n| c | d |\n" + (1...250).map { "- **x\($0)** *y* [z](u)\n" }.joined()
    #expect(guarded(glued, .default).diagnostics.isEmpty)
    let believed = " | a | b |\n|---|---|\n" + rows
    #expect(guarded(believed, .default).diagnostics.map(\.kind).contains(.delimiterRuns))
  }

  @Test func referenceExpansionIsBudgeted() {
    let definition = "[x]: /" + String(repeating: "u", count: 200) + "\n\n"
    let text = definition + String(repeating: "[x] ", count: 20) + "\n"
    let result = guarded(text, InputLimits(maxReferenceExpansionBytes: 0))
    // Four times the input (about 4.9 kB) pays for 23 copies of the 207-byte definition.
    #expect(result.diagnostics.map(\.kind) == [.referenceExpansion])
    #expect(!result.text.contains("\\[x] [x]"))
    #expect(guarded(text, .default).diagnostics.isEmpty)
  }

  /// A line that opens a label cmark-gfm cannot read (an unescaped `[` inside, or more than 1,000
  /// bytes) starts no definition, and its brackets cost nothing: `` [` `` and 360 `[`, a list item
  /// and a lazy line of 3 KB were charged as a definition up to the next blank line, and 46 of
  /// the brackets escaped (a review). A label over lines that ends in `]:` still runs on.
  @Test func aLabelCmarkGFMCannotReadStartsNoDefinition() {
    let brackets = "[`" + String(repeating: "[", count: 360) + "`\n- a\n" + String(repeating: "a", count: 3000) + "\n"
    #expect(guarded(brackets, .default).diagnostics.isEmpty)
    let long = "[" + String(repeating: "a ", count: 600) + "\nb]: /" + String(repeating: "u", count: 3000) + "\n\n"
    #expect(guarded(long + String(repeating: "[x] ", count: 400), .default).diagnostics.isEmpty)
    let uses = "\n\n" + String(repeating: "[a b] ", count: 400) + "\n"
    let overLines = "[a\nb]:\n/" + String(repeating: "u", count: 3000) + uses
    #expect(guarded(overLines, .default).diagnostics.map(\.kind) == [.referenceExpansion])
    #expect(guarded("[a [b\nc]:\n/" + String(repeating: "u", count: 3000) + uses, .default).diagnostics.isEmpty)
    #expect(guarded("[a \\[b\nc]:\n/" + String(repeating: "u", count: 3000) + uses, .default).diagnostics.count == 1)
  }

  /// cmark-gfm takes definitions only from a paragraph's start: a line starting `[x]:` after a
  /// line of text is the reference `[x]` and text, and its bracket is charged. 331 such lines
  /// under `x]: u`, then a definition of `x` 24 KB long, were left uncharged: 27 KB of input made
  /// 8 MB of HTML (fuzz seed 1392). The labels of a run of definitions, also with a title on the
  /// next line, still cost nothing.
  /// A link is charged what its definition may render as, six bytes for each of its bytes: charged
  /// the bytes alone, links to a destination of `'` (`&#x27;` each) or a title of `"` (`&quot;`)
  /// rendered about six times the budget, past the output bound (found beside fuzz seed 1398).
  @Test(arguments: [
    "[x]: u" + String(repeating: "'", count: 11_000), "[x]: u '" + String(repeating: "\"", count: 11_000) + "'",
  ])
  func aLinkIsChargedWhatItsDefinitionMayRenderAs(definition: String) {
    let text = definition + "\n\n" + String(repeating: "[x] ", count: 300) + "\n"
    #expect(guarded(text, .default).diagnostics.map(\.kind) == [.referenceExpansion])
    let html = HTMLRenderer().render(MarkdownDocument(text))
    #expect(html.utf8.count <= 64 * text.utf8.count + (4 << 20), "\(html.utf8.count) bytes of HTML")
  }

  /// A table's rows are cells, and a header and delimiter row after definitions that open a
  /// paragraph make them text to cmark-gfm: a row or line starting `[x]:` there is a reference,
  /// charged (rows `[x]: u` were left uncharged for a 24 KB definition: 62 KB of input made 8.8 MB
  /// of HTML; fuzz seed 1398).
  @Test func aLabelInATableIsAReference() {
    let definition = "\n[x]: /" + String(repeating: "'", count: 4_000) + "\n"
    for table in ["[x]: u\na | b\n-|-\n", "a | b\n-|-\n", "| a | b |\n|---|---|\n"] {
      let text = table + String(repeating: "[x]: u\n", count: 200) + definition
      #expect(guarded(text, .default).diagnostics.map(\.kind) == [.referenceExpansion], "\(table)")
      let html = HTMLRenderer().render(MarkdownDocument(text))
      #expect(html.utf8.count <= 64 * text.utf8.count + (4 << 20), "\(table): \(html.utf8.count) bytes of HTML")
    }
  }

  /// A line whose label is followed by what makes no definition ends the run of definitions: to
  /// cmark-gfm it and every line after it in the paragraph are text, so the labels there are
  /// references, charged (274 lines `[x]: u` after `[x]:: u` were left uncharged for a 6 KB
  /// definition: 9.8 KB of input made 8.8 MB of HTML; fuzz seed 1437). Definitions that cmark-gfm
  /// takes (titles on the line or the next, `<…>` destinations, balanced parentheses) still cost
  /// nothing.
  /// (A review found more: an empty or blank label, one over 1,000 bytes, parentheses nested 33
  /// deep, a backslash before a blank, a title in parentheses holding `(`, on the line or the
  /// next, a title whose backslash lets cmark-gfm's longest title run on.)
  @Test(arguments: [
    "[x]:: u", "[x]: u v", "[x]: u \"t\" junk", "[x]: <u", "[x]: u)", "[x]: u \"t\"\n\"v\"", "[x]: u\n\"t\" v",
    "[]: u", "[ \t]: u", "[" + String(repeating: "l", count: 1001) + "]: u",
    "[y]: " + String(repeating: "(", count: 33) + String(repeating: ")", count: 33), "[y]: a\\ b", "[y]: u (a(b)",
    "[y]: u\n(a(b)", "[y]: u \"\\\\\"",
  ])
  func aLabelAfterWhatMakesNoDefinitionIsAReference(breaking: String) {
    let definition = "\n[x]: u" + String(repeating: "a", count: 24_800) + "\n"
    let text = "[y]: /v\n" + breaking + "\n" + String(repeating: "[x]: u\n", count: 330) + definition
    #expect(guarded(text, .default).diagnostics.map(\.kind) == [.referenceExpansion], "\(breaking)")
    let html = HTMLRenderer().render(MarkdownDocument(text))
    #expect(html.utf8.count <= 64 * text.utf8.count + (4 << 20), "\(breaking): \(html.utf8.count) bytes of HTML")
  }

  /// A definition over two lines is measured to its end: with CRLF line ends too (the scan took
  /// the CRLF's two bytes for a blank line between them and measured a definition whose title or
  /// destination is on the next line as its first line: 7.5 KB made 10.8 MB of HTML), and no
  /// further than its title's line when that closes it (measured to the paragraph's end, one
  /// such definition among 300 short ones made an ordinary 14 KB reply lose 286 links).
  @Test func aDefinitionOverTwoLinesIsMeasuredToItsEnd() {
    let title = "'" + String(repeating: "\"", count: 6_000) + "'"
    for lineEnd in ["\n", "\r\n"] {
      for definition in [
        "[x]: u" + lineEnd + title, "[x]:" + lineEnd + "<" + String(repeating: "'", count: 6_000) + ">",
      ] {
        let text = definition + lineEnd + lineEnd + String(repeating: "[x] ", count: 300) + lineEnd
        #expect(guarded(text, .default).diagnostics.map(\.kind) == [.referenceExpansion], "\(lineEnd.debugDescription)")
        let html = HTMLRenderer().render(MarkdownDocument(text))
        #expect(html.utf8.count <= 64 * text.utf8.count + (4 << 20), "\(html.utf8.count) bytes of HTML")
      }
    }
    let definitions = (0..<300).map {
      "[r\($0)]: https://example.com/docs/page-\($0)" + ($0 == 0 ? "\n    \"Title\"" : "")
    }
    let reply =
      "See " + (0..<300).map { "[r\($0)]" }.joined(separator: " ") + ".\n\n" + definitions.joined(separator: "\n")
    #expect(guarded(reply, .default).diagnostics.isEmpty)
  }

  @Test func definitionsCmarkTakesCostNothing() {
    let tight = InputLimits(maxBrackets: 1)
    let definitions = [
      "[a]: /u \"t\"", "[b]: <d e> 't'", "[c]: /u(v) (t)", "[d]: <>", "[e]: /u\\(", "[f]:\t/u\t\"t \\\" u\"  ",
      "[g]: /u \"multi", "line\"",
    ]
    #expect(guarded(definitions.joined(separator: "\n") + "\n", tight).diagnostics.isEmpty)
    // What they define is what cmark-gfm defines.
    let uses = "\n\n[a] [b] [c] [d] [e] [f] [g]\n"
    let text = definitions.joined(separator: "\n") + uses
    #expect(HTMLRenderer().render(MarkdownDocument(text)).components(separatedBy: "<a href").count == 8)
  }

  @Test func aLabelAfterTextInAParagraphIsAReference() {
    let definition = "\n[x]: u" + String(repeating: "a", count: 24_800) + "\n"
    let afterText = "x]: u\n" + String(repeating: "[x]: u\n", count: 330) + definition
    let result = guarded(afterText, .default)
    #expect(result.diagnostics.map(\.kind) == [.referenceExpansion])
    let html = HTMLRenderer().render(MarkdownDocument(afterText))
    #expect(html.utf8.count <= 64 * afterText.utf8.count + (4 << 20), "\(html.utf8.count) bytes of HTML")
    // Tight brackets: labels at a paragraph's start (and after a title line) are not openers.
    let tight = InputLimits(maxBrackets: 1)
    #expect(guarded("[a]: /u\n[b]: /v\n  \"t\"\n[c]: /w\n[d]: /x\n", tight).diagnostics.isEmpty)
    #expect(guarded("a\n[b]: /v\n[c]: /w\n", tight).diagnostics.map(\.kind) == [.brackets])
    #expect(guarded("[a]: /u\nb\n[c]: /w\n[d]: /x\n", tight).diagnostics.map(\.kind) == [.brackets])
  }

  /// A run of definitions, one per line, is that many short definitions, not one long one: taken
  /// for one (a title might follow on the next line), 50 definitions of 1 KB made every `[` cost
  /// 50 KB, and half the links of a 50 KB reply were escaped. A title on the next line still
  /// counts that line.
  @Test func definitionsOnTheirOwnLinesCostTheirOwnLength() {
    let definitions = (0..<50).map { "[r\($0)]: /" + String(repeating: "u", count: 1000) + "\($0)\n" }.joined()
    let text = definitions + "\n" + (0..<50).map { "[r\($0)]" }.joined(separator: " ") + "\n"
    #expect(guarded(text, .default).diagnostics.isEmpty)
    let short =
      (0..<300).map { "[r\($0)]: /\($0 % 10)\n" }.joined() + "\n" + (0..<300).map { "[r\($0)]" }.joined(separator: " ")
    #expect(guarded(short, .default).diagnostics.isEmpty)
    // Titles on the next lines: each definition may run on, and the budget counts the run.
    let titled = (0..<50).map { "[r\($0)]: /" + String(repeating: "u", count: 1000) + "\n  \"t\"\n" }.joined()
    let uses = "\n" + (0..<50).map { "[r\($0)]" }.joined(separator: " ") + "\n"
    #expect(
      guarded(titled + uses, InputLimits(maxReferenceExpansionBytes: 0)).diagnostics.map(\.kind) == [
        .referenceExpansion
      ])
  }

  @Test func fencedCodeIsNotGuarded() {
    let code = "```\n" + String(repeating: "> ", count: 10) + "*a* *b* [c]\n```\n"
    let limits = InputLimits(maxNestingDepth: 2, maxDelimiterRuns: 1, maxBrackets: 0)
    #expect(guarded(code, limits).diagnostics.isEmpty)
    // But a fence inside a possible HTML block is not believed.
    #expect(!guarded("<div>\n```\n*a* *b*\n", limits).diagnostics.isEmpty)
  }

  /// Found by `replykit fuzz --seed 1220`: a fence opened one space in holds an unindented line
  /// (cmark-gfm keeps it in the code). The guard took that line for the end of the fence and the
  /// closing fence for an opener, so the delimiter-like lines after it went unguarded: 40 KB took
  /// 20 s and 4.9 GB to parse. Outside list items and footnote definitions a fence now ends only
  /// at its closing fence; inside them, a line indented less than the item still ends it.
  @Test func aFenceOutsideContainersEndsOnlyAtItsClosingFence() {
    let limits = InputLimits(maxBrackets: 0)
    let rows = String(repeating: "|-|\n|-|-|\n", count: 700)
    let text = " ```\naaa\n```\n" + rows
    #expect(guarded(text, .default).diagnostics.map(\.kind) == [.tableHeaderScan])
    // The unindented line stays code, unguarded; text after the closing fence is guarded.
    #expect(guarded(" ```\n[a\n```\n", limits).diagnostics.isEmpty)
    #expect(guarded(" ```\n[a\n```\n[b\n", limits).diagnostics.map(\.kind) == [.brackets])
    // In a list item, a line indented less than the item ends the item and the fence with it:
    // the `[a` is paragraph text, and the closing fence opens a new fence.
    #expect(guarded("- x\n  ```\n[a\n```\n[b\n", limits).diagnostics.map(\.kind) == [.brackets])
    #expect(guarded("- x\n  ```\n[a\n```\n[b\n", limits).text.contains("\\[a"))
    #expect(!guarded("- x\n  ```\n[a\n```\n[b\n", limits).text.contains("\\[b"))
    // After a blank line and an unindented paragraph the list is over.
    #expect(guarded("- x\n\ny\n ```\n[a\n```\n", limits).diagnostics.isEmpty)
  }

  @Test func theGuardIsDeterministic() {
    let text = String(repeating: "*a **a ", count: 2000) + String(repeating: "[", count: 900) + "\n"
    let first = InputGuard.apply(text)
    #expect(first == InputGuard.apply(text))
    #expect(!first.diagnostics.isEmpty)
  }

  @Test func diagnosticsDescribeThemselves() {
    let diagnostic = MarkdownDiagnostic(kind: .tableColumns, line: 3, count: 1, limit: 128)
    #expect(diagnostic.description == "line 3: table too wide (limit 128); 1 place rendered as literal text")
  }

  @Test func negativeLimitsActAsZero() {
    let negative = InputLimits(
      maxNestingDepth: -1, maxDelimiterRuns: -5, maxDelimiterRunLength: -1, maxBrackets: -1,
      maxUnclosedHTMLOpeners: -1, maxAutolinkScanBytes: -1, maxTableColumns: -1, maxTableCells: -1,
      maxTableHeaderScan: -1, maxReferenceExpansionBytes: -1)
    let zero = InputLimits(
      maxNestingDepth: 0, maxDelimiterRuns: 0, maxDelimiterRunLength: 0, maxBrackets: 0, maxUnclosedHTMLOpeners: 0,
      maxAutolinkScanBytes: 0, maxTableColumns: 0, maxTableCells: 0, maxTableHeaderScan: 0,
      maxReferenceExpansionBytes: 0)
    let text = "> - *a* [b](c) www.example.com <?x\n\n| a |\n|---|\n| 1 |\n"
    let guarded = InputGuard.apply(text, limits: negative)
    #expect(guarded.text == InputGuard.apply(text, limits: zero).text)
    #expect(!guarded.diagnostics.isEmpty)
    #expect(MarkdownDocument(text, limits: negative).nodes.count > 1)
  }
}
