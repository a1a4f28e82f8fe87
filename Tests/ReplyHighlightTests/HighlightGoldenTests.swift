import Foundation
import ReplyHighlight
import ReplyMarkdown
import Testing

/// Golden files of highlighted output: Corpus replies with Swift, Python, TypeScript, JavaScript,
/// shell, JSON, YAML and diff code, rendered in GitHub Dark (`make goldens` rewrites them):
/// `ansi/<reply>.w80.highlight-256.txt` and `…highlight-truecolor.txt` (colour and hyperlinks on),
/// `html/<reply>.highlight.html` (`class="hl-…"` spans), and the stylesheets of GitHub Dark and
/// Light, `html/highlight-github-dark.css` and `…-light.css`. The stream consumers must end on the
/// same bytes.
@Suite("Highlighted output matches its golden files")
struct HighlightGoldenTests {
  static let replies = [
    "01-python-list-comprehension", "03-swift-completion-handler-to-async", "05-code-review-fetch-users",
    "15-github-actions-node-ci", "25-typescript-generics",
  ]
  static let depths: [ANSIColorDepth] = [.palette256, .truecolor]

  let dark = KSyntaxCodeHighlighter(dark: true)
  let light = KSyntaxCodeHighlighter(dark: false)

  static func suffix(_ depth: ANSIColorDepth) -> String { depth == .truecolor ? "truecolor" : "256" }

  func ansi(_ highlighter: any CodeHighlighter, _ depth: ANSIColorDepth) -> ANSIRenderer {
    ANSIRenderer(
      options: ANSIOptions(width: 80, color: true, hyperlinks: true, highlighter: highlighter, colorDepth: depth))
  }

  @Test("the themes are the ones the goldens are made in")
  func themes() {
    #expect(dark.codeTheme.name == "GitHub Dark")
    #expect(light.codeTheme.name == "GitHub Light")
  }

  @Test("ANSI, 256 colours and truecolor", arguments: replies, depths)
  func ansiGolden(reply: String, depth: ANSIColorDepth) throws {
    let output = ansi(dark, depth).render(MarkdownDocument(try HighlightGoldenFile.reply(reply + ".md")))
    let problem = HighlightGoldenFile.check(output, against: "ansi/\(reply).w80.highlight-\(Self.suffix(depth)).txt")
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test("HTML with hl- spans", arguments: replies)
  func htmlGolden(reply: String) throws {
    let output = HTMLRenderer(highlighter: dark).render(MarkdownDocument(try HighlightGoldenFile.reply(reply + ".md")))
    let problem = HighlightGoldenFile.check(output, against: "html/\(reply).highlight.html")
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test("the stylesheet of each GitHub theme")
  func stylesheets() {
    for (highlighter, name) in [(dark, "dark"), (light, "light")] {
      let problem = HighlightGoldenFile.check(
        highlighter.codeTheme.stylesheet(), against: "html/highlight-github-\(name).css")
      #expect(problem == nil, "\(problem ?? "")")
    }
  }

  @Test("streamed in 20-byte chunks, the ANSI and HTML consumers end on the golden bytes", arguments: replies)
  func streamingEndsOnTheGoldens(reply: String) throws {
    let markdown = try HighlightGoldenFile.reply(reply + ".md")
    let bytes = Array(markdown.utf8)
    var stream = MarkdownStream()
    var terminal = MarkdownStreamANSIRenderer(renderer: ansi(dark, .truecolor))
    var html = MarkdownStreamHTMLRenderer(renderer: HTMLRenderer(highlighter: dark))
    var start = 0
    while start < bytes.count {
      let end = min(start + 20, bytes.count)
      let update = stream.feed(bytes: bytes[start..<end])
      _ = terminal.apply(update)
      _ = html.apply(update)
      start = end
    }
    let last = stream.finish()
    _ = terminal.apply(last)
    _ = html.apply(last)
    let ansiGolden = try #require(HighlightGoldenFile.expected("ansi/\(reply).w80.highlight-truecolor.txt"))
    #expect(terminal.committedLines.map { $0 + "\n" }.joined() == ansiGolden)
    #expect(html.html == HighlightGoldenFile.expected("html/\(reply).highlight.html"))
  }

  @Test("a theme change changes colours only: the same lines, the same text, other escapes", arguments: replies)
  func themeChangeIsColoursOnly(reply: String) throws {
    let document = MarkdownDocument(try HighlightGoldenFile.reply(reply + ".md"))
    let golden = try #require(HighlightGoldenFile.expected("ansi/\(reply).w80.highlight-truecolor.txt"))
    let inLight = ansi(light, .truecolor).render(document)
    let goldenLines = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let lightLines = inLight.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lightLines.count == goldenLines.count)
    var changed = 0
    for (goldenLine, lightLine) in zip(goldenLines, lightLines) {
      #expect(Self.withoutSGR(goldenLine) == Self.withoutSGR(lightLine))
      if goldenLine != lightLine { changed += 1 }
    }
    #expect(changed > 0)
    // HTML names kinds, not colours: the page is the same, only the stylesheet changes.
    #expect(
      HTMLRenderer(highlighter: light).render(document) == HighlightGoldenFile.expected("html/\(reply).highlight.html"))
  }

  @Test("one colour changed in a theme is a one-line diff of its stylesheet and of nothing else")
  func oneColourIsOneLine() throws {
    var theme = dark.codeTheme
    let keyword = try #require(CodeTokenKind.allCases.firstIndex(of: .keyword))
    theme.styles[keyword].foreground = CodeColor(rgb: 0x123456)
    let before = dark.codeTheme.stylesheet().split(separator: "\n")
    let after = theme.stylesheet().split(separator: "\n")
    #expect(before.count == after.count)
    let differing = zip(before, after).filter { $0 != $1 }
    #expect(differing.count == 1)
    #expect(differing.first?.1 == ".hl-keyword { color: #123456; }")
  }

  /// The text with SGR sequences (`ESC [ … m`) removed; other escapes (OSC 8) stay.
  static func withoutSGR(_ line: Substring) -> String {
    var result = ""
    var scalars = line.unicodeScalars.makeIterator()
    var pendingEscape = false
    while let scalar = scalars.next() {
      if pendingEscape {
        pendingEscape = false
        if scalar == "[" {
          while let next = scalars.next(), next != "m" {}
          continue
        }
        result.unicodeScalars.append("\u{1B}")
      }
      if scalar == "\u{1B}" {
        pendingEscape = true
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    if pendingEscape { result.unicodeScalars.append("\u{1B}") }
    return result
  }
}
