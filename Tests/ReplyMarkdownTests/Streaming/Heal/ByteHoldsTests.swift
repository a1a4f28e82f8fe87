import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let trailingCarriageReturn = [
    HealCase("line one\r", "<p>line one</p>"),
    HealCase("**bold\r", "<p><strong>bold</strong></p>"),
    HealCase("line one\r\nline two", "<p>line one␤line two</p>", applies: false),
  ]

  static let growableGrapheme = [
    HealCase("Parents: 👩", "<p>Parents:</p>"),
    HealCase("🇩", ""),
    HealCase("sake\u{301}", "<p>sak</p>"),
    HealCase("thumbs 👍", "<p>thumbs</p>"),
    HealCase("你好", "<p>你好</p>", applies: false),
    HealCase("caf\u{E9}", "<p>caf\u{E9}</p>", applies: false),
  ]

  static let fenceCloserPrefix = [
    HealCase("```\nwork\n``", "<pre><code>work␤</code></pre>", fence: ASCII.backtick),
    HealCase("```\ncode\n```", "<pre><code>code␤</code></pre>", fence: ASCII.backtick),
    HealCase("~~~\ncode\n   ~", "<pre><code>code␤</code></pre>", fence: ASCII.tilde),
    HealCase("```\ncode\n    ``", "<pre><code>code␤    ``</code></pre>", applies: false, fence: ASCII.backtick),
    HealCase("```\ncode\n``x", "<pre><code>code␤``x</code></pre>", applies: false, fence: ASCII.backtick),
    // A run a blank ended, shorter than the opener's, can never close it (a review).
    HealCase("~~~~\nab\n~~~ ", "<pre><code>ab␤~~~ </code></pre>", applies: false, fence: ASCII.tilde),
    HealCase("~~~~\nab\n~~~~ ", "<pre><code>ab␤</code></pre>", fence: ASCII.tilde),
    HealCase("~~~~\nab\n ~~~", "<pre><code>ab␤</code></pre>", fence: ASCII.tilde),
    // The open part's own fence, found by a scan of its lines that the parse confirms.
    HealCase("```\nwork\n``", "<pre><code>work␤</code></pre>"),
    HealCase("- a\n\n  ~~~\n  b\n  ~~", "<ul><li><p>a</p><pre><code>b␤</code></pre></li></ul>"),
    // A fence line the scan finds, where the parse finds none open: in a raw HTML block, or in a
    // list item that has ended. The last line is a paragraph's, healed (fuzz seed 1354: the
    // paragraph's markers showed raw).
    HealCase("<div>\n```\n\n_a", "<div>␤```␤<p><em>a</em></p>", applies: false),
    HealCase("   <div>\n ``` <== *a\n\n_a _a", "   <div>␤ ``` <== *a␤<p><em>a <em>a</em></em></p>", applies: false),
    HealCase(
      "1) x\n   ```\n\n   y\nz `c", "<ol><li>x␤<pre><code>␤y␤</code></pre></li></ol><p>z <code>c</code></p>",
      applies: false),
    // In the raw HTML block still open, the last line is held as any line of backticks is.
    HealCase("<div>\n```\n``", "<div>␤```", applies: false),
  ]

  static let trailingMarkers = [
    HealCase("word ", "<p>word</p>"),
    HealCase("Ends on a star *", "<p>Ends on a star</p>"),
    HealCase("a **", "<p>a</p>"),
    HealCase("line\\", "<p>line</p>"),
    HealCase("hard break  ", "<p>hard break</p>"),
    HealCase("code `", "<p>code</p>"),
    HealCase("**bold**", "<p><strong>bold</strong></p>", applies: false),
    // Markers before a received blank are final: only the blank goes, and a `]` there waits
    // for no `(`.
    HealCase("intra_word_ ", "<p>intra_word_</p>"),
    HealCase("a lone * ", "<p>a lone *</p>"),
    HealCase("see [the docs] ", "<p>see <a pending>the docs</a></p>"),
    HealCase("code ` ", "<p>code</p>"),
    // A line of backticks after a line ending in a backtick run: the runs and the line break
    // between them are held, so no closer starts a line (there it made a fence opener whose
    // info string was the pending link's placeholder; fuzz seed 1249).
    HealCase("[```\n`\n", ""),
    HealCase("a *b ```\n`\n", "<p>a <em>b</em></p>"),
  ]
}

extension StreamingHealTests {
  @Suite struct ByteHoldsTests {
    @Test(arguments: HealTables.trailingCarriageReturn)
    func trailingCarriageReturn(_ row: HealCase) { row.check(.trailingCarriageReturn) }

    @Test(arguments: HealTables.growableGrapheme)
    func growableGrapheme(_ row: HealCase) { row.check(.growableGrapheme) }

    @Test(arguments: HealTables.fenceCloserPrefix)
    func fenceCloserPrefix(_ row: HealCase) { row.check(.fenceCloserPrefix) }

    @Test(arguments: HealTables.trailingMarkers)
    func trailingMarkers(_ row: HealCase) { row.check(.trailingMarkers) }

    @Test func growableGraphemeNeverCutsBelowTheFloor() {
      var text = Array("ab👨".utf8)
      #expect(!ByteHolds.trimGrowableGrapheme(&text, floor: text.count))
      #expect(ByteHolds.trimGrowableGrapheme(&text, floor: 0))
      #expect(text == Array("ab".utf8))
    }

    @Test func trailingMarkersStopAtTheFloor() {
      var text = Array("**a**".utf8)
      #expect(ByteHolds.trimTrailingMarkers(&text, floor: 4) == 4)
      #expect(text == Array("**a*".utf8))
    }
  }
}
