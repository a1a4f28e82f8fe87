import Testing

@testable import ReplyMarkdown

/// The plain-text rules (what Copy and Share keep and drop) that the shared examples do not show,
/// one case each.
@Suite struct PlainTextRuleTests {
  func plain(_ markdown: String) -> String { PlainTextRenderer().render(MarkdownDocument(markdown)) }

  @Test func softBreakBetweenWideCharactersAddsNoSpace() {
    #expect(plain("中文\n段落 and\nEnglish 中\n文") == "中文段落 and English 中文")
  }

  /// A paragraph's last line of raw HTML only is omitted; the soft break before it put a space
  /// before the next block (a trial: `replykit stream --to plain` differed from `render` there).
  @Test func aSoftBreakBeforeOmittedHTMLEndsWithItsBlock() {
    #expect(plain("a\n<a>\n\nS") == "a\n\nS")
    #expect(plain("a\n<a>\n>a\n") == "a\n\n> a")
    #expect(plain("- a\n  <b>\n- c") == "• a\n• c")
    #expect(plain("a\n<a>\nb") == "a b")
  }

  /// A paragraph of inline HTML only (the tags omitted, spaces and line ends between them) writes
  /// no line, as a raw HTML block writes none: it was an empty line with blank lines around it,
  /// which the stream, rendering a unit at a time, could not tell from nothing (a trial:
  /// `replykit stream --to plain` of `<b> <i>`, a blank line and `z` lacked render's two leading
  /// newlines).
  @Test func aParagraphOfOmittedHTMLWritesNoLine() {
    #expect(plain("<b> <i>\n\nz") == "z")
    #expect(plain("a\n\n<b> <i>\n\nz") == "a\n\nz")
    #expect(plain("<b>\n<i> x") == "x")
    #expect(plain("<b> <![CDATA[]]>\n1. z") == "1. z")
    #expect(plain("- <b> <i>\n- x") == "•\n• x")
    // A code span of spaces is code: it stays (a review).
    #expect(plain("`  ` code") == "   code")
    // A first paragraph of a code span of spaces, trimmed at the line's end, leads with no blank
    // line (fuzz seed 1341: render started with two newlines the stream did not write).
    #expect(plain("``` ```\n\na") == "a")
    for text in [
      "<b> <i>\n\nz\n", "a\n\n<b> <i>\n\nz\n", "<b> <![CDATA[]]>\n1. z\n", "<b>\n<i>\n\n> q\n", "``` ```\n\na",
    ] {
      let oneShot = plain(text)
      for chunk in [1, 3, 20] {
        var stream = MarkdownStream()
        var consumer = MarkdownStreamPlainRenderer()
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
          consumer.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)]))
        }
        consumer.apply(stream.finish())
        #expect(consumer.text == oneShot, "\(text.debugDescription), \(chunk)-byte chunks")
      }
    }
  }

  /// A table that shows nothing (its header only omitted raw HTML) opened an empty line that the
  /// next block took for its own: its first line lost its prefix (a review: `- x` after such a
  /// table wrote `x`, then its bullet on the next line; an empty item lost its bullet, so the
  /// stream's plain text, which shows the item alone, differed from one-shot).
  @Test func aTableThatShowsNothingLeavesTheNextLinesPrefixes() {
    #expect(plain("<b>|\n-|\n\n- x\n") == "• x")
    #expect(plain("<b>|\n-|\n-\n") == "•")
    #expect(plain("<b>|\n-|\n-\n\nafter\n") == "•\n\nafter")
    #expect(plain("<b>|\n-|\n> q\n") == "> q")
  }

  @Test func listsUseBulletsByDepthRealNumbersAndTaskBoxes() {
    #expect(plain("- a\n  - b\n    - c\n      - d") == "• a\n  ◦ b\n    ▪ c\n      • d")
    #expect(plain("7) seven\n8) eight") == "7) seven\n8) eight")
    #expect(plain("- [ ] todo\n- [x] done") == "☐ todo\n☑ done")
    #expect(plain("1. [ ] one\n2. [x] two") == "1. ☐ one\n2. ☑ two")
    #expect(plain("-\n- x") == "•\n• x")
  }

  @Test func codeKeepsTrailingSpacesAndIndentsInsideItems() {
    let markdown = "- item:\n\n  ```python\n  def f():\n\n      return 1   \n  ```\n"
    #expect(plain(markdown) == "• item:\n\n  def f():\n\n      return 1   ")
    #expect(plain("> ```\n> a\n>\n> b\n> ```") == "> a\n>\n> b")
  }

  @Test func linksShowTheirURLOnlyWhenItAddsSomething() {
    #expect(plain("[docs](docs/readme.md)") == "docs")
    #expect(plain("[top](#top)") == "top")
    #expect(plain("[example.com](https://www.example.com/)") == "example.com")
    #expect(plain("[site](https://example.com/)") == "site (https://example.com/)")
    #expect(plain("<https://x.org> and www.foo.com") == "https://x.org and www.foo.com")
    #expect(plain("[write](mailto:a@b.c)") == "write (a@b.c)")
    #expect(plain("[ref]\n\n[ref]: https://r.example") == "ref (https://r.example)")
  }

  @Test func imagesShowAltAndURL() {
    #expect(plain("![](https://example.com/x.png)") == "https://example.com/x.png")
    #expect(plain("![a *b*](u.png)") == "a b (u.png)")
  }

  @Test func tablesAreTabSeparatedRowsWithoutSeparator() {
    #expect(plain("| a | b |\n|---|---|\n| 1 | x<br>y |") == "a\tb\n1\tx y")
  }

  @Test func thematicBreaksAndEmptyBlocksLeaveNoExtraLines() {
    #expect(plain("a\n\n---\n\nb") == "a\n\nb")
    #expect(plain("a\n\n<!-- c -->\n\nb") == "a\n\nb")
  }

  @Test func htmlBlocksKeepTheirTextWithEntitiesDecoded() {
    #expect(plain("<div>\n  <p>Hello &amp; <b>bye</b> &copy;</p>\n</div>\n\nafter") == "Hello & bye ©\n\nafter")
  }

  @Test func footnotesAreNumberedByFirstUseAndListedAtTheEnd() {
    let markdown = "Note[^b] and[^a] again[^b].\n\n[^a]: A.\n[^b]: B.\n"
    #expect(plain(markdown) == "Note[1] and[2] again[1].\n\n[1] B.\n[2] A.")
  }

  /// An empty footnote definition is still listed, as HTML lists it (it was dropped, and the blank
  /// line before the list with it).
  @Test func anEmptyFootnoteIsStillListed() {
    #expect(plain("Text[^1] and [^2].\n\n[^1]:\n\n[^2]: two\n") == "Text[1] and [2].\n\n[1]\n[2] two")
    #expect(plain("Only[^1].\n\n[^1]:\n") == "Only[1].\n\n[1]")
  }

  @Test func topLevelBlocksRenderOneByOne() {
    let document = MarkdownDocument("# Title\n\n- a\n- b\n")
    let blocks = document.topLevelBlocks.map { PlainTextRenderer().render(document, topLevelBlock: $0) }
    #expect(blocks == ["Title", "• a\n• b"])
  }

  @Test func codeBlockCopyTextIsJustTheCode() {
    let document = MarkdownDocument("text\n\n```swift\nlet a = 1\n\n```\n\n    indented\n")
    let blocks = PlainTextRenderer.codeBlocks(in: document)
    #expect(blocks.map(\.code) == ["let a = 1\n", "indented"])
    #expect(blocks.map(\.language) == ["swift", nil])
    #expect(blocks.map(\.info) == ["swift", ""])
    #expect(blocks.map { document.nodes[$0.nodeIndex].kind.isBlock } == [true, true])
  }

  @Test func copyPayloadOffersThreeFlavours() {
    let payload = CopyPayload(markdown: "**Hi** <b>x</b>")
    #expect(payload.plainText == "Hi x")
    #expect(payload.markdown == "**Hi** <b>x</b>")
    #expect(payload.html == "<p><strong>Hi</strong> <!-- raw HTML omitted -->x<!-- raw HTML omitted --></p>\n")
    let code = CopyPayload.codeBlock(.init(info: "sh", code: "echo ```\n", isFenced: true))
    #expect(code.plainText == "echo ```")
    #expect(code.markdown == "````sh\necho ```\n````")
  }

  @Test func deepNestingRendersOnASmallStackWithCappedIndentation() {
    let depth = 100_000
    let inputs = [String(repeating: "> ", count: depth) + "x\n", String(repeating: "- ", count: depth) + "x\n"]
    for markdown in inputs {
      let text = SmallStackThread.run { PlainTextRenderer().render(MarkdownDocument(markdown, limits: .unlimited)) }
      #expect(text.hasSuffix("x"))
      #expect(text.utf8.count < 200, "indentation must stop growing: \(text.utf8.count) bytes")
    }
  }
}
