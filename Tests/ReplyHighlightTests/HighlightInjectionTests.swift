import ReplyHighlight
import ReplyMarkdown
import Testing

/// Terminal-injection payloads inside highlighted code (strings, comments, code, in several
/// languages): with highlighting on, nothing from the input reaches the terminal as a control, and
/// HTML carries no control it was not given.
@Suite("Highlighting keeps terminal output safe")
struct HighlightInjectionTests {
  static let esc = "\u{1B}"
  static let bel = "\u{07}"
  /// One payload of each kind the renderer must neutralise.
  static let payloads: [String] = [
    "\(esc)]0;pwned\(bel)", "\(esc)]52;c;cm0gLXJmIH4=\(bel)", "\(esc)]8;;https://evil.example\(esc)\\click",
    "\(esc)[2J\(esc)[H", "\(esc)[31;1mred\(esc)[0m", "\(esc)[6n", "\(esc)P1$r0m\(esc)\\", "\(esc)_apc\(esc)\\",
    "\u{9B}2J", "\u{9D}0;pwned\u{9C}", "a\(esc)b", "\(esc)c", "safe\u{08}\u{08}evil", "rm -rf /\rls", "ding\(bel)",
    "a\u{0B}b\u{0C}c", "a\u{00}b", "a\u{7F}b", "abc\u{202E}gnp.exe", "\u{2066}evil\u{2069}", "\u{0E}x\u{0F}",
  ]
  /// Where the payload goes in a line of code, by language.
  static let templates: [(language: String, line: String)] = [
    ("swift", "let s = \"X\" // X"), ("python", "s = 'X'  # X"), ("sh", "echo \"X\"; X"),
    ("json", "{\"k\": \"X\", X}"), ("diff", "+X"), ("c", "/* X */ char *s = \"X\";"),
    ("typescript", "const s = `X${X}`;"),
  ]

  static func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value == 0x09 || value == 0x0A { return false }
    return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }

  /// The output without the renderer's own SGR sequences (`ESC [ digits ; … m`).
  static func withoutOwnSGR(_ text: String) -> [Unicode.Scalar] {
    let scalars = Array(text.unicodeScalars)
    var result: [Unicode.Scalar] = []
    var index = 0
    while index < scalars.count {
      if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
        var end = index + 2
        while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
        if end < scalars.count, scalars[end] == "m" {
          index = end + 1
          continue
        }
      }
      result.append(scalars[index])
      index += 1
    }
    return result
  }

  static var documents: [(name: String, markdown: String)] {
    templates.flatMap { language, line in
      payloads.enumerated().map { number, payload in
        let code = line.replacingOccurrences(of: "X", with: payload)
        return ("payload \(number) in \(language)", "```\(language)\n\(code)\n\(code)\n```\n")
      }
    }
  }

  @Test("ANSI with highlighting on: no control from the input, at either colour depth")
  func ansi() {
    let highlighter = KSyntaxCodeHighlighter()
    var highlighted = 0
    for depth in [ANSIColorDepth.palette256, .truecolor] {
      let renderer = ANSIRenderer(
        options: ANSIOptions(width: 60, color: true, hyperlinks: true, highlighter: highlighter, colorDepth: depth))
      for (name, markdown) in Self.documents {
        let output = renderer.render(MarkdownDocument(markdown))
        if output.contains(depth == .truecolor ? "38;2;" : "38;5;") { highlighted += 1 }
        let dangerous = Self.withoutOwnSGR(output).filter(Self.isDangerous)
        #expect(dangerous.isEmpty, "\(name): \(dangerous.map { String($0.value, radix: 16) })")
      }
    }
    // The payloads sat in highlighted code, not in plain fallbacks.
    #expect(highlighted == 2 * Self.documents.count)
  }

  @Test("streamed with highlighting on: no control from the input in committed or open lines")
  func streaming() {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: true, highlighter: KSyntaxCodeHighlighter()))
    for (name, markdown) in Self.documents {
      var stream = MarkdownStream()
      var consumer = MarkdownStreamANSIRenderer(renderer: renderer)
      let bytes = Array(markdown.utf8)
      var start = 0
      while start < bytes.count {
        let end = min(start + 3, bytes.count)
        _ = consumer.apply(stream.feed(bytes: bytes[start..<end]))
        let shown = (consumer.committedLines + consumer.tailLines).joined(separator: "\n")
        #expect(!Self.withoutOwnSGR(shown).contains(where: Self.isDangerous), "\(name) at byte \(end)")
        start = end
      }
      _ = consumer.apply(stream.finish())
      #expect(!Self.withoutOwnSGR(consumer.committedLines.joined(separator: "\n")).contains(where: Self.isDangerous))
    }
  }

  @Test("HTML with highlighting: no control that was not in the input, and none inside a tag")
  func html() {
    let renderer = HTMLRenderer(highlighter: KSyntaxCodeHighlighter())
    for (name, markdown) in Self.documents {
      let html = renderer.render(MarkdownDocument(markdown))
      #expect(html.contains("<span class=\"hl-"), "\(name)")
      let input = Set(markdown.unicodeScalars.filter(Self.isDangerous))
      let output = Set(html.unicodeScalars.filter(Self.isDangerous))
      #expect(output.isSubset(of: input.union(["\u{FFFD}"])), "\(name)")
      var inTag = false
      for scalar in html.unicodeScalars {
        if scalar == "<" { inTag = true } else if scalar == ">" { inTag = false }
        if inTag { #expect(!Self.isDangerous(scalar), "\(name): control inside a tag") }
      }
    }
  }
}
