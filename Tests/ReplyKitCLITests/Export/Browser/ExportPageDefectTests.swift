import Foundation
import Testing

/// The defects of issue 17, each checked in headless Chromium on a page `replykit export` wrote:
/// DOM, layout measurements and computed styles.
///
/// Serialized: at most one Chromium at a time on a two-core machine.
@Suite(
  .serialized, .timeLimit(.minutes(3)), .enabled(if: HeadlessChromium.isAvailable, ExportPageBrowser.needsChromium))
struct ExportPageDefectTests {
  private typealias B = ExportPageBrowser

  /// A thread with every construct the defects are about.
  static let thread = ExportFixtures.archive([
    ("user", "Compare the languages", "2024-03-01T09:00:00Z", "complete", nil, nil),
    (
      "assistant",
      """
      # Languages

      | Language | Typing discipline | Memory management strategy | Typical use | First released |
      |---|---|---|---|---|
      | Swift | static, inferred | automatic reference counting | apps on Apple platforms and servers | 2014 |
      | Rust | static, inferred | ownership and borrowing | systems programming everywhere | 2015 |

      See the note[^1]. A [bad link](javascript:alert(1)) and ![a remote chart](https://example.com/chart.png).

      - [x] done
      - [ ] open

      ```swift
      let sentence = "\(String(repeating: "a long line that must wrap on paper ", count: 6))"
      ```

      [^1]: The note of the first reply.
      """,
      "2024-03-01T09:00:05Z", "complete", nil, "good"
    ),
    ("user", "And the second?", "2024-03-01T09:01:00Z", "complete", nil, nil),
    (
      "assistant", "Its own note[^1].\n\n[^1]: The note of the second reply.", "2024-03-01T09:01:05Z", "complete", nil,
      nil
    ),
    ("assistant", "Half a reply", "2024-03-01T09:02:00Z", "streaming", nil, nil),
    (
      "assistant", "Some text before the failure", "2024-03-01T09:03:00Z", "failed", "The network connection was lost.",
      nil
    ),
    ("assistant", "Stopped here", "2024-03-01T09:04:00Z", "stopped", nil, nil),
  ])

  /// 1. One tap on Jump to latest reaches the end of a 1,000-message page and stays there, at
  /// phone and desktop widths.
  @Test(arguments: [390, 1280])
  func jumpToLatestReachesTheEndInOneTap(width: Int) throws {
    try B.withPage(ExportLongThread.archive(count: 1000), width: width, height: 800) { (browser, _) throws in
      #expect(try B.number(browser, "document.querySelectorAll('article.turn').length") == 1000)
      _ = try browser.evaluate("scrollTo(0, 0)")
      try browser.waitUntil("!document.querySelector('.jump').hidden")
      try browser.click(".jump")
      let atEnd =
        "(() => { const last = [...document.querySelectorAll('article.turn')].pop().getBoundingClientRect(); return last.bottom <= innerHeight + 1 && last.bottom > 0 && scrollY + innerHeight >= document.documentElement.scrollHeight - 2; })()"
      try browser.waitUntil(atEnd, timeout: 10)
      try B.pause(browser, 1500)
      #expect(try browser.evaluate(atEnd) as? Bool == true, "still at the end after the page settled")
      #expect(try browser.evaluate("document.querySelector('.jump').hidden") as? Bool == true)
    }
  }

  /// 2. A wide table on a phone keeps readable columns and scrolls sideways in its own box; the
  /// page itself never scrolls sideways.
  @Test func tablesOnAPhoneScrollInTheirOwnBox() throws {
    try B.withPage(Self.thread, width: 390) { (browser, _) throws in
      let widths =
        try browser.evaluate(
          "[...document.querySelectorAll('article[data-i=\"1\"] th')].map(c => c.getBoundingClientRect().width)")
        as? [Double] ?? []
      #expect(widths.count == 5)
      #expect(widths.allSatisfy { $0 >= 80 }, "\(widths)")
      #expect(widths.dropFirst().allSatisfy { $0 >= 112 }, "\(widths)")
      // A header line holds more than one word: no header is taller than three lines of its text.
      let tallest = try B.number(
        browser,
        "Math.max(...[...document.querySelectorAll('article[data-i=\"1\"] th')].map(c => (c.clientHeight - 12) / parseFloat(getComputedStyle(c).lineHeight)))"
      )
      #expect(tallest <= 3.01, "\(tallest) lines")
      let box = "document.querySelector('article[data-i=\"1\"] .table-scroll')"
      #expect(try browser.evaluate("\(box).scrollWidth > \(box).clientWidth") as? Bool == true)
      #expect(try browser.evaluate("getComputedStyle(\(box)).overflowX") as? String == "auto")
      #expect(try browser.evaluate("document.documentElement.scrollWidth <= innerWidth") as? Bool == true)
    }
  }

