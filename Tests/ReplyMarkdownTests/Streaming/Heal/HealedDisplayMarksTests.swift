import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let pendingReferenceLink = [
    HealCase("See [docs] here", "<p>See <a pending>docs</a> here</p>"),
    HealCase("See [text][label] more", "<p>See <a pending>text</a> more</p>"),
    HealCase("See [text][] more", "<p>See <a pending>text</a> more</p>"),
    HealCase("[x]: /u\n\n[x] ok", "<p><a href=\"/u\">x</a> ok</p>", applies: false),
  ]

  static let unresolvedFootnoteReference = [
    HealCase("Claim[^1] more", "<p>Claim more</p>"),
    HealCase("a[^note] and[^2] b", "<p>a and b</p>"),
    HealCase("Claim[^1] more\n\n[^1]: Note", "<p>Claim more</p>"),
    // Just closed at the end: a reference still (a `(` after it is rare), not a pending link.
    HealCase("Claim[^1]", "<p>Claim</p>"),
    HealCase("Claim *a*[^long-label]", "<p>Claim <em>a</em></p>"),
    // An unclosed `[^` with a space may still be a link: its text shows as a pending link.
    HealCase("a [^ b", "<p>a <a pending>^ b</a></p>", applies: false),
    // The markers inside a reference close nothing outside it: cmark-gfm drops them with its text
    // (a closer written for them showed after the hidden reference: a trial).
    HealCase("[^*]a", "<p>a</p>"),
    HealCase("[^~~]a", "<p>a</p>"),
    HealCase("[^_]a b", "<p>a b</p>"),
    HealCase("x *[^*]a", "<p>x <em>a</em></p>"),
    // `![^` is `!` and a reference, not an image hidden until it completes.
    HealCase("See![^1] *y", "<p>See! <em>y</em></p>"),
    // Inside an address the autolink extension linked, `[^n]` is part of the address.
    HealCase("www.a[^n]b", "<p><a href=\"http://www.a%5B%5En%5Db\">www.a[^n]b</a></p>", applies: false),
  ]

  static let openFenceLineNewline = [
    HealCase("```go\nx := 2", "<pre><code class=\"language-go\">x := 2</code></pre>"),
    HealCase("```\na\nb", "<pre><code>a␤b</code></pre>"),
    HealCase("```go\nx := 2\n", "<pre><code class=\"language-go\">x := 2␤</code></pre>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct HealedDisplayMarksTests {
    @Test(arguments: HealTables.pendingReferenceLink)
    func pendingReferenceLink(_ row: HealCase) { row.check(.pendingReferenceLink) }

    @Test(arguments: HealTables.unresolvedFootnoteReference)
    func unresolvedFootnoteReference(_ row: HealCase) { row.check(.unresolvedFootnoteReference) }

    @Test(arguments: HealTables.openFenceLineNewline)
    func openFenceLineNewline(_ row: HealCase) { row.check(.openFenceLineNewline) }

    @Test func footnoteOpenerScan() {
      #expect(HealedDisplayMarks.containsFootnoteOpener("a[^1]"))
      #expect(!HealedDisplayMarks.containsFootnoteOpener("a^[1]"))
      #expect(!HealedDisplayMarks.containsFootnoteOpener("["))
      #expect(HealedDisplayMarks.hidingFootnoteReferences("x[^a b] y[^c]") == "x[^a b] y")
    }

    /// The byte search for `[^` finds what the character search finds, also where a mark joins
    /// the bracket or the caret, or a prepended character takes the bracket into its cluster.
    @Test func footnoteOpenerSearchMatchesTheCharacterSearch() {
      let pieces = ["[", "^", "]", "a", " ", "\u{301}", "\u{600}", "\r\n", "\n", "é", "👍", "\u{200D}", "日"]
      var generator = SplitMix64(seed: 3)
      for round in 0..<20000 {
        var text = ""
        for _ in 0..<(round % 12) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        let slice = Substring(text)
        #expect(
          HealedDisplayMarks.firstFootnoteOpener(in: slice) == slice.firstRange(of: "[^"), "\(text.debugDescription)")
      }
    }

    /// Healed text without a bracket, an `&` or the separator's byte skips the walk over the
    /// nodes (`HealedDisplayMarks.mayHoldMarks`): it shows what the walk shows, the open fence's
    /// last newline dropped all the same; with any of them it walks.
    @Test func textWithoutBracketsShowsWhatTheWalkShows() {
      let texts = [
        "- item with **bold** and `code`", "| a | b |\n|---|---|\n| c | d", "```swift\nlet x = 1", "```\na\n",
        "    indented\n    code", "日本語の**太字**", "www.example.com and http://x.y/z", "a\u{1}b",
        "&#91;x] text", "[x] text", "text ]", "a &amp; b", "```\n[x]",
      ]
      for text in texts {
        let bytes = Array(text.utf8)
        let parsed = MarkdownDocument(text)
        var skipped = AppliedHealRules()
        var walked = AppliedHealRules()
        let incomplete = !text.hasSuffix("\n")
        let fast = HealedDisplayMarks.apply(
          parsed, source: bytes, incompleteLastLine: incomplete, options: .github, applied: &skipped)
        let slow = HealedDisplayMarks.apply(
          parsed, source: nil, incompleteLastLine: incomplete, options: .github, applied: &walked)
        let holds = text.contains { $0 == "[" || $0 == "]" || $0 == "&" || $0 == "\u{1}" }
        #expect(HealedDisplayMarks.mayHoldMarks(bytes) == holds, "\(text.debugDescription)")
        if !holds {
          #expect(fast.document == slow.document, "\(text.debugDescription)")
          #expect(skipped == walked, "\(text.debugDescription)")
        }
      }
    }
  }
}
