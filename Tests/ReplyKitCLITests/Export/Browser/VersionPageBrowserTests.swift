import Foundation
import Testing

/// The page of a thread with versions in headless Chromium: the marks under their turns, styled by
/// the page's one style sheet (allowed by its CSP), the other versions collapsed until opened, and
/// the day separators and Copy buttons on the shown turns only.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct VersionPageBrowserTests {
  private static func message(_ number: Int, _ role: String, _ text: String) -> String {
    let id = String(format: "00000000-0000-4000-8000-%012d", number)
    return
      #"{"id": "\#(id)", "role": "\#(role)", "text": "\#(text)", "date": "2025-06-01T10:00:00Z", "state": "complete"}"#
  }

  /// Your first turn edited (version 2 of 2 shows); the old one with its reply collapsed.
  private static let thread = """
    {"messages": [\(message(3, "user", "Edited question")), \(message(4, "assistant", "New **answer**"))],
     "versions": [{"parent": null, "version": 1,
                   "messages": [\(message(1, "user", "First question")), \(message(2, "assistant", "Old answer"))]}]}
    """

  @Test func marksAndCollapsedVersionsInTheBrowser() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("thread.json")
    try Data(Self.thread.utf8).write(to: input)
    let page = directory.appendingPathComponent("page.html")
    let result = try CLIRunner.run(
      ["export", input.path, "--all-versions", "-o", page.path], environment: ["TZ": "UTC", "LANG": "en_US.UTF-8"])
    #expect(result.status == 0, "\(result.stderr)")
    let browser = try DevToolsSession()
    defer { browser.close() }
    try browser.open(page)
    // The version rules apply (the style sheet is the one the CSP names): the mark sits right.
    let align = try browser.evaluate("getComputedStyle(document.querySelector('.turn-you .versions')).textAlign")
    #expect(align as? String == "right")
    let mark = try browser.evaluate("document.querySelector('.turn-you .versions-mark').textContent")
    #expect(mark as? String == "Version 2 of 2")
    // Collapsed until opened; then the old branch reads as it was.
    let visible = try browser.evaluate("document.querySelector('.version').checkVisibility()")
    #expect(visible as? Bool == false)
    _ = try browser.evaluate("document.querySelector('.versions details').open = true")
    #expect(try browser.evaluate("document.querySelector('.version').checkVisibility()") as? Bool == true)
    let old = try browser.evaluate("document.querySelector('.version').innerText")
    #expect((old as? String)?.contains("First question") == true && (old as? String)?.contains("Old answer") == true)
    // The script sees only the shown turns: one day separator, two turns.
    let turns = try browser.evaluate("document.querySelectorAll('article.turn').length")
    #expect(turns as? Int == 2)
    let days = try browser.evaluate("document.querySelectorAll('h2.day').length")
    #expect(days as? Int == 1)
  }
}
