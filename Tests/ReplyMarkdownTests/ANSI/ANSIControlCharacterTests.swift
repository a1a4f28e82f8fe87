import Testing

@testable import ReplyMarkdown

/// No control character from the input reaches the terminal: not in text, code, link text, URLs,
/// image alt text, table cells, headings, info strings, HTML or footnotes.
@Suite struct ANSIControlCharacterTests {
  /// Every C0 control but tab and newline, DEL, every C1 control, the bidi controls, and some
  /// classic attacks (retitle the window, write the clipboard, recolour, clear the screen).
  static let payloads: [String] = {
    var payloads = (0..<32).filter { $0 != 9 && $0 != 10 }.map { String(UnicodeScalar(UInt8($0))) }
    payloads.append("\u{7F}")
    payloads += (0x80...0x9F).compactMap { Unicode.Scalar($0).map(String.init) }
    payloads += (0x202A...0x202E).compactMap { Unicode.Scalar($0).map(String.init) }
    payloads += (0x2066...0x2069).compactMap { Unicode.Scalar($0).map(String.init) }
    payloads += [
      "\u{1B}]0;pwned\u{07}", "\u{1B}]52;c;ZXZpbA==\u{07}", "\u{1B}[31;41m", "\u{1B}[2J\u{1B}[H", "\u{9B}31m",
      "\u{1B}]8;;http://evil\u{1B}\\",
    ]
    return payloads
  }()

  static func documents(_ p: String) -> [String] {
    [
      "text \(p) end *em \(p)* **strong \(p)**",
      "`code \(p)`",
      "```lang\(p)x\ncode \(p) line\n```",
      "    indented \(p) code",
      "[link \(p) text](https://example.com/\(p)path \"title \(p)\")",
      "<https://example.com/\(p)>",
      "![alt \(p)](https://example.com/\(p).png)",
      "| a\(p) | b |\n|---|---|\n| cell \(p) | x |",
      "# heading \(p)",
      "> quote \(p)\n\n- item \(p)\n- [x] task \(p)",
      "<div>html \(p) block</div>",
      "inline <span>html \(p)</span>",
      "note[^1]\n\n[^1]: footnote \(p)",
      "&#27;[31m entity escape",
    ]
  }

  /// What may remain after the renderer's own sequences are stripped: no C0 but newline, no
  /// DEL, no C1, no bidi controls.
  static func forbidden(in text: String) -> [String] {
    text.unicodeScalars.compactMap { scalar in
      let value = scalar.value
      if value == 0x0A { return nil }
      if value < 0x20 || (value >= 0x7F && value <= 0x9F) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value)
      {
        return String(format: "U+%04X", value)
      }
      return nil
    }
  }

  @Test func noInputControlCharacterReachesTheTerminal() {
    let renderers = [
      ANSIRenderer(options: ANSIOptions(width: 40, color: true, hyperlinks: true)),
      ANSIRenderer(options: ANSIOptions(width: 40, color: true, hyperlinks: false)),
      ANSIRenderer(options: ANSIOptions(width: 20, color: false, hyperlinks: false)),
    ]
    var failures: [String] = []
    for payload in Self.payloads {
      for markdown in Self.documents(payload) {
        let document = MarkdownDocument(markdown)
        for renderer in renderers {
          let output = renderer.render(document)
          let left = Self.forbidden(in: TerminalOutput.strippingOwnSequences(output))
          if !left.isEmpty && failures.count < 10 {
            failures.append("\(markdown.debugDescription): \(left) in \(output.debugDescription)")
          }
          if !renderer.options.color && !renderer.options.hyperlinks && output.utf8.contains(0x1B) {
            failures.append("escape with colour off: \(output.debugDescription)")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test func controlsShowAsVisibleSymbols() {
    let options = ANSIOptions(width: 80, color: false)
    let output = ANSIRenderer(options: options).render(
      MarkdownDocument("a \u{1B}]0;x\u{07} b \u{7F} c \u{9B} d \u{202E}e"))
    #expect(output == "a ␛]0;x␇ b ␡ c \u{FFFD} d \u{FFFD}e\n")
  }

  @Test func colourOffMeansNoEscapesAtAll() throws {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: false, hyperlinks: false))
    for (name, markdown) in try SharedData.corpusReplies() {
      #expect(!renderer.render(MarkdownDocument(markdown)).utf8.contains(0x1B), "\(name)")
    }
  }
}
