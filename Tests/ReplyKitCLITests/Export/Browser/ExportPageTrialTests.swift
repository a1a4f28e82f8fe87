import Foundation
import Testing

/// Faults a trial of `replykit export` found, each checked in headless Chromium on a page the
/// command wrote: a malformed page address.
///
/// Serialized: at most one Chromium at a time on a two-core machine.
@Suite(
  .serialized, .timeLimit(.minutes(3)), .enabled(if: HeadlessChromium.isAvailable, ExportPageBrowser.needsChromium))
struct ExportPageTrialTests {
  private typealias B = ExportPageBrowser

  /// Two replies with a code block each; the code holds control characters.
  static let thread = ExportFixtures.archive([
    ("user", "Colour in a shell?", "2024-03-01T09:00:00Z", "complete", nil, nil),
    ("assistant", "Like this:\n\n```sh\nprintf '\u{1B}[31mred'\n```", "2024-03-01T09:00:05Z", "complete", nil, nil),
    ("user", "And in Swift?", "2024-03-01T09:01:00Z", "complete", nil, nil),
    ("assistant", "```swift\nlet bell = \"\u{7}\"\n```\n\nDone.", "2024-03-01T09:01:05Z", "complete", nil, nil),
  ])

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
