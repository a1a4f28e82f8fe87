import Foundation
import Testing

/// What the export page tests share: a page exported by `replykit export`, opened in headless
/// Chromium with every CSP violation recorded, and a few typed reads of the page.
enum ExportPageBrowser {
  /// Records every resource or inline code the page's CSP blocked, into `window.__violations`.
  static let violationHook =
    "window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"

  /// The reason the browser tests are skipped when there is no Chromium.
  static let needsChromium: Comment = "needs headless Chromium ('make test' installs the Debian package 'chromium')"

  /// Chromium flags for a desktop with a mouse: headless Chromium otherwise matches
  /// `(hover: none)`, as a touch screen does.
  static let mouse = [
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4"
  ]

  /// Exports `thread`, opens it at `width` x `height` (in a Chromium started with
  /// `browserArguments`) and runs `body`; the browser and files are removed afterwards.
  static func withPage(
    _ thread: String, arguments: [String] = [], language: String = "en_US.UTF-8", width: Int = 1280,
    height: Int = 900, emulation: [(String, [String: Any])] = [], fragment: String? = nil,
    browserArguments: [String] = [],
    _ body: (DevToolsSession, URL) throws -> Void
  ) throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try ExportFixtures.exportPage(thread, in: directory, arguments: arguments, language: language)
    let browser = try DevToolsSession(arguments: browserArguments)
    defer { browser.close() }
    var url = page
    if let fragment, let withFragment = URL(string: page.absoluteString + "#" + fragment) { url = withFragment }
    try browser.open(url, width: width, height: height, beforeLoad: violationHook, emulation: emulation)
    try body(browser, page)
  }

  /// Sets the emulated colour scheme (and optionally print media).
  static func scheme(_ browser: DevToolsSession, _ scheme: String, print: Bool = false) throws {
    try browser.send(
      "Emulation.setEmulatedMedia",
      ["media": print ? "print" : "", "features": [["name": "prefers-color-scheme", "value": scheme]]])
  }

  /// Moves the mouse over the centre of the first element matching `selector` (no scrolling).
  static func hover(_ browser: DevToolsSession, _ selector: String) throws {
    let script =
      "(() => { const r = document.querySelector(\(DevToolsSession.jsString(selector))).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
    guard let point = try browser.evaluate(script) as? [Double], point.count == 2 else { return }
    try browser.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": point[0], "y": point[1]])
  }

  /// Waits `milliseconds` in the page (animation frames keep running).
  static func pause(_ browser: DevToolsSession, _ milliseconds: Int) throws {
    _ = try browser.evaluate("new Promise(r => setTimeout(r, \(milliseconds)))")
  }

  static func number(_ browser: DevToolsSession, _ expression: String) throws -> Double {
    try browser.evaluate(expression) as? Double ?? .nan
  }

  static func strings(_ browser: DevToolsSession, _ expression: String) throws -> [String] {
    try browser.evaluate(expression) as? [String] ?? []
  }

  /// `expression` evaluated with three colour helpers in scope: `lum(c)`, the relative
  /// luminance of a computed CSS colour (`rgb(…)`, `rgba(…)` or `color(srgb …)`); `contrast(a, b)`,
  /// the WCAG contrast ratio; and `alpha(c)`, a colour's alpha (1 when it has none).
  static func colours(_ expression: String) -> String {
    """
    (() => {
      const lum = (c) => { const m = c.match(/[\\d.]+/g).map(Number); const [r, g, b] = c.startsWith('color(') ? m.map(v => v * 255) : m;
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
      const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      const alpha = (c) => { const s = c.match(/\\/\\s*([\\d.]+)\\s*\\)$/); if (s) return Number(s[1]);
        const a = c.match(/^rgba\\([^,]+,[^,]+,[^,]+,\\s*([\\d.]+)\\)$/); return a ? Number(a[1]) : 1; };
      return (\(expression));
    })()
    """
  }
}
