import Foundation
import Testing

/// The exported page in a real browser (headless Chromium): the DOM after the script ran, Copy
/// on a real clipboard, screenshots for review and script injection.
///
/// Serialized: at most one Chromium at a time on a two-core machine. Without Chromium every test
/// fails with the reason (never skips).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ThreadPageBrowserTests {
  /// `--dump-dom` after the page's script ran: seven turns labelled You and Assistant, and the
  /// separators recomputed in the browser (Today and Yesterday, not the printed dates).
  @Test func domHasTurnsLabelsAndSeparators() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try ExportFixtures.exportPage(ExportFixtures.conversation(), in: directory)
    let dom = try HeadlessChromium.dumpDOM(page)

    #expect(dom.contains("<html lang=\"en\" data-ready=\"\">"), "the page's own script ran under its CSP")
    let labels = matches(
      #"<article class="turn turn-(?:you|assistant)" id="m-[0-9a-f-]{36}" aria-label="([^"]+)""#, in: dom)
    #expect(labels == ["You", "Assistant", "You", "Assistant", "You", "Assistant", "Assistant"])
    let separators = matches(#"<h2 class="day"><time datetime="[0-9-]{10}">([^<]*)</time></h2>"#, in: dom)
    #expect(separators == ["February 29, 2024", "Yesterday", "Today"])
    #expect(dom.contains("Stopped</p>"))
    #expect(dom.contains("The network connection was lost."))
    #expect(dom.contains("And in Python? &lt;b&gt;not bold&lt;/b&gt; &amp; \"quoted\""))
    #expect(dom.contains("<span class=\"code-lang\">swift</span>"))
    #expect(!dom.contains("data-action=\"copy\" data-code=\"0\" aria-label=\"Copy code\" hidden"), "Copy buttons shown")
  }

  /// The separators are in the reader's time zone and the page's language: exported in UTC (two
  /// printed days), read in New York by a German browser, 23:30 and 00:10 UTC are one evening,
  /// and the words stay the page's English ("Today").
  @Test func separatorsFollowTheReadersTimeZoneAndLanguage() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let thread = ExportFixtures.archive([
      ("user", "Late question", "2024-03-01T23:30:00Z", "complete", nil, nil),
      ("assistant", "Answer after midnight UTC", "2024-03-02T00:10:00Z", "complete", nil, nil),
      ("user", "And today?", ExportFixtures.iso(Date().addingTimeInterval(5)), "complete", nil, nil),
    ])
    let page = try ExportFixtures.exportPage(thread, in: directory)
    let printed = try String(contentsOf: page, encoding: .utf8)
    #expect(printed.contains(">March 1, 2024</time></h2>") && printed.contains(">March 2, 2024</time></h2>"))
    let browser = try DevToolsSession()
    defer { browser.close() }
    try browser.open(
      page,
      emulation: [
        ("Emulation.setTimezoneOverride", ["timezoneId": "America/New_York"]),
        ("Emulation.setLocaleOverride", ["locale": "de-DE"]),
        (
          "Emulation.setUserAgentOverride", ["userAgent": "Mozilla/5.0 (X11; Linux x86_64)", "acceptLanguage": "de-DE"]
        ),
      ])
    let separators = try browser.evaluate("[...document.querySelectorAll('h2.day')].map(h => h.textContent)")
    #expect(separators as? [String] == ["March 1, 2024", "Today"])
  }

  /// Real mouse clicks on the Copy buttons put exactly the code, or the reply's plain text, on
  /// the clipboard, and the button reads "Copied" for a moment.
  @Test func copyPutsExactlyTheCodeOnTheClipboard() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try ExportFixtures.exportPage(ExportFixtures.conversation(), in: directory)
    let browser = try DevToolsSession()
    defer { browser.close() }
    // Records any resource or inline code the page's CSP blocked: there must be none.
    try browser.open(
      page,
      beforeLoad:
        "window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )

    let firstCode = "article[data-i='1'] .code-copy"
    #expect(try browser.evaluate("document.querySelector(\"\(firstCode)\").textContent") as? String == "Copy")
    try browser.click(firstCode)
    try browser.waitUntil("document.querySelector(\"\(firstCode)\").textContent === 'Copied'")
    #expect(try browser.clipboardText() == ExportFixtures.swiftCode)
    let screens = ExportFixtures.packageRoot.appendingPathComponent(".build/export-screens")
    try FileManager.default.createDirectory(at: screens, withIntermediateDirectories: true)
    try browser.screenshot().write(to: screens.appendingPathComponent("thread-1280-light-copied.png"))
    #expect(try browser.evaluate("document.getElementById('rk-live').textContent") as? String == "Copied")
    try browser.waitUntil("document.querySelector(\"\(firstCode)\").textContent === 'Copy'", timeout: 4)

    let replyCopy = "article[data-i='1'] .actions button[data-action='copy']"
    try browser.click(replyCopy)
    try browser.waitUntil("document.querySelector(\"\(replyCopy)\").classList.contains('is-done')")
    let plain = try CLIRunner.run(["render", "--to", "plain"], input: ExportFixtures.firstReply).stdout
    #expect(try browser.clipboardText() == String(plain.dropLast()))
    #expect(
      try browser.evaluate("document.querySelector(\"\(replyCopy) .act-label\").textContent") as? String == "Copied")

    // Share: the Web Share API where present, else copy (headless Linux Chromium has no share sheet).
    let hasShare = try browser.evaluate("typeof navigator.share === 'function'") as? Bool ?? false
    if !hasShare {
      _ = try browser.evaluate("navigator.clipboard.writeText('before')")
      try browser.click("article[data-i='3'] .actions button[data-action='share']")
      try browser.waitUntil(
        "document.querySelector(\"article[data-i='3'] button[data-action='share']\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == "Sure, here is the start:\n\nprint(\"hi\")\n\nAnd then")
    }

    // The long line scrolls sideways at phone width instead of wrapping.
    try browser.resize(width: 390, height: 900)
    let scrolls = try browser.evaluate(
      "(() => { const p = document.querySelector(\"article[data-i='6'] pre\"); return p.scrollWidth > p.clientWidth && getComputedStyle(p).whiteSpace === 'pre'; })()"
    )
    #expect(scrolls as? Bool == true)

    // The ratings as stored, as text: reply 1 good, reply 6 bad; the others none.
    #expect(
      try browser.evaluate("document.querySelector('article[data-i=\"1\"] .rating').textContent") as? String
        == "Rated good")
    #expect(
      try browser.evaluate("document.querySelector('article[data-i=\"6\"] .rating').textContent") as? String
        == "Rated bad")
    #expect(try browser.evaluate("document.querySelectorAll('.rating').length") as? Int == 2)
    #expect(try browser.evaluate("window.__violations.join('; ')") as? String == "")
  }

  /// Text follows the browser's font size; reduced motion turns the appearance into a fade; dark
  /// scheme colours; then the four screenshots under `.build/export-screens/`.
  @Test func scalesAdaptsAndWritesScreenshots() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try ExportFixtures.exportPage(ExportFixtures.conversation(), in: directory)
    let browser = try DevToolsSession()
    defer { browser.close() }
    try browser.open(page)

    let bodySize = "parseFloat(getComputedStyle(document.querySelector('.bubble')).fontSize)"
    let codeSize = "parseFloat(getComputedStyle(document.querySelector('.code pre')).fontSize)"
    #expect(try browser.evaluate(bodySize) as? Double == 17)
    #expect(try browser.evaluate(codeSize) as? Double == 13)
    try browser.send("Page.setFontSizes", ["fontSizes": ["standard": 32, "fixed": 26]])
    #expect(try browser.evaluate(bodySize) as? Double == 34)
    #expect(try browser.evaluate(codeSize) as? Double == 26)
    try browser.send("Page.setFontSizes", ["fontSizes": ["standard": 16, "fixed": 13]])

    // The last turns appear with motion; earlier ones are still (thousands of animations cost more
    // than they show).
    let animation = "getComputedStyle(document.querySelector('article.turn[data-recent]')).animationName"
    #expect(try browser.evaluate(animation) as? String == "rk-appear")
    #expect(
      try browser.evaluate("getComputedStyle(document.querySelector('article.turn')).animationName") as? String
        == "none")
    try browser.send(
      "Emulation.setEmulatedMedia", ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]])
    #expect(try browser.evaluate(animation) as? String == "rk-fade")

    let screens = ExportFixtures.packageRoot.appendingPathComponent(".build/export-screens")
    try FileManager.default.createDirectory(at: screens, withIntermediateDirectories: true)
    for scheme in ["light", "dark"] {
      try browser.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
      let background = try browser.evaluate("getComputedStyle(document.body).backgroundColor") as? String
      #expect(background == (scheme == "dark" ? "rgb(18, 18, 20)" : "rgb(255, 255, 255)"))
      for width in [390, 1280] {
        try browser.resize(width: width, height: 1200)
        // Changing the media restarts the turns' fade; screenshot() shoots the settled page.
        let png = try browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        try png.write(to: screens.appendingPathComponent("thread-\(width)-\(scheme).png"))
      }
    }
  }

  /// No way of writing a turn runs script: the safe rendering alone (CSP removed in a test copy)
  /// and the page as exported (with its CSP).
  @Test func repliesExecuteNothing() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try ExportFixtures.exportPage(ExportFixtures.hostile(), in: directory)
    let html = try String(contentsOf: page, encoding: .utf8)
    let withoutCSP = directory.appendingPathComponent("no-csp.html")
    let stripped = html.replacingOccurrences(
      of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
    #expect(stripped != html)
    try Data(stripped.utf8).write(to: withoutCSP)

    for url in [withoutCSP, page] {
      let browser = try DevToolsSession()
      defer { browser.close() }
      try browser.open(url)
      // Hover and click everywhere a handler could hide.
      try browser.click("article[data-i='1'] .reply")
      _ = try browser.evaluate("new Promise(r => setTimeout(r, 300))")
      #expect(
        try browser.evaluate("document.documentElement.getAttribute('data-pwned')") == nil, "\(url.lastPathComponent)")
      #expect(
        try browser.evaluate(
          "document.querySelectorAll('.reply script, .reply iframe, .reply svg:not(.glyph), .reply svg.glyph > :not(use), .reply [onerror], .reply [onload], .reply [onmouseover], .reply [style]').length"
        ) as? Int == 0)
      #expect(try browser.evaluate("document.scripts.length") as? Int == 2, "only the data block and the page's script")
      #expect(
        try browser.evaluate("JSON.parse(document.getElementById('rk-data').textContent).turns.length") as? Int == 4)
      #expect(
        try browser.evaluate(
          "[...document.querySelectorAll('a[href]')].filter(a => !/^(https?:|#|$)/.test(a.getAttribute('href'))).length"
        ) as? Int == 0)
    }
  }

  private func matches(_ pattern: String, in text: String) -> [String] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
