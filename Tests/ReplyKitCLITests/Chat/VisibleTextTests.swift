import Testing

@testable import replykit

/// Text made safe to show: control characters as symbols, tabs as spaces.
@Suite(.timeLimit(.minutes(1)))
struct VisibleTextTests {
  @Test func controlsBecomeSymbolsAndTabsSpaces() {
    #expect(VisibleText.sanitize("a\tb\u{1B}c\u{7F}\n") == "a    b\u{241B}c\u{2421}\n")
  }

  /// A reply of code indented with tabs: each tab appended its spaces with `append(contentsOf:)`,
  /// which copies a scalar view whole, so sanitizing was quadratic in the tabs (two million took
  /// minutes). The limit guards against that, it does not measure speed.
  @Test func manyTabsStayLinear() {
    let text = String(repeating: "\tx", count: 2_000_000)
    let shown = VisibleText.sanitize(text)
    #expect(shown.utf8.count == 10_000_000)
    #expect(shown.hasPrefix("    x    x"))
  }
}
