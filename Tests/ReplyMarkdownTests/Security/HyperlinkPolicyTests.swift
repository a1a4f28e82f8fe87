import Testing

@testable import ReplyMarkdown

/// Issue 13: OSC 8 hyperlinks follow the HTML URL policy, and invisible format characters in link
/// text and URLs are dropped or shown.
@Suite struct HyperlinkPolicyTests {
  static func ansi(_ markdown: String) -> String {
    ANSIRenderer(options: ANSIOptions(width: 200, color: false, hyperlinks: true)).render(MarkdownDocument(markdown))
  }

  @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "VBScript:x"])
  func dangerousTargetsAreNeverHyperlinks(url: String) {
    let out = Self.ansi("[click](<\(url)>)")
    #expect(!out.contains("\u{1B}]8;;"), "\(out.debugDescription)")
    #expect(out.hasPrefix("click ("))
  }

  @Test func safeTargetsStayHyperlinks() {
    #expect(Self.ansi("[ok](https://example.com/x)").contains("\u{1B}]8;;https://example.com/x\u{1B}\\ok"))
  }

  @Test func invisibleFormatCharactersAreDroppedFromTextAndShownInURLs() {
    let out = Self.ansi("[pay\u{200B}pal\u{00AD}](https://ex\u{200B}ample.com) [w](https://a.example/\u{FEFF})")
    for scalar in ["\u{200B}", "\u{00AD}", "\u{FEFF}"] { #expect(!out.contains(scalar)) }
    #expect(out.contains("paypal"))
    #expect(out.contains("https://ex%E2%80%8Bample.com"))
    let plain = ANSIRenderer(options: ANSIOptions(width: 200)).render(
      MarkdownDocument("[a\u{200E}b](https://x.example/\u{2060})"))
    #expect(plain.contains("ab (https://x.example/%E2%81%A0)"), "\(plain.debugDescription)")
    // A joiner inside an emoji sequence stays.
    #expect(Self.ansi("[👩‍💻](https://x.example)").contains("👩‍💻"))
  }

  /// Every other character Unicode makes default-ignorable or a format character shows in a URL
  /// too: an invisible operator, a tag character, a Hangul filler, the Mongolian vowel separator,
  /// the combining grapheme joiner, an interlinear annotation mark (they passed raw: a review).
  @Test(arguments: [
    ("\u{2061}", "%E2%81%A1"), ("\u{E0001}", "%F3%A0%80%81"), ("\u{3164}", "%E3%85%A4"), ("\u{180E}", "%E1%A0%8E"),
    ("\u{034F}", "%CD%8F"), ("\u{FFF9}", "%EF%BF%B9"),
  ])
  func otherHiddenCharactersShowInURLs(hidden: String, encoded: String) {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 200))
    let out = renderer.render(MarkdownDocument("[a](https://x.example/p\(hidden)q)"))
    #expect(out.contains("(https://x.example/p\(encoded)q)"), "\(out.debugDescription)")
    #expect(!out.contains(hidden))
    // Letters beyond ASCII are no such characters.
    #expect(renderer.render(MarkdownDocument("[a](https://x.example/café)")).contains("(https://x.example/café)"))
  }
}
