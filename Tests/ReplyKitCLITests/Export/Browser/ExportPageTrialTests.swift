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

  /// The script rebuilds day separators and times in the reader's time zone, but never with year
  /// 0 or 10000 (then in UTC, as the page prints them) and never years 1–99 as 1901–1999.
  @Test(arguments: [
    ("0001-01-01T05:00:00Z", "America/Los_Angeles", "0001-01-01", "January 1, 1"),
    ("9999-12-31T23:00:00Z", "Pacific/Kiritimati", "9999-12-31", "December 31, 9999"),
    ("0001-01-01T05:00:00Z", "Asia/Tokyo", "0001-01-01", "January 1, 1"),
    ("0099-06-30T22:00:00Z", "Asia/Tokyo", "0099-07-01", "July 1, 99"),
  ])
  func daysAtTheEndsOfTheYearsInTheReadersZone(date: String, zone: String, day: String, title: String) throws {
    let thread = ExportFixtures.archive([
      ("user", "Hello", date, "complete", nil, nil), ("assistant", "Hi", date, "complete", nil, nil),
    ])
    try B.withPage(thread, emulation: [("Emulation.setTimezoneOverride", ["timezoneId": zone])]) {
      (browser, _) throws in
      #expect(try browser.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") as? String == zone)
      let headings = try B.strings(
        browser,
        "[...document.querySelectorAll('h2.day time')].map(t => t.getAttribute('datetime') + ' ' + t.textContent)")
      #expect(headings == ["\(day) \(title)"])
      let titles = try B.strings(browser, "[...document.querySelectorAll('.stamp')].map(s => s.title)")
      #expect(titles.count == 2 && titles.allSatisfy { $0.contains(title + " at ") }, "\(titles)")
    }
  }
}
