import Testing

@testable import ReplyMarkdown

/// Brackets the source escapes (`\[`) or writes as entities (`&#91;`) open no pending link, while
/// the plain ones still do.
@Suite struct EscapedBracketsTests {
  @Test(arguments: [
    "The formula is\n\\[ E = mc^2 \\]\nwhere m is mass",
    "\\[not]",
    "an entity &#91;label&#93; and &lsqb;more&rsqb; here",
    "- item with \\[x\\] in it",
    "> a quote\n\\[on a lazy line]",
  ])
  func escapedBracketsShowAsText(text: String) {
    for (index, display) in StreamingHarness.htmlDisplays(text, finishing: false).enumerated() {
      #expect(!display.contains("data-pending"), "after \(String(text.prefix(index + 1)).debugDescription): \(display)")
    }
  }

  @Test(arguments: [
    ("a [link] and \\[esc] [b]", 2),
    ("\\\\[link] after an escaped backslash", 1),
    ("[one] \\[two] [three]", 2),
  ])
  func plainBracketsStillWait(text: String, pending: Int) {
    let last = StreamingHarness.htmlDisplays(text, finishing: false).last ?? ""
    #expect(last.components(separatedBy: "data-pending").count - 1 == pending, "\(last)")
  }

  @Test(
    arguments: [
      ("a \\[b] c", "a [b] c", "a \(Character(EscapedBrackets.open))b] c"),
      ("&#91;x&#x5D;", "[x]", "\(Character(EscapedBrackets.open))x\(Character(EscapedBrackets.close))"),
      ("\\\\[x]", "\\[x]", nil),
      ("[x]", "[x]", nil),
      ("\\[x]", "[x] [", nil),
    ] as [(String, String, String?)])
  func masksPairTheSourcesBrackets(written: String, literal: String, masked: String?) {
    #expect(EscapedBrackets.masked(literal, written: Array(written.utf8)[...]) == masked)
  }
}
