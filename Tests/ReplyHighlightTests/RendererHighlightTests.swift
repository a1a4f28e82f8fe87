import ReplyHighlight
import ReplyMarkdown
import Testing

@Suite("Renderers with a highlighter")
struct RendererHighlightTests {
  static let reply = """
    Some code:

    ```swift
    import Foundation
    /* a comment that is long enough to wrap at a narrow width, over
       two lines */
    let s = "\u{1B}]0;owned\u{07} \u{1B}[31m red"\t// tab, then a comment
    ```

    ```klingon
    qapla'
    ```

    ```py
    def f(x):
        \"\"\"Doc
        string\"\"\"
        return x
    ```
    """

  let document = MarkdownDocument(reply)
  let highlighter = KSyntaxCodeHighlighter()

  /// The output with escape sequences removed.
  func visible(_ text: String) -> String {
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        while let next = scalars.next(), next != "m" {}
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  @Test("ANSI: the same text, widths and wrapping as without highlighting; only SGR escapes", arguments: [24, 40, 80])
  func ansiLayoutUnchanged(width: Int) {
    let plain = ANSIRenderer(options: ANSIOptions(width: width, color: true)).render(document)
    for depth in ANSIColorDepth.allCases {
      let options = ANSIOptions(width: width, color: true, highlighter: highlighter, colorDepth: depth)
      let coloured = ANSIRenderer(options: options).render(document)
      #expect(coloured != plain)
      #expect(visible(coloured) == visible(plain))
      for line in coloured.split(separator: "\n") {
        // Every ESC starts an SGR sequence of digits and semicolons: nothing from the input.
        var rest = Substring(line)
        while let escape = rest.firstIndex(of: "\u{1B}") {
          rest = rest[rest.index(after: escape)...]
          #expect(rest.first == "[")
          let body = rest.dropFirst().prefix { $0 != "m" }
          #expect(body.allSatisfy { $0.isNumber || $0 == ";" })
        }
      }
    }
  }

  @Test("ANSI: colour off is the same output with or without a highlighter")
  func colourOff() {
    let plain = ANSIRenderer(options: ANSIOptions(width: 60)).render(document)
    let options = ANSIOptions(width: 60, color: false, highlighter: highlighter)
    #expect(ANSIRenderer(options: options).render(document) == plain)
  }

  @Test("ANSI: truecolor uses the theme's colours; 256 colours the palette")
  func depths() {
    let truecolor = ANSIRenderer(options: ANSIOptions(color: true, highlighter: highlighter, colorDepth: .truecolor))
      .render(document)
    #expect(truecolor.contains("\u{1B}[0;38;2;249;117;131mimport"))  // GitHub Dark keyword #f97583
    let palette = ANSIRenderer(options: ANSIOptions(color: true, highlighter: highlighter)).render(document)
    #expect(palette.contains("\u{1B}[0;38;5;"))
    #expect(!palette.contains("38;2;"))
    #expect(ANSIColorDepth.of(environment: ["COLORTERM": "truecolor"]) == .truecolor)
    #expect(ANSIColorDepth.of(environment: [:]) == .palette256)
  }

  @Test("streaming: finished code lines highlighted from the carried state; the end equals one-shot")
  func streaming() {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 50, color: true, highlighter: highlighter))
    let expected = renderer.renderLines(document)
    for chunk in [1, 7, 64] {
      var stream = MarkdownStream()
      var consumer = MarkdownStreamANSIRenderer(renderer: renderer)
      var index = Self.reply.startIndex
      while index < Self.reply.endIndex {
        let end = Self.reply.index(index, offsetBy: chunk, limitedBy: Self.reply.endIndex) ?? Self.reply.endIndex
        consumer.apply(stream.feed(String(Self.reply[index..<end])))
        index = end
      }
      consumer.apply(stream.finish())
      #expect(consumer.committedLines == expected, "chunk \(chunk)")
    }
  }

  @Test("HTML: default output unchanged; highlighted output keeps the text and adds only spans")
  func html() {
    let plain = HTMLRenderer().render(document)
    #expect(HTMLRenderer(highlighter: nil).render(document) == plain)
    let highlighted = HTMLRenderer(highlighter: highlighter).render(document)
    #expect(highlighted.contains("<span class=\"hl-keyword\">import</span>"))
    #expect(highlighted.contains("<code class=\"language-klingon\">qapla'\n</code>"))
    var stripped = highlighted
    while let open = stripped.range(of: "<span class=\"hl-") {
      guard let close = stripped[open.upperBound...].range(of: "\">") else { break }
      stripped.removeSubrange(open.lowerBound..<close.upperBound)
    }
    #expect(stripped.replacingOccurrences(of: "</span>", with: "") == plain)
  }

  @Test("HTML: a stylesheet per theme; a theme change changes only the stylesheet")
  func stylesheet() throws {
    let dark = try #require(KSyntaxCodeHighlighter.theme(named: "GitHub Dark"))
    let light = try #require(KSyntaxCodeHighlighter.theme(named: "GitHub Light"))
    #expect(dark.stylesheet().contains(".hl-keyword { color: #f97583; }"))
    #expect(light.stylesheet().contains(".hl-keyword { color: #d73a49; }"))
    let both = CodeTheme.stylesheet(light: light, dark: dark)
    #expect(both.contains("@media (prefers-color-scheme: dark)"))
    let lightHTML = try #require(KSyntaxCodeHighlighter(themeNamed: "GitHub Light"))
    #expect(
      HTMLRenderer(highlighter: lightHTML).render(document) == HTMLRenderer(highlighter: highlighter).render(document))
  }

  /// HTML gave empty lines no highlighter call, so what a blank line ends (a markdown quote, a
  /// string continued with a backslash, a preprocessor line) went on below it: `def` stayed
  /// inside the string, where the terminal and kate-syntax-highlighter end it (a trial). The HTML
  /// spans now carry the kinds the terminal's colours do, line by line.
  @Test(
    "HTML: an empty code line ends what it ends, as in the terminal",
    arguments: [
      ("python", "x = \"abc\\\n\ndef f(): pass\n", "def"), ("markdown", "> quote line\n\nplain after quote\n", "plain"),
      ("c", "#define X 1 \\\n\nint y = 2;\n", "int"),
    ])
  func emptyLinesReachTheHighlighter(language: String, code: String, word: String) throws {
    let html = HTMLRenderer(highlighter: highlighter).render(MarkdownDocument("```\(language)\n\(code)```\n"))
    let lines = html.split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.first { $0.contains(word) })
    let codeLanguage = try #require(highlighter.language(info: language))
    var state = CodeLineState.initial
    var expected = ""
    for codeLine in code.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let result = highlighter.highlight(String(codeLine), language: codeLanguage, state: state)
      state = result.state
      if codeLine.contains(word) {
        expected = result.spans.filter { $0.kind != .normal }.map(\.kind.cssClass).joined(separator: " ")
      }
    }
    let shown = line.components(separatedBy: "<span class=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(shown.joined(separator: " ") == expected, "\(language): \(line)")
    #expect(!line.contains("hl-string") && !line.contains("hl-preprocessor") && !line.contains("hl-attribute"))
  }
}
