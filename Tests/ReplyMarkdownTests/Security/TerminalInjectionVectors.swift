/// Terminal-injection vectors: control sequences hidden in the places a reply can carry them (text,
/// code spans and blocks, link text, URLs, image alt text, headings, table cells). Shared data: the
/// ANSI renderer's tests assert that none of these reaches the terminal as a control sequence.
enum TerminalInjectionVectors {
  /// One vector: a name, the markdown, and the payload it hides.
  struct Vector: Sendable {
    let name: String
    let markdown: String
    let payload: String
  }

  static let esc = "\u{1B}"
  static let bel = "\u{07}"

  /// The payloads, by name.
  static let payloads: [(String, String)] = [
    ("OSC 0 title", "\(esc)]0;pwned\(bel)"),
    ("OSC 2 title with ST", "\(esc)]2;pwned\(esc)\\"),
    ("OSC 52 clipboard write", "\(esc)]52;c;cm0gLXJmIH4=\(bel)"),
    ("OSC 8 hyperlink", "\(esc)]8;;https://evil.example\(esc)\\click\(esc)]8;;\(esc)\\"),
    ("CSI clear screen", "\(esc)[2J\(esc)[H"),
    ("CSI cursor up and erase", "\(esc)[1A\(esc)[2K"),
    ("CSI colour", "\(esc)[31;1mred\(esc)[0m"),
    ("CSI hidden text", "\(esc)[8msecret\(esc)[28m"),
    ("CSI device status report", "\(esc)[6n"),
    ("CSI window title report", "\(esc)[21t"),
    ("DCS", "\(esc)P1$r0m\(esc)\\"),
    ("APC", "\(esc)_payload\(esc)\\"),
    ("PM", "\(esc)^payload\(esc)\\"),
    ("SOS", "\(esc)Xpayload\(esc)\\"),
    ("C1 CSI", "\u{9B}2J"),
    ("C1 OSC", "\u{9D}0;pwned\u{9C}"),
    ("C1 DCS", "\u{90}payload\u{9C}"),
    ("bare ESC", "a\(esc)b"),
    ("ESC c reset", "\(esc)c"),
    ("backspace overprint", "safe\u{08}\u{08}\u{08}\u{08}evil"),
    ("carriage return overprint", "rm -rf /\rls"),
    ("bell", "ding\(bel)"),
    ("vertical tab and form feed", "a\u{0B}b\u{0C}c"),
    ("NUL", "a\u{00}b"),
    ("DEL", "a\u{7F}b"),
    ("RLO bidi override", "abc\u{202E}gnp.exe"),
    ("LRI/PDI isolates", "\u{2066}evil\u{2069}"),
    ("RLE/PDF embedding", "\u{202B}txet\u{202C}"),
    ("shift out", "\u{0E}x\u{0F}"),
    ("8-bit ST", "\u{9C}"),
  ]

  /// The places a payload can hide, as markdown templates around `X`.
  static let contexts: [(String, String)] = [
    ("text", "before X after"),
    ("emphasis", "*X*"),
    ("code span", "`X`"),
    ("code block", "```\nX\n```"),
    ("link text", "[X](https://example.com)"),
    ("link URL", "[a](https://example.com/X)"),
    ("link title", "[a](https://example.com \"X\")"),
    ("image alt", "![X](a.png)"),
    ("heading", "# X"),
    ("table cell", "| a |\n|---|\n| X |"),
    ("list item", "- X"),
    ("block quote", "> X"),
  ]

  /// Every payload in every context.
  static let all: [Vector] = payloads.flatMap { name, payload in
    contexts.map { context, template in
      Vector(
        name: "\(name) in \(context)", markdown: template.replacingOccurrences(of: "X", with: payload), payload: payload
      )
    }
  }

  /// The characters a terminal could act on: C0 controls but tab and newline, DEL, C1 controls,
  /// and bidi embeddings, overrides and isolates.
  static func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value == 0x09 || value == 0x0A { return false }
    return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }

  /// The dangerous characters in `text`.
  static func dangerousCharacters(in text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter(isDangerous)
  }
}
