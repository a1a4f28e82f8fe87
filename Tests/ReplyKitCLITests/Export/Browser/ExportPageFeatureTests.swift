import Foundation
import Testing

/// The share-page features of issue 17 in headless Chromium: an anchor per message with Copy link
/// and its time on hover, Copy on the person's turns, "Copy as markdown", "Copy conversation",
/// "Download .md", the header, and highlighted code, light and dark, at 390 and 1280 px.
@Suite(
  .serialized, .timeLimit(.minutes(3)), .enabled(if: HeadlessChromium.isAvailable, ExportPageBrowser.needsChromium))
struct ExportPageFeatureTests {
  private typealias B = ExportPageBrowser

  static let userText = "How do I read a file in Swift? <b>not bold</b> & \"quoted\""
  static let replyText = """
    Use **`String(contentsOf:)`**:

    ```swift
    let text = try String(contentsOf: url, encoding: .utf8)
    ```

    | call | throws |
    |---|---|
    | `contentsOf` | yes |
    """

  /// A short thread whose file records its model.
  static var thread: String {
    let archive = ExportFixtures.archive([
      ("user", userText, "2024-03-01T09:00:00Z", "complete", nil, nil),
      ("assistant", replyText, "2024-03-01T09:00:05Z", "complete", nil, "good"),
      ("user", "Thanks", "2024-03-02T10:00:00Z", "complete", nil, nil),
      (
        "assistant", "You're welcome.\n\n```python\nprint('hi')  # done\n```", "2024-03-02T10:00:04Z", "stopped", nil,
        nil
      ),
    ])
    return "{\"model\": \"gpt-4o-mini\"," + archive.dropFirst()
  }

