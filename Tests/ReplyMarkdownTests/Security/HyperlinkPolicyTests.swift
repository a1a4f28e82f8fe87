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
}
