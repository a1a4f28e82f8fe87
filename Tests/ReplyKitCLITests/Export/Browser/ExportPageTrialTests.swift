import Foundation
import Testing

/// Faults a trial of `replykit export` found, each checked in headless Chromium on a page the
/// command wrote: Copy on a code block with control characters, and a malformed page address.
///
/// Serialized: at most one Chromium at a time on a two-core machine.
@Suite(
  .serialized, .timeLimit(.minutes(3)), .enabled(if: HeadlessChromium.isAvailable, ExportPageBrowser.needsChromium))
struct ExportPageTrialTests {
  private typealias B = ExportPageBrowser

  static let firstCode = "printf '\u{1B}[31mred\u{1B}[0m\u{7}'\necho \u{85}done\u{202E}"
  static let secondCode = "let bell = \"\u{7}\" // <b>&amp;</b>"

  /// Two replies with a code block each; the code holds control characters.
  static let thread = ExportFixtures.archive([
    ("user", "Colour in a shell?", "2024-03-01T09:00:00Z", "complete", nil, nil),
    ("assistant", "Like this:\n\n```sh\n\(firstCode)\n```", "2024-03-01T09:00:05Z", "complete", nil, nil),
    ("user", "And in Swift?", "2024-03-01T09:01:00Z", "complete", nil, nil),
    ("assistant", "```swift\n\(secondCode)\n```\n\nDone.", "2024-03-01T09:01:05Z", "complete", nil, nil),
  ])

  /// The code element shows control characters as symbols, but Copy on the code block copies the
  /// code as written, as the turn's Copy does (README: Copy and Download keep them).
  @Test func codeCopyGivesTheCodeAsWritten() throws {
    try B.withPage(Self.thread) { (browser, _) throws in
      let shown =
        try browser.evaluate("document.querySelector(\"article[data-i='1'] pre code\").textContent") as? String
      #expect(shown?.contains("\u{241B}[31mred") == true, "the page shows ESC as a symbol")
      for (index, code) in [(1, Self.firstCode), (3, Self.secondCode)] {
        let button = "article[data-i='\(index)'] .code-copy"
        try browser.click(button)
        try browser.waitUntil("document.querySelector(\"\(button)\").classList.contains('is-done')")
        #expect(try browser.clipboardText() == code)
      }
    }
  }

  /// A page opened at an address whose fragment is not valid percent-encoding still runs its
  /// script to the end (times, buttons, `data-ready`) instead of stopping on a URIError.
  @Test func aMalformedFragmentDoesNotStopTheScript() throws {
    try B.withPage(Self.thread) { (browser, page) throws in
      // Foundation's URL refuses such an address, so the page is loaded again by its text.
      try browser.send("Page.navigate", ["url": page.absoluteString + "?again#%E0%A4%A"])
      try browser.waitUntil("location.search === '?again' && document.readyState === 'complete'")
      #expect(try browser.evaluate("location.hash") as? String == "#%E0%A4%A")
      #expect(try browser.evaluate("document.documentElement.hasAttribute('data-ready')") as? Bool == true)
      #expect(try browser.evaluate("document.querySelector('.code-copy').hidden") as? Bool == false)
    }
  }
}