  /// Each message has its anchor; its time shows when the pointer is over it; Copy link copies
  /// the page's address with the anchor; a page opened at an anchor deep in a long thread shows
  /// that message.
  @Test func anchorsCopyLinkAndTimeOnHover() throws {
    try B.withPage(Self.thread, browserArguments: B.mouse) { (browser, page) throws in
      let ids = try B.strings(browser, "[...document.querySelectorAll('article.turn')].map(a => a.id)")
      #expect(ids == (1...4).map { "m-00000000-0000-4000-8000-" + String(format: "%012d", $0) })
      let stamp = "article[data-i='1'] .stamp"
      #expect(try browser.evaluate("matchMedia('(hover: hover)').matches") as? Bool == true)
      try B.hover(browser, ".page-head h1")
      try B.pause(browser, 300)
      #expect(try B.number(browser, "Number(getComputedStyle(document.querySelector(\"\(stamp)\")).opacity)") == 0)
      try B.hover(browser, "article[data-i='1'] .reply")
      try B.pause(browser, 300)
      #expect(try B.number(browser, "Number(getComputedStyle(document.querySelector(\"\(stamp)\")).opacity)") == 1)
      #expect(
        try browser.evaluate("document.querySelector(\"\(stamp)\").textContent.replace(/\\s/g, ' ')") as? String
          == "9:00 AM")
      #expect(
        (try browser.evaluate("document.querySelector(\"\(stamp)\").title") as? String)?.contains("March 1, 2024")
          == true)
      #expect(
        try browser.evaluate("document.querySelector(\"\(stamp)\").getAttribute('href')") as? String
          == "#m-00000000-0000-4000-8000-000000000002")
      try browser.click("article[data-i='1'] button[data-action='link']")
      try browser.waitUntil(
        "document.querySelector(\"article[data-i='1'] button[data-action='link']\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == page.absoluteString + "#m-00000000-0000-4000-8000-000000000002")
    }
    try B.withPage(
      ExportLongThread.archive(count: 1000), height: 800, fragment: "m-00000000-0000-4000-8000-000000000701"
    ) {
      (browser, _) throws in
      let shown =
        "(() => { const r = document.getElementById('m-00000000-0000-4000-8000-000000000701').getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight / 2; })()"
      try browser.waitUntil(shown)
      try B.pause(browser, 800)
      #expect(try browser.evaluate(shown) as? Bool == true, "still there once the page settled")
      #expect(try browser.evaluate("document.querySelector(':target').dataset.i") as? String == "700")
    }
  }

  /// Copy on the person's turn, "Copy as markdown" on a reply, "Copy conversation" and
  /// "Download .md" give exactly the texts: the typed text, the reply's markdown, and what
  /// `replykit export --to markdown` writes.
  @Test func copyTextsAndDownload() throws {
    let markdown = try CLIRunner.run(
      ["export", "-", "--to", "markdown"], input: Self.thread, environment: ["TZ": "UTC", "LANG": "en_US.UTF-8"]
    ).stdout
    #expect(markdown.hasPrefix("## March 1, 2024\n\n**You**\n\n> How do I read"))
    try B.withPage(Self.thread) { (browser, _) throws in
      let userCopy = "article[data-i='0'] button[data-action='copy']"
      try browser.click(userCopy)
      try browser.waitUntil("document.querySelector(\"\(userCopy)\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == Self.userText)

      let markdownCopy = "article[data-i='1'] button[data-action='markdown']"
      try browser.click(markdownCopy)
      try browser.waitUntil("document.querySelector(\"\(markdownCopy)\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == Self.replyText)

      let all = ".page-actions button[data-action='copy-all']"
      try browser.click(all)
      try browser.waitUntil("document.querySelector(\"\(all)\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == markdown)

      let downloads = try ExportFixtures.directory()
      defer { try? FileManager.default.removeItem(at: downloads) }
      try browser.send(
        "Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": downloads.path], toPage: false)
      try browser.click(".page-actions button[data-action='download']")
      let file = downloads.appendingPathComponent("how-do-i-read-a-file-in-swift-b-not-bold-b-quoted.md")
      // Chromium writes a partial file first and renames it when done; on a loaded machine that
      // took more than 10 s once (the full suite beside other work): wait for the file alone.
      let deadline = Date().addingTimeInterval(30)
      while (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) != [file.lastPathComponent]
        && Date() < deadline
      {
        usleep(100_000)
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: downloads.path) == [file.lastPathComponent])
      #expect(try String(contentsOf: file, encoding: .utf8) == markdown)
    }
  }

  /// The header says when the page was exported and which model the thread records.
  @Test func headerShowsExportDateAndModel() throws {
    try B.withPage(Self.thread) { (browser, _) throws in
      let datetime =
        try browser.evaluate("document.querySelector('.page-meta time').getAttribute('datetime')") as? String
      #expect(datetime?.hasPrefix(String(ExportFixtures.iso(Date()).prefix(10))) == true, "\(datetime ?? "")")
      #expect(
        try browser.evaluate("document.querySelector('.page-meta .model').textContent") as? String
          == "Model: gpt-4o-mini")
      #expect(
        try browser.evaluate("document.querySelector('.page-meta .count').textContent") as? String == "4 messages")
    }
    try B.withPage(ExportFixtures.archive([("user", "Hi", "2024-03-01T09:00:00Z", "complete", nil, nil)])) {
      (browser, _) throws in
      #expect(try B.number(browser, "document.querySelectorAll('.page-meta .model').length") == 0)
    }
  }

  /// Code is highlighted in both schemes within the page's CSP: keyword colours differ between
  /// light and dark, read well on the code frame, and printing uses the light ones;
  /// `--highlight never` leaves the code plain.
  @Test func highlightedCodeInLightAndDark() throws {
    let keyword = "getComputedStyle(document.querySelector(\"article[data-i='1'] .code .hl-keyword\")).color"
    let frame = "getComputedStyle(document.querySelector(\"article[data-i='1'] .code\")).backgroundColor"
    let page = "getComputedStyle(document.body).backgroundColor"
    try B.withPage(Self.thread) { (browser, _) throws in
      #expect(try B.number(browser, "document.querySelectorAll('.code [class^=\"hl-\"]').length") >= 5)
      var colours: [String: String] = [:]
      for scheme in ["light", "dark"] {
        try B.scheme(browser, scheme)
        colours[scheme] = try browser.evaluate(keyword) as? String
        // The frame is translucent over the page: the keyword must read on the page's colour.
        #expect(try B.number(browser, B.colours("contrast(\(keyword), \(page))")) >= 3, "\(scheme)")
        #expect(try B.number(browser, B.colours("alpha(\(frame))")) < 1)
      }
      #expect(colours["light"] != nil && colours["light"] != colours["dark"])
      try B.scheme(browser, "dark", print: true)
      #expect(try browser.evaluate(keyword) as? String == colours["light"], "paper gets the light colours")
      #expect(try browser.evaluate("window.__violations.join('; ')") as? String == "")
    }
    try B.withPage(Self.thread, arguments: ["--highlight", "never"]) { (browser, _) throws in
      #expect(try B.number(browser, "document.querySelectorAll('[class^=\"hl-\"]').length") == 0)
      #expect(try browser.evaluate("window.__violations.join('; ')") as? String == "")
    }
  }

  /// Light and dark at 390 and 1280 px: the page never scrolls sideways, the header and its
  /// buttons fit, text reads on its background, and the screenshots are written for review
  /// (`.build/export-screens/share-*.png`); the two schemes' screenshots differ.
  @Test func worksInBothSchemesAtPhoneAndDesktopWidths() throws {
    let screens = ExportFixtures.packageRoot.appendingPathComponent(".build/export-screens")
    try FileManager.default.createDirectory(at: screens, withIntermediateDirectories: true)
    try B.withPage(Self.thread) { (browser, _) throws in
      for width in [390, 1280] {
        var shots: [Data] = []
        for scheme in ["light", "dark"] {
          try B.scheme(browser, scheme)
          try browser.resize(width: width, height: 1000)
          #expect(try browser.evaluate("document.documentElement.scrollWidth <= innerWidth") as? Bool == true)
          let fits = try browser.evaluate(
            "[...document.querySelectorAll('.page-actions button, .page-head h1, article .bubble, article .reply')].every(e => { const r = e.getBoundingClientRect(); return !e.hidden && r.width > 0 && r.left >= 0 && r.right <= innerWidth; })"
          )
          #expect(fits as? Bool == true, "\(scheme) \(width)")
          for element in [".bubble", ".reply p", ".page-meta", ".head-act"] {
            let ratio = try B.number(
              browser,
              B.colours(
                "contrast(getComputedStyle(document.querySelector('\(element)')).color, getComputedStyle(document.body).backgroundColor)"
              ))
            #expect(ratio >= 4.5, "\(element) \(scheme) \(width): \(ratio)")
          }
          let png = try browser.screenshot()
          try png.write(to: screens.appendingPathComponent("share-\(width)-\(scheme).png"))
          shots.append(png)
        }
        #expect(shots.count == 2 && shots[0] != shots[1])
      }
    }
  }
}