  /// 3. Line height is a ratio of each element's own font size.
  @Test func lineHeightFollowsTheFontSize() throws {
    try B.withPage(Self.thread, width: 1280) { (browser, _) throws in
      let ratios =
        try browser.evaluate(
          """
          ['.bubble', 'article[data-i="1"] p', 'article[data-i="1"] td', 'article[data-i="1"] h3', '.code pre', '.page-meta']
            .map(s => { const c = getComputedStyle(document.querySelector(s)); return parseFloat(c.lineHeight) / parseFloat(c.fontSize); })
          """) as? [Double] ?? []
      #expect(ratios.count == 6)
      #expect(ratios.allSatisfy { $0 >= 1.2 && $0 <= 1.6 }, "\(ratios)")
      // Doubling the font size doubles the line height of the 13 px table text.
      let cell = "parseFloat(getComputedStyle(document.querySelector('article[data-i=\"1\"] td')).lineHeight)"
      let before = try B.number(browser, cell)
      try browser.send("Page.setFontSizes", ["fontSizes": ["standard": 32, "fixed": 26]])
      #expect(abs(try B.number(browser, cell) - 2 * before) < 1)
    }
  }

  /// 4. Printing from a dark screen gives dark text on white paper, and tables and code wrap to a
  /// narrow page.
  @Test func printsInLightColoursWrappedToThePage() throws {
    try B.withPage(Self.thread, width: 500) { (browser, _) throws in
      try B.scheme(browser, "dark")
      #expect(try browser.evaluate("getComputedStyle(document.body).color") as? String == "rgb(242, 242, 245)")
      try B.scheme(browser, "dark", print: true)
      let colours =
        try browser.evaluate(
          B.colours(
            "[lum(getComputedStyle(document.body).color), lum(getComputedStyle(document.body).backgroundColor), lum(getComputedStyle(document.querySelector('.bubble')).color)]"
          )) as? [Double] ?? []
      #expect(colours.count == 3)
      #expect(
        colours.first ?? 1 < 0.05 && colours.dropFirst().first ?? 0 > 0.95 && colours.last ?? 1 < 0.05, "\(colours)")
      let fits =
        try browser.evaluate(
          """
          (() => { const reply = document.querySelector('article[data-i="1"] .reply').getBoundingClientRect();
            const table = document.querySelector('article[data-i="1"] table').getBoundingClientRect();
            const pre = document.querySelector('article[data-i="1"] pre');
            return [table.right <= reply.right + 1, pre.scrollWidth <= pre.clientWidth + 1, getComputedStyle(pre).whiteSpace]; })()
          """) as? [Any] ?? []
      #expect(fits.count == 3 && fits[0] as? Bool == true && fits[1] as? Bool == true, "\(fits)")
      #expect(fits.last as? String == "pre-wrap")
      #expect(try browser.evaluate("getComputedStyle(document.querySelector('.jump')).display") as? String == "none")
    }
  }

  /// 5. Footnote ids are scoped per message: ids are unique on the page and the second reply's
  /// `[^1]` goes to its own note. The library's HTML keeps cmark-gfm's ids.
  @Test func footnoteIdsAreScopedPerMessage() throws {
    try B.withPage(Self.thread, width: 1280) { (browser, _) throws in
      let ids = try B.strings(browser, "[...document.querySelectorAll('[id]')].map(e => e.id)")
      #expect(Set(ids).count == ids.count, "duplicate ids")
      try browser.click("article[data-i='3'] sup a")
      try browser.waitUntil("location.hash.length > 1")
      let target =
        "document.getElementById(decodeURIComponent(location.hash.slice(1)))"
      #expect(try browser.evaluate("\(target).closest('article').dataset.i") as? String == "3")
      #expect(try browser.evaluate("\(target).textContent.includes('second reply')") as? Bool == true)
    }
    let library = try CLIRunner.run(["render", "--to", "html"], input: "Note[^1].\n\n[^1]: x\n").stdout
    #expect(library.contains("<a href=\"#fn-1\" id=\"fnref-1\" data-footnote-ref>"))
  }

  /// 6. A disarmed link is inert text with its URL shown (a click changes nothing); a remote image
  /// is a link-like placeholder with its alt text, and nothing breaks the page's CSP.
  @Test func disarmedLinksAreTextAndRemoteImagesArePlaceholders() throws {
    try B.withPage(Self.thread, width: 1280) { (browser, page) throws in
      #expect(try B.number(browser, "document.querySelectorAll('a[href=\"\"], a:not([href])').length") == 0)
      #expect(try browser.evaluate("document.querySelector('.link-off').textContent") as? String == "bad link")
      #expect(
        try browser.evaluate("document.querySelector('.link-url').textContent") as? String == " (javascript:alert(1))")
      // A reload would drop this mark and the scroll position.
      _ = try browser.evaluate(
        "window.__mark = 1; document.querySelector('.link-off').scrollIntoView({block: 'center'}); 0")
      let before = try B.number(browser, "scrollY")
      try browser.click(".link-off")
      try B.pause(browser, 300)
      #expect(try browser.evaluate("location.href") as? String == page.absoluteString)
      #expect(try B.number(browser, "window.__mark") == 1, "the page was not reloaded")
      #expect(try B.number(browser, "scrollY") == before)
      #expect(try B.number(browser, "document.querySelectorAll('img').length") == 0)
      #expect(try browser.evaluate("document.querySelector('.img-link').textContent") as? String == "a remote chart")
      #expect(
        try browser.evaluate("document.querySelector('.img-link').getAttribute('href')") as? String
          == "https://example.com/chart.png")
      #expect(try browser.evaluate("window.__violations.join('; ')") as? String == "")
    }
  }

  /// 7. The Jump to latest button stays opaque under the pointer, light and dark.
  @Test func jumpButtonStaysOpaqueOnHover() throws {
    try B.withPage(ExportLongThread.archive(count: 60), width: 1280, height: 700) { (browser, _) throws in
      _ = try browser.evaluate("scrollTo(0, 0)")
      try browser.waitUntil("!document.querySelector('.jump').hidden")
      for scheme in ["light", "dark"] {
        try B.scheme(browser, scheme)
        try B.hover(browser, ".jump")
        try B.pause(browser, 250)
        #expect(try browser.evaluate("document.querySelector('.jump').matches(':hover')") as? Bool == true)
        let background =
          try browser.evaluate("getComputedStyle(document.querySelector('.jump')).backgroundColor")
          as? String ?? ""
        #expect(
          try B.number(browser, B.colours("alpha(\(DevToolsSession.jsString(background)))")) == 1,
          "\(scheme): \(background)")
      }
    }
  }

  /// 8. Only a given rating shows, once, as text; an unrated reply shows none, and nothing reads
  /// as an image or a button.
  @Test func onlyTheGivenRatingShowsAsText() throws {
    try B.withPage(Self.thread, width: 1280) { (browser, _) throws in
      #expect(
        try browser.evaluate("document.querySelector('article[data-i=\"1\"] .rating').textContent") as? String
          == "Rated good")
      #expect(try B.number(browser, "document.querySelectorAll('.rating').length") == 1)
      #expect(
        try B.number(browser, "document.querySelectorAll('article[data-i=\"3\"] .rating, [role=\"img\"]').length") == 0)
      #expect(try B.number(browser, "document.querySelectorAll('.rating svg[aria-hidden=\"true\"]').length") == 1)
      #expect(
        try browser.evaluate(
          "[...document.querySelectorAll('[aria-label]')].some(e => /^(Good|Bad|Rated)/.test(e.getAttribute('aria-label')))"
        )
          as? Bool == false)
    }
  }

  /// 9. One language for every word of the page: `--lang de` in a French browser gives German
  /// labels, states, counts, buttons and separators (rebuilt with their `<time datetime>`).
  @Test func oneLanguageForThePage() throws {
    let french: [(String, [String: Any])] = [
      ("Emulation.setLocaleOverride", ["locale": "fr-FR"]),
      ("Emulation.setUserAgentOverride", ["userAgent": "Mozilla/5.0 (X11; Linux x86_64)", "acceptLanguage": "fr-FR"]),
    ]
    try B.withPage(Self.thread, arguments: ["--lang", "de"], emulation: french) { (browser, _) throws in
      #expect(try browser.evaluate("document.documentElement.lang") as? String == "de")
      #expect(try browser.evaluate("navigator.language") as? String == "fr-FR")
      let days = try B.strings(browser, "[...document.querySelectorAll('h2.day')].map(h => h.textContent)")
      #expect(days == ["1. März 2024"], "\(days)")
      #expect(
        try B.number(browser, "document.querySelectorAll('h2.day > time[datetime=\"2024-03-01\"]').length") == 1)
      #expect(
        try browser.evaluate("document.querySelector('.page-meta .count').textContent") as? String == "7 Nachrichten")
      // The turns sit in a chunk with `content-visibility: auto`: until the first frame lays it
      // out, its text is not in `innerText` (a loaded machine read the page before that frame).
      try browser.waitUntil("document.body.innerText.includes('Angehalten')")
      let text = try browser.evaluate("document.body.innerText") as? String ?? ""
      for word in ["Angehalten", "Diese Antwort wurde nicht fertig.", "Als gut bewertet", "Exportiert am"] {
        #expect(text.contains(word), "\(word)")
      }
      #expect(
        try browser.evaluate("document.querySelector('article[data-i=\"1\"]').getAttribute('aria-label')") as? String
          == "Assistent")
      let copy = "article[data-i='1'] .actions button[data-action='copy']"
      #expect(try browser.evaluate("document.querySelector(\"\(copy)\").title") as? String == "Kopieren")
      try browser.click(copy)
      try browser.waitUntil("document.querySelector(\"\(copy) .act-label\").textContent === 'Kopiert'")
    }
    // The default is the environment's language.
    try B.withPage(Self.thread, language: "de_DE.UTF-8") { (browser, _) throws in
      #expect(try browser.evaluate("document.documentElement.lang") as? String == "de")
    }
    let unknown = try CLIRunner.run(["export", "-", "--lang", "xx"], input: Self.thread)
    #expect(unknown.status == 2 && unknown.stderr.contains("no words in 'xx'") && unknown.stderr.contains("de"))
  }

  /// 10. A reply saved while streaming does not ask a reader to try again; a failed reply with
  /// text has Copy.
  @Test func savedStreamingAndFailedRepliesReadRight() throws {
    try B.withPage(Self.thread) { (browser, _) throws in
      let text = try browser.evaluate("document.body.innerText") as? String ?? ""
      #expect(!text.localizedCaseInsensitiveContains("try again"))
      #expect(
        try browser.evaluate("document.querySelector('article[data-i=\"4\"] .state').textContent") as? String
          == "This reply didn't finish.")
      let copy = "article[data-i='5'] .actions button[data-action='copy']"
      #expect(try browser.evaluate("document.querySelector(\"\(copy)\").hidden") as? Bool == false)
      try browser.click(copy)
      try browser.waitUntil("document.querySelector(\"\(copy)\").classList.contains('is-done')")
      #expect(try browser.clipboardText() == "Some text before the failure")
    }
  }

  /// 11. A future day is its own dated section, reply headings sit below the day headings,
  /// scrollable code and tables take keyboard focus, task boxes are legible, and an empty thread
  /// says so.
  @Test func minorDefects() throws {
    let future = ExportFixtures.iso(Date().addingTimeInterval(3 * 86_400))
    let thread = ExportFixtures.archive([
      ("user", "Now", ExportFixtures.iso(Date()), "complete", nil, nil),
      ("assistant", "From the future", future, "complete", nil, nil),
    ])
    try B.withPage(thread) { (browser, _) throws in
      let days = try B.strings(browser, "[...document.querySelectorAll('h2.day')].map(h => h.textContent)")
      #expect(days.count == 2 && days.first == "Today" && days.last != "Today", "\(days)")
    }
    try B.withPage(Self.thread) { (browser, _) throws in
      let levels =
        try browser.evaluate(
          "[...document.querySelectorAll('.reply h1, .reply h2, .reply h3, .reply h4, .reply h5, .reply h6')].map(h => Number(h.tagName[1]))"
        ) as? [Int] ?? []
      #expect(levels == [3])
      for selector in ["article[data-i='1'] pre", "article[data-i='1'] .table-scroll"] {
        #expect(
          try browser.evaluate(
            "(() => { const e = document.querySelector(\"\(selector)\"); e.focus(); return e.tabIndex === 0 && document.activeElement === e; })()"
          ) as? Bool == true, "\(selector)")
      }
      #expect(
        try B.strings(
          browser, "[...document.querySelectorAll('li:has(> input)')].map(l => getComputedStyle(l).listStyleType)")
          == ["none", "none"], "task items have their box, not a bullet too")
      for scheme in ["light", "dark"] {
        try B.scheme(browser, scheme)
        let box =
          try browser.evaluate(
            B.colours(
              "(() => { const c = getComputedStyle(document.querySelector('input[type=checkbox]:not(:checked)')); return [Number(c.opacity), contrast(c.borderTopColor, getComputedStyle(document.body).backgroundColor)]; })()"
            )) as? [Double] ?? []
        #expect(box.count == 2 && box[0] == 1 && box[1] >= 3, "\(scheme): \(box)")
      }
    }
    try B.withPage(ExportFixtures.archive([])) { (browser, _) throws in
      let text = try browser.evaluate("document.body.innerText") as? String ?? ""
      #expect(text.contains("No messages in this conversation."))
      #expect(!text.contains("0 messages"))
      #expect(try B.number(browser, "document.querySelectorAll('.page-actions').length") == 0)
    }
  }
}
