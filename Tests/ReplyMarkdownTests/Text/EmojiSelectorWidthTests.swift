import Testing

@testable import ReplyMarkdown

/// U+FE0F asks for an emoji's emoji presentation, two columns; after a space or a letter it
/// changes nothing. Counted as two anywhere, a table cell starting with it measured one column
/// less than its line, which then passed the width (fuzz seed 1271).
@Suite struct EmojiSelectorWidthTests {
  @Test(arguments: [
    (" \u{FE0F}", 1), ("a\u{FE0F}", 1), ("\u{FE0F}", 0), ("\u{2764}\u{FE0F}", 2), ("\u{263A}\u{FE0F}", 2),
    ("1\u{FE0F}\u{20E3}", 2), ("\u{1F600}", 2), ("\u{1F1E9}\u{1F1EA}", 2),
  ])
  func theSelectorWidensOnlyAnEmoji(text: String, columns: Int) {
    #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  @Test func aTableCellStartingWithTheSelectorFitsTheWidth() {
    let document = MarkdownDocument("|-|\n|-|\n| \u{FE0F} — you https://p |\n")
    for width in 20...40 {
      let lines = ANSIRenderer(options: ANSIOptions(width: width, color: false, hyperlinks: false)).renderLines(
        document)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "width \(width): \(lines)")
    }
  }
}
