import Testing

@testable import ReplyMarkdown

/// ``ANSIOptions/numbersCodeBlocks``: each code block's label names its number in the document,
/// nested blocks too, and output without the option is unchanged.
@Suite struct ANSICodeBlockNumberTests {
  static let reply = """
    Run:

    ```sh
    ls -l
    ```

    1. Then:

       ```
       pwd
       ```

    > ```swift
    > print(1)
    > ```
    """

  static func numbered() -> ANSIRenderer {
    var options = ANSIOptions(width: 40)
    options.numbersCodeBlocks = true
    return ANSIRenderer(options: options)
  }

  @Test func labelsNameEachBlocksNumberInDocumentOrder() {
    let lines = Self.numbered().renderLines(MarkdownDocument(Self.reply))
    #expect(
      lines == [
        "Run:", "", "sh · code 1", "│ ls -l", "", "1. Then:", "", "   code 2", "   │ pwd", "", "┃ swift · code 3",
        "┃ │ print(1)",
      ])
    #expect(PlainTextRenderer.codeBlocks(in: MarkdownDocument(Self.reply)).map(\.code) == ["ls -l", "pwd", "print(1)"])
  }

  @Test func oneTopLevelBlockKeepsTheNumbersOfTheWholeDocument() {
    let document = MarkdownDocument(Self.reply)
    let renderer = Self.numbered()
    let blocks = Array(document.topLevelBlocks)
    let joined = blocks.map { renderer.renderLines(document, topLevelBlock: $0) }
    #expect(joined.flatMap { $0 + [""] }.dropLast() == renderer.renderLines(document)[...])
  }

  @Test func withoutTheOptionOutputIsUnchanged() {
    let lines = ANSIRenderer(options: ANSIOptions(width: 40)).renderLines(MarkdownDocument(Self.reply))
    #expect(lines.contains("sh"))
    #expect(lines.contains("   │ pwd"))
    #expect(!lines.contains { $0.contains("code 2") })
    #expect(ANSIOptions(width: 40) != Self.numbered().options)
  }
}
