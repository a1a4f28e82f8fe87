import Testing

@testable import ReplyMarkdown

extension HealTables {
  /// A run of `count` backticks.
  static func ticks(_ count: Int) -> String { String(repeating: "`", count: count) }

  static let unterminatedInlineTag = [
    HealCase("Wrap it in <section", "<p>Wrap it in</p>"),
    HealCase("when n <", "<p>when n</p>"),
    HealCase("note <!-- draft remark", "<p>note</p>"),
    HealCase("see <https://exa", "<p>see</p>"),
    HealCase("a <b>bold</b>", "<p>a <b>bold</b></p>", applies: false),
    HealCase("a < b", "<p>a &lt; b</p>", applies: false),
    HealCase("mail <me@example.org", "<p>mail</p>"),
    HealCase("data <![CDA", "<p>data</p>"),
    HealCase("a <b]c> d", "<p>a &lt;b]c&gt; d</p>", applies: false),
    // A declaration, processing instruction or comment may hold `<`: it waits for its `>` (fuzz
    // seed 1214: the `>` of the separator between two `~` closers ended `<!D <!!`, and the
    // separator showed).
    HealCase("x <!D <b", "<p>x</p>"),
    HealCase("a <?php echo <b", "<p>a</p>"),
    HealCase("~~a ~~b <!D <!!", "<p><s>a <s>b</s></s></p>"),
    HealCase("a <!D <b> c *d", "<p>a <!D <b> c <em>d</em></p>", applies: false),
    // A comment ends at `-->`, a processing instruction at `?>`, not at the first `>` (the closer
    // of the backtick after `<!--a>~` showed).
    HealCase("x <!--a>~`", "<p>x</p>"),
    HealCase("x <?a>b *c", "<p>x</p>"),
    HealCase("x <?a>b?> *c", "<p>x <?a>b?> <em>c</em></p>", applies: false),
    // A run of more than 80 backticks is text to cmark-gfm, and opens no code span that would hide
    // the declaration after it (fuzz seed 1414: the separator between two `_` closers ended the
    // declaration, and showed under `unsafe`). The declaration is cut; the run waits as trailing
    // markers.
    HealCase("_o _" + ticks(85) + "<!D !", "<p><em>o</em></p>"),
  ]

  static let partialEntity = [
    HealCase("Tom &amp", "<p>Tom</p>"),
    HealCase("x &#12", "<p>x</p>"),
    HealCase("Tom &amp; Jerry", "<p>Tom &amp; Jerry</p>", applies: false),
    HealCase("R&D team", "<p>R&amp;D team</p>", applies: false),
  ]

  static let imageHiddenUntilComplete = [
    HealCase("![banner](./img/bann", ""),
    HealCase("See ![alt", "<p>See</p>"),
    HealCase("See ![alt][ref", "<p>See</p>"),
    HealCase("![a](b.png)", "<p><img src=\"b.png\" alt=\"a\" /></p>", applies: false),
    // `<![` that cannot begin `<![CDATA[`, and `<a]`, are text to cmark-gfm: the `![` after them
    // opens an image.
    HealCase("x <![ y", "<p>x</p>"),
    HealCase("[<a]![>", "<p><a pending>&lt;a</a></p>"),
    // The image before it shows as it does with nothing after the blank: the blank the cut left
    // last was received, and no `(` may follow the `]` over it (fuzz seed 1365: `![foo] ![[![`
    // showed nothing).
    HealCase("![foo] ![a", "<p>!<a pending>foo</a></p>"),
    HealCase("x ![foo] ![[![[a", "<p>x !<a pending>foo</a></p>"),
    HealCase("[x]: /u\n\n![x] ![a", "<p><img src=\"/u\" alt=\"x\" /></p>"),
  ]

  static let emptyLinkHidden = [
    HealCase("Text [", "<p>Text</p>"),
    HealCase("Text [ ", "<p>Text</p>"),
    HealCase("Text [a", "<p>Text <a pending>a</a></p>", applies: false),
  ]

  static let pendingLinkShowsText = [
    HealCase("Try [the demo](https://dem", "<p>Try <a pending>the demo</a></p>"),
    HealCase("[big [inner] words](unfinish", "<p><a pending>big [inner] words</a></p>"),
    HealCase("Open [menu and **save", "<p>Open <a pending>menu and <strong>save</strong></a></p>"),
    HealCase("Read [notes](https://example.org/x_y", "<p>Read <a pending>notes</a></p>"),
    HealCase("See [text][lab", "<p>See <a pending>text</a></p>"),
    // What the link text left open closes before its `]` (a review: `[a <em>b]</em>` showed).
    HealCase("[a *b](http://x", "<p><a pending>a <em>b</em></a></p>"),
    HealCase("See [a *b][lab", "<p>See <a pending>a <em>b</em></a></p>"),
    HealCase("x [^a *b]", "<p>x <a pending>^a <em>b</em></a></p>"),
    // The markers the cut leaves last were read with the `]` after them: they wait (a review:
    // `[*a **](` showed `*a ***`).
    HealCase("[*a **](", "<p><a pending><em>a</em></a></p>"),
    HealCase("See [a *b *](x", "<p>See <a pending>a <em>b</em></a></p>"),
    HealCase("[*a ~~](", "<p><a pending><em>a</em></a></p>"),
    // Only the innermost open bracket closes: the ones before it stay text (cmark-gfm would read
    // them as text once a link forms inside them, closers and all).
    HealCase("x [y [z w", "<p>x [y <a pending>z w</a></p>"),
    HealCase("a [[[[[deep", "<p>a [[[[<a pending>deep</a></p>"),
    HealCase("x [a *b [c", "<p>x [a <em>b <a pending>c</a></em></p>"),
    HealCase("](dangling", "<p>](dangling</p>", applies: false),
    // A destination's `[` is no link's opener, also after a label spread over lines (fuzz seed
    // 1368, older than 30901be: `[a`, then `b]:[` and `]`, showed `[a b]` as a pending link and
    // `:`, the lines being a definition and `]` to cmark-gfm). A label over more lines than the
    // healer looks at starts the inline content.
    HealCase("[a\nb]:[\n]", "<p>]</p>", applies: false),
    HealCase("[a\nb\nc]:\n[\n]", "<p>]</p>", applies: false),
    HealCase("[^1]:\n[^1\nx]:[\n]", "<p>]</p>", applies: false),
    HealCase("[a]:[\n]", "<p>]</p>", applies: false),
    HealCase("[a\nb] [x\n]", "<p><a pending>a␤b</a> <a pending>x</a></p>"),
    // Inside an address the autolink extension extends to the next whitespace, a bracket gets no
    // closer: it would become part of the address (fuzz seed 1207, `www.)[a`).
    HealCase("www.)[a", "<p><a href=\"http://www.)%5Ba\">www.)[a</a></p>", applies: false),
    HealCase("see https://x.org/[a", "<p>see <a href=\"https://x.org/%5Ba\">https://x.org/[a</a></p>", applies: false),
    // A bracket inside an address is that link's text, and opens nothing the next address would
    // be inside (fuzz seed 1284).
    HealCase(
      "www.[\nwww.)[a", "<p><a href=\"http://www.%5B\">www.[</a><a href=\"http://www.)%5Ba\">www.)[a</a></p>",
      applies: false),
    HealCase("[www.x\nwww.)[a", "<p>[www.x␤www.)<a pending>a</a></p>"),
    // After a quote's markers on a later line, which the parse reads without them (fuzz seed 1396).
    HealCase(
      ">z\n>www.)[a", "<blockquote><p>z␤<a href=\"http://www.)%5Ba\">www.)[a</a></p></blockquote>", applies: false),
    HealCase(
      "> z\n> > www.)[a",
      "<blockquote><p>z</p><blockquote><p><a href=\"http://www.)%5Ba\">www.)[a</a></p></blockquote></blockquote>",
      applies: false),
    HealCase("> z\n>x>www.)[a", "<blockquote><p>z␤x&gt;www.)<a pending>a</a></p></blockquote>"),
    // Where the inline content starts after a quoted paragraph's definitions (fuzz seed 1399).
    HealCase(
      ">[x]:z\n>www.)[a", "<blockquote><p><a href=\"http://www.)%5Ba\">www.)[a</a></p></blockquote>",
      applies: false),
    HealCase("[x]:z\n    >www.)[a", "<p>&gt;www.)<a pending>a</a></p>"),
    // The content's first line lazy, the paragraph's first quoted (fuzz seed 1402).
    HealCase(
      ">[x]:z\n**\n>www.)[r", "<blockquote><p>**␤<a href=\"http://www.)%5Br\">www.)[r</a></p></blockquote>",
      applies: false),
    HealCase(
      "> a\nb\n>www.)[r", "<blockquote><p>a␤b␤<a href=\"http://www.)%5Br\">www.)[r</a></p></blockquote>",
      applies: false),
    HealCase("[x]:z\n**\n    >www.)[r", "<p>**␤&gt;www.)<a pending>r</a></p>"),
    // Outside a quote, a later line's `>` is text (the line would otherwise open a quote).
    HealCase("z\n    >www.)[a", "<p>z␤&gt;www.)<a pending>a</a></p>"),
    HealCase("www.x.org [a", "<p><a href=\"http://www.x.org\">www.x.org</a> <a pending>a</a></p>"),
    // A vertical tab or form feed does not end the address, as other whitespace does (fuzz seed
    // 1225: the closer showed inside the link, placeholder destination and all).
    HealCase("www.)\u{0B}[a", "<p><a href=\"http://www.)%0B%5Ba\">www.)\u{0B}[a</a></p>", applies: false),
    HealCase("www.x\u{0C}y[a", "<p><a href=\"http://www.x%0Cy%5Ba\">www.x\u{0C}y[a</a></p>", applies: false),
    HealCase("www.x.org\t[a", "<p><a href=\"http://www.x.org\">www.x.org</a>\t<a pending>a</a></p>"),
    // Not when a bracket is open before the address: cmark-gfm links no address inside one.
    HealCase("See [a www.x.org/[b", "<p>See [a www.x.org/<a pending>b</a></p>"),
    // However long the word: an address is read forward from its start (fuzz seed 1208 found a
    // long one when the scanner looked back from the bracket), and a long word that is none keeps
    // its bracket.
    HealCase(
      "See " + String(repeating: "x", count: 5000) + "[ab",
      "<p>See " + String(repeating: "x", count: 5000) + "<a pending>ab</a></p>"),
    HealCase(
      "www." + String(repeating: "x", count: 5000) + "[a",
      "<p><a href=\"http://www.\(String(repeating: "x", count: 5000))%5Ba\">www."
        + String(repeating: "x", count: 5000) + "[a</a></p>", applies: false),
    // Not where the extension links nothing: a `www.` inside a word, or one whose last two
    // segments hold `_`; a scheme other than `http`, `https` or `ftp`.
    HealCase("awww.x.org/[a", "<p>awww.x.org/<a pending>a</a></p>"),
    HealCase("www.a_b.c [d", "<p>www.a_b.c <a pending>d</a></p>"),
    HealCase("x www.a_www.b [d", "<p>x www.a_<a href=\"http://www.b\">www.b</a> <a pending>d</a></p>"),
    HealCase("xhttp://a/[b", "<p>xhttp://a/<a pending>b</a></p>"),
    // A destination nesting more parentheses than cmark-gfm reads is no inline link (fuzz seed
    // 1212): the text after the brackets shows, and `[a]` waits as a reference its definition may
    // still make a link (``HealRule/pendingReferenceLink``).
    HealCase(
      "See [a](" + String(repeating: "(", count: 32) + "b", "<p>See <a pending>a</a></p>"),
    HealCase(
      "See [a](" + String(repeating: "(", count: 33) + "b",
      "<p>See <a pending>a</a>(" + String(repeating: "(", count: 33) + "b</p>", applies: false),
  ]

  static let inlineClosersInnermostFirst = [
    HealCase("Say it **loud", "<p>Say it <strong>loud</strong></p>"),
    // What an address takes (markers, backticks) opens nothing: closers written for it showed
    // after or inside its link (a trial). Markers after it still count.
    HealCase("www.*a", "<p><a href=\"http://www.*a\">www.*a</a></p>", applies: false),
    HealCase("www.`a", "<p><a href=\"http://www.%60a\">www.`a</a></p>", applies: false),
    HealCase("see http://u)*b", "<p>see <a href=\"http://u)*b\">http://u)*b</a></p>", applies: false),
    HealCase("*www.a.org", "<p><em><a href=\"http://www.a.org\">www.a.org</a></em></p>"),
    HealCase("(www.a.org *b", "<p>(<a href=\"http://www.a.org\">www.a.org</a> <em>b</em></p>"),
    // A final `~` (the line ended) waits: a `~~` closer after it would make a run of three that
    // closes nothing, and one after `~~ ` (its blank trimmed) would make it an opener (a trial).
    HealCase("a ~~b~\n", "<p>a <s>b</s></p>"),
    HealCase("~~a ~~b~\n", "<p><s>a <s>b</s></s></p>"),
    // A final backslash would escape the closer: it waits, and what it leaves is scanned again
    // (`a *b *` then holds its last `*`); in code it escapes nothing and stays (a review).
    HealCase("a *b\\\n", "<p>a <em>b</em></p>"),
    HealCase("a *b *\\\n", "<p>a <em>b</em></p>"),
    HealCase("a `\\ ", "<p>a <code>\\</code></p>"),
    // Nor does a closer join a final `*` or `_` into one run, or follow tildes a space precedes
    // (cmark-gfm reads its neighbour past them): a review. The final run waits.
    HealCase("~~a ~ ", "<p><s>a</s></p>"),
    // A backslash the line's end or a held `<` leaves last waits too (a trial).
    HealCase("> # *a\\\n", "<blockquote><h1><em>a</em></h1></blockquote>"),
    HealCase("*a\\\n<", "<p><em>a</em></p>"),
    HealCase("a *b\n*\n", "<p>a <em>b</em></p>"),
    HealCase("*a ~\n", "<p><em>a</em></p>"),
    HealCase("*a ~~ ", "<p><em>a</em></p>"),
    // Nor on a line of quote markers a held `<` left, nor joined to the opener's own backtick (a
    // trial).
    HealCase("> > *a\n> > <\n", "<blockquote><blockquote><p><em>a</em></p></blockquote></blockquote>"),
    HealCase(">~~a\n><", "<blockquote><p><s>a</s></p></blockquote>"),
    HealCase("a`\n\\", "<p>a<code> </code></p>"),
    // A paragraph's leading definitions are no inline content: their markers get no closer (a
    // trial: `See it*`).
    HealCase("[docs]: /*draft\nSee it", "<p>See it</p>", applies: false),
    HealCase("[d]: /u \"*t\"\n[e]: `x\nSee *y", "<p>See <em>y</em></p>"),
    // Nor a destination on the line after the label, or a title on a line of its own.
    HealCase("[d]: /u\n\"*t\"\nSee it", "<p>See it</p>", applies: false),
    HealCase("[d]:\n/u \"*t\"\nSee it", "<p>See it</p>", applies: false),
    HealCase("[d]:\n/u\n  '*t'\nSee *y", "<p>See <em>y</em></p>"),
    HealCase("[d]: /u\n'*t\n\"y'\nSee *y", "<p>See <em>y</em></p>"),
    // A line starting with a quote after a closed title or a line of text is no definition's: it
    // is not probed, and the budget of probes is not spent before the emphasis after it (fuzz
    // seed 1417).
    HealCase("[foo]: /url\nw\n\"title\"\n\"*rl\n", "<p>w␤&quot;title&quot;␤&quot;<em>rl</em></p>"),
    // Every line of a title left open is the title's, whatever it starts with, and a title may
    // open after the destination (a review: the title's code span showed a closer after `*x y`).
    HealCase("[d]: /u\n\"a\n(`b)\n\"\n*x y", "<p><em>x y</em></p>"),
    HealCase("[d]:\n/u 'a\n\"`b\"\n'\n*x y", "<p><em>x y</em></p>"),
    HealCase("[d]: /u\n\"a\nb`\n\"\n*x y", "<p><em>x y</em></p>"),
    HealCase("[d]: /u 'a\nb`\n'\n*x y", "<p><em>x y</em></p>"),
    // Nor a definition whose label spreads over lines (fuzz seed 1368, older than 30901be).
    HealCase("[docs\nnew]: /*draft\nSee it", "<p>See it</p>", applies: false),
    HealCase("[a\nb\nc]:\n/u \"*t\"\nSee *y", "<p>See <em>y</em></p>"),
    // Closers of two openers of one character stay two runs.
    HealCase("*_a._b.", "<p><em><em>a.<em>b.</em></em></em></p>"),
    HealCase("a ~~b \\\r\n", "<p>a <s>b</s></p>"),
    HealCase("a *b\\\\\n", "<p>a <em>b\\</em></p>"),
    // Beside tildes, cmark-gfm reads a `*` or `_` run's neighbours past them (`a~_b_` is text).
    HealCase("a~_b", "<p>a~_b</p>", applies: false),
    HealCase("a~~**.", "<p>a~~**.</p>", applies: false),
    HealCase("~*a", "<p>~<em>a</em></p>"),
    // Punctuation as cmark-gfm's table has it (Unicode 7.0): U+2E4F came later and is a letter to
    // it, so `_` after it is intraword and opens nothing; U+166D was punctuation then, so `_` after
    // it opens.
    HealCase("\u{2E4F}_a", "<p>\u{2E4F}_a</p>", applies: false),
    HealCase("\u{166D}_a", "<p>\u{166D}<em>a</em></p>"),
    // The line ended and the next may continue the paragraph: closers go before the line break
    // (a chunk ending with one showed the markers raw).
    HealCase("a **b\n", "<p>a <strong>b</strong></p>"),
    // Unicode spaces end the content as spaces do: a closer after one closes nothing (a trial:
    // `*a` and NBSP showed `*a *`; an ideographic space is common in Japanese text).
    HealCase("*a\u{A0}", "<p><em>a</em></p>"),
    HealCase("~~a\u{3000}", "<p><s>a</s></p>"),
    HealCase("**a\u{2009}\u{202F}", "<p><strong>a</strong></p>"),
    // And before a trailing marker, which waits as it does after a space (`~'`, U+3000, `~`
    // showed both tildes as text, and the words after them added no heal).
    HealCase("~~'\u{3000}~~", "<p><s>'</s></p>"),
    HealCase("*a\u{A0}*", "<p><em>a</em></p>"),
    HealCase("**a\u{3000}_\u{A0}", "<p><strong>a</strong></p>"),
    // A form feed is whitespace to flanking too (a review: `*a` and a feed showed `*a`, the feed
    // and a `*`).
    HealCase("*a\u{0C}", "<p><em>a</em></p>"),
    HealCase("~~a\u{0C}~", "<p><s>a</s></p>"),
    HealCase("> a *b\r\n", "<blockquote><p>a <em>b</em></p></blockquote>"),
    HealCase("a `co\n", "<p>a <code>co</code></p>"),
    HealCase("Say it ***very loud", "<p>Say it <em><strong>very loud</strong></em></p>"),
    HealCase("Say it __firmly", "<p>Say it <strong>firmly</strong></p>"),
    HealCase("**firm _soft", "<p><strong>firm <em>soft</em></strong></p>"),
    HealCase("**call `run", "<p><strong>call <code>run</code></strong></p>"),
    HealCase(
      "**a *b `c ~~d", "<p><strong>a <em>b <code>c ~~d</code></em></strong></p>"),
    HealCase("~~gone with **force", "<p><s>gone with <strong>force</strong></s></p>"),
    HealCase("~~a ~~b", "<p><s>a <s>b</s></s></p>"),
    HealCase("~~a ~~b ~~c", "<p><s>a <s>b <s>c</s></s></s></p>"),
    HealCase("Call ``bar", "<p>Call <code>bar</code></p>"),
    // A backslash before a space escapes nothing: the space ends the destination, and `(c\ d)`
    // is no link tail (a review: the emphasis inside the bracket showed its `*` as text).
    HealCase("[*b](c\\ d)", "<p>[<em>b](c\\ d)</em></p>"),
    HealCase("[*b](c\\\nd)", "<p>[<em>b](c<br />␤d)</em></p>"),
    // cmark-gfm's longest code span delimiter is 80 backticks; a longer run is text.
    HealCase("Call " + ticks(80) + "bar", "<p>Call <code>bar</code></p>"),
    HealCase("Call " + ticks(81) + "bar *b", "<p>Call " + ticks(81) + "bar <em>b</em></p>"),
    // After a line of one tilde a `~~` closer would make a fence opener (fuzz seed 1280).
    HealCase("~~a\n~\n", "<p><s>a</s></p>"),
    HealCase("[~~>\n~\n", "<p><a pending><s>&gt;</s></a></p>"),
    HealCase("- [~~>\n  ~\n", "<ul><li><a pending><s>&gt;</s></a></li></ul>"),
    // Only from a line of the fence character alone: a code span's closer after other text gets no
    // separator, which would show inside the span (a review).
    HealCase("`>", "<p><code>&gt;</code></p>"),
    HealCase("x\n``>", "<p>x␤<code>&gt;</code></p>"),
    HealCase("`` >", "<p><code> &gt;</code></p>"),
    HealCase("(*\"quoted", "<p>(<em>&quot;quoted</em></p>"),
    HealCase("6 * 7 * 8", "<p>6 * 7 * 8</p>", applies: false),
    HealCase("`__init`", "<p><code>__init</code></p>", applies: false),
    HealCase("**start\n\nThen more", "<p>**start</p><p>Then more</p>", applies: false),
  ]

  static let wordReopensEmphasis = [
    HealCase("*foo*bar*baz", "<p><em>foo</em>bar<em>baz</em></p>"),
    HealCase("**foo**bar**baz", "<p><strong>foo</strong>bar<strong>baz</strong></p>"),
    HealCase("~~foo~~bar~~baz", "<p><s>foo</s>bar<s>baz</s></p>"),
    HealCase("a*b*c*d", "<p>a<em>b</em>c<em>d</em></p>"),
    HealCase("*up* down*left", "<p><em>up</em> down*left</p>", applies: false),
    HealCase("test*123", "<p>test*123</p>", applies: false),
    HealCase("_foo_bar_baz", "<p><em>foo_bar_baz</em></p>", applies: false),
  ]

  static let wideScriptOpensEmphasis = [
    HealCase("这是**重要", "<p>这是<strong>重要</strong></p>"),
    HealCase("これは*大事", "<p>これは<em>大事</em></p>"),
    HealCase("中文~~删除", "<p>中文<s>删除</s></p>"),
    HealCase("abc**中文", "<p>abc<strong>中文</strong></p>"),
    HealCase("2*3", "<p>2*3</p>", applies: false),
    HealCase("中文__强调", "<p>中文__强调</p>", applies: false),
    // Not left-flanking (punctuation after it, none before): no opener, as cmark-gfm reads it.
    HealCase("这是**“重要", "<p>这是**“重要</p>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct InlineHealScannerTests {
    @Test(arguments: HealTables.unterminatedInlineTag)
    func unterminatedInlineTag(_ row: HealCase) { row.check(.unterminatedInlineTag) }

    @Test(arguments: HealTables.partialEntity)
    func partialEntity(_ row: HealCase) { row.check(.partialEntity) }

    @Test(arguments: HealTables.imageHiddenUntilComplete)
    func imageHiddenUntilComplete(_ row: HealCase) { row.check(.imageHiddenUntilComplete) }

    @Test(arguments: HealTables.emptyLinkHidden)
    func emptyLinkHidden(_ row: HealCase) { row.check(.emptyLinkHidden) }

    @Test(arguments: HealTables.pendingLinkShowsText)
    func pendingLinkShowsText(_ row: HealCase) { row.check(.pendingLinkShowsText) }

    @Test(arguments: HealTables.inlineClosersInnermostFirst)
    func inlineClosersInnermostFirst(_ row: HealCase) { row.check(.inlineClosersInnermostFirst) }

    /// A Unicode space the cut before an arrived `]` leaves last is trimmed before the closers as a
    /// space is (a review: `x [*a`, U+3000, `]` showed the `*` closer as text after the space).
    @Test(arguments: ["x [*a\u{3000}]", "x [*a\u{A0}][", "x [~~a\u{3000}](h", "- [*a\u{2003}](", "> x [**a\u{3000}]"])
    func unicodeSpaceBeforeABracketIsTrimmedAsASpace(input: String) {
      let spaced = HealCase(
        input.replacingOccurrences(of: "\u{3000}", with: " ").replacingOccurrences(of: "\u{A0}", with: " ")
          .replacingOccurrences(of: "\u{2003}", with: " "), "")
      let shown = HealCase(input, "").heal().show
      #expect(
        shown.replacingOccurrences(of: "\u{3000}", with: " ").replacingOccurrences(of: "\u{A0}", with: " ")
          .replacingOccurrences(of: "\u{2003}", with: " ") == spaced.heal().show)
    }

    @Test(arguments: HealTables.wordReopensEmphasis)
    func wordReopensEmphasis(_ row: HealCase) { row.check(.wordReopensEmphasis) }

    @Test(arguments: HealTables.wideScriptOpensEmphasis)
    func wideScriptOpensEmphasis(_ row: HealCase) { row.check(.wideScriptOpensEmphasis) }

    /// The scanner's punctuation is cmark-gfm's, scalar by scalar: for every scalar of a P
    /// category in this Swift's Unicode, and U+166D, a `*` between `a` and it opens emphasis
    /// exactly when the scanner calls it no punctuation.
    @Test func punctuationIsCmarkGFMs() {
      var scalars: [Unicode.Scalar] = [Unicode.Scalar(0x166D)!, Unicode.Scalar(0x2E4F)!, "é", "中", "\u{2010}"]
      for value in UInt32(0x80)...0x10FFFF {
        guard let scalar = Unicode.Scalar(value) else { continue }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
          .finalPunctuation, .otherPunctuation:
          scalars.append(scalar)
        default: continue
        }
      }
      #expect(scalars.count > 800)
      var text = ""
      for scalar in scalars { text += "a*\(Character(scalar))x*\n\n" }
      let document = MarkdownDocument(text)
      let paragraphs = Array(document.topLevelBlocks)
      #expect(paragraphs.count == scalars.count)
      var mismatches: [String] = []
      for (scalar, paragraph) in zip(scalars, paragraphs) {
        let opens = document.children(of: paragraph).contains { child in
          if case .emphasis = document.nodes[child].kind { return true }
          return false
        }
        if opens == InlineHealScanner.isPunctuation(scalar) { mismatches.append(String(scalar.value, radix: 16)) }
      }
      #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
    }

    /// The scalar beside a delimiter run is decoded without a string, as a string decodes it:
    /// every sequence of up to three bytes drawn from lead, continuation, ASCII and invalid bytes
    /// (overlong, surrogate and out-of-range leads among them) gives the first scalar that
    /// `String(decoding:as:)` gives, U+FFFD where the bytes are no UTF-8.
    @Test func scalarsDecodeAsStringsDo() {
      let samples: [UInt8] = [
        0x00, 0x2A, 0x61, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE3, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
        0xFF,
      ]
      var checked = 0
      var mismatches: [[UInt8]] = []
      for first in samples {
        for second in [nil] + samples.map(Optional.some) {
          for third in [nil] + samples.map(Optional.some) where second != nil || third == nil {
            let bytes = [first, second, third].compactMap { $0 }
            let expected = String(decoding: bytes, as: UTF8.self).unicodeScalars.first
            if InlineHealScanner.firstScalar(bytes[...]) != expected { mismatches.append(bytes) }
            checked += 1
          }
        }
      }
      for text in ["中", "😀", "é", "\u{2003}"] {
        let bytes = Array(text.utf8)
        #expect(InlineHealScanner.firstScalar(bytes[...]) == text.unicodeScalars.first)
      }
      #expect(InlineHealScanner.firstScalar([][...]) == nil)
      #expect(checked > 7_000)
      #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// What cmark-gfm makes of the `<` that follows `x` in `x` + `tag`: the length of the raw
    /// HTML or autolink it starts, 0 for text.
    static func cmarkMatch(_ tag: String) -> Int {
      let document = MarkdownDocument("x" + tag)
      guard let paragraph = document.topLevelBlocks.first(where: { _ in true }) else { return 0 }
      let children = Array(document.children(of: paragraph))
      guard children.count > 1, case .text(let lead) = document.nodes[children[0]].kind, lead == "x" else { return 0 }
      switch document.nodes[children[1]].kind {
      case .inlineHTML(let html): return html.utf8.count
      case .link:
        guard let range = document.nodes[children[1]].range, range.start.line == 1, range.start.column == 2,
          range.end.line == 1
        else { return 0 }
        return range.end.column - 1
      default: return 0
      }
    }

    /// Tags, comments, processing instructions, declarations, CDATA and autolinks, made of
    /// fragments at random and by hand: the scanner's verdict on each matches cmark-gfm's parse
    /// (complete where cmark-gfm's construct ends; text or still arriving where it makes none), and
    /// what it calls text stays text whatever ending follows.
    @Test func tagsAreReadAsCmarkGFMReadsThem() {
      var tags = [
        "<!--a>~`-->", "<!---->", "<!-->", "<!--->", "<!----x-->", "<!--a--b-->", "<!--a-b-->", "<!-- a -- >",
        "<?a>b?>", "<?a??>", "<?a??>?>", "<![CDATA[a>b]]>", "<![CDATA[a]]]>", "<![CDATA[a]]]>]]>", "<!DOCTYPE html>",
        "<!doctype html>", "<!D <b>", "<!D>", "<a title=\">\">", "<a title='<b>'>", "<a b=c/>", "<a/>", "<a / >",
        "<a b = \"c\" d>", "<a b=\"c\"d>", "<a b c=d e>", "<a_b>", "<a :b>", "<a 1b>", "</a >", "</a b>", "</1a>",
        "<a\nb=c>", "<http://a>", "<1a:b>", "<a:b>", "<ab:c d>", "<a+b.c-d:x>", "<a@b.c>", "<a/b@c.d>", "<!a@b.c>",
        "<a@-b.c>", "<a@b-.c>", "<a@b..c>", "<a@>", "<@b.c>", "<a@b.c-d>", "<x@\(String(repeating: "b", count: 64))>",
        "<x@\(String(repeating: "b", count: 63))>", "<\(String(repeating: "a", count: 32)):x>",
        "<\(String(repeating: "a", count: 33)):x>", "<a\u{7F}b:c\u{7F}>", "<a href=x`y>", "<a b='c'd>",
      ]
      let fragments = [
        "<", "!", "-", "--", ">", "?", "[CDATA[", "]", "]]", "a", "B", "DOCTYPE", " ", "\"", "'", "=", "/", ":", "@",
        ".",
        "b-c", "`", "x1", "\t", "\na",
      ]
      let starts = ["<", "<!", "<!--", "<?", "</", "<![CDATA[", "<a", "<A", "<!A", "<x "]
      var random: UInt64 = 7
      func next(_ bound: Int) -> Int {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((random >> 33) % UInt64(bound))
      }
      for _ in 0..<3000 {
        tags.append(starts[next(starts.count)] + (0...next(7)).map { _ in fragments[next(fragments.count)] }.joined())
      }
      let endings = [">", "-->", "?>", "]]>", "\">", "'>", "@a.b>", ":x>", " a>"]
      var mismatches: [String] = []
      for tag in tags {
        let bytes = Array(("x" + tag).utf8)
        let verdict = InlineHealScanner.htmlOrAutolink(bytes, at: 1, end: bytes.count)
        let match = Self.cmarkMatch(tag)
        switch verdict {
        case .complete(let end) where end - 1 == match: continue
        case .literal where match == 0:
          if let ending = endings.first(where: { Self.cmarkMatch(tag + $0) != 0 }) {
            mismatches.append(
              "\(tag.debugDescription) is text, but with \(ending.debugDescription) cmark-gfm reads a tag")
          }
          continue
        case .incomplete where match == 0: continue
        default: mismatches.append("\(tag.debugDescription): \(verdict), cmark-gfm \(match)")
        }
      }
      #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(12).joined(separator: "; "))")
    }

    // MARK: The scanner on its own

    /// A scanner's result for `text`, scanning all of it.
    static func scan(_ text: String, options: ParseOptions = StreamingHarness.caseOptions)
      -> (InlineHealScanner.Result, [HealRule])
    {
      let bytes = Array(text.utf8)
      let scanner = InlineHealScanner(
        bytes: bytes, start: 0, end: bytes.count, doubleTildeOnly: options.contains(.strikethroughDoubleTilde),
        strikethrough: options.contains(.strikethrough))
      var applied = AppliedHealRules()
      let result = scanner.run(applied: &applied)
      return (result, applied.rules)
    }

    static func closers(_ text: String) -> InlineHealScanner.Result {
      .heal(truncateAt: nil, closers: Array(text.utf8))
    }

    /// A pending link's closer; a `]` that arrived is cut and written again after the closers of
    /// what its text left open.
    static let pending = Array("](".utf8) + InlineHealScanner.pendingDestination + Array(")".utf8)

    struct ScanRow: Sendable, CustomTestStringConvertible {
      let input: String
      let result: InlineHealScanner.Result
      let rules: [HealRule]
      var testDescription: String { input.debugDescription }
    }

    static let scanRows: [ScanRow] = [
      ScanRow(input: "plain text", result: closers(""), rules: []),
      ScanRow(input: "**bold", result: closers("**"), rules: [.inlineClosersInnermostFirst]),
      // Two closers of one character stay two runs (``InlineHealScanner/closerSeparator``).
      ScanRow(
        input: "**b *i",
        result: .heal(truncateAt: nil, closers: Array("*".utf8) + InlineHealScanner.closerSeparator + Array("**".utf8)),
        rules: [.inlineClosersInnermostFirst]),
      ScanRow(input: "**b `c", result: closers("`**"), rules: [.inlineClosersInnermostFirst]),
      ScanRow(input: "`a` *b", result: closers("*"), rules: [.inlineClosersInnermostFirst]),
      ScanRow(input: "*foo*bar*baz", result: closers("*"), rules: [.wordReopensEmphasis]),
      // The intraword `*` stays text, but a later closer may match it: no clean point after it.
      ScanRow(
        input: "*up* down*left", result: .heal(truncateAt: nil, closers: [], leavesOpener: true), rules: []),
      ScanRow(input: "~~a~~b~~c", result: closers("~~"), rules: [.wordReopensEmphasis]),
      ScanRow(input: "~a", result: closers(""), rules: []),
      ScanRow(input: "abc <d", result: .cut(4, rule: .unterminatedInlineTag), rules: [.unterminatedInlineTag]),
      ScanRow(input: "a &amp", result: .cut(2, rule: .partialEntity), rules: [.partialEntity]),
      ScanRow(input: "x ![a](b", result: .cut(2, rule: .imageHiddenUntilComplete), rules: [.imageHiddenUntilComplete]),
      ScanRow(input: "x [", result: .cut(2, rule: .emptyLinkHidden), rules: [.emptyLinkHidden]),
      ScanRow(
        input: "[a](b", result: .heal(truncateAt: 2, closers: pending, destination: 4), rules: [.pendingLinkShowsText]),
      // The destination has not started: the scan says where it will.
      ScanRow(
        input: "x [a](", result: .heal(truncateAt: 4, closers: pending, destination: 6), rules: [.pendingLinkShowsText]),
      // A `]` that waits for its `(`: no destination yet.
      ScanRow(input: "x [a]", result: .heal(truncateAt: 4, closers: pending), rules: [.pendingLinkShowsText]),
      ScanRow(
        input: "[*a", result: .heal(truncateAt: nil, closers: Array("*".utf8) + pending),
        rules: [.pendingLinkShowsText, .inlineClosersInnermostFirst]),
      ScanRow(input: "[a](b) *c", result: closers("*"), rules: [.inlineClosersInnermostFirst]),
    ]

    @Test(arguments: scanRows)
    func scanResult(_ row: ScanRow) {
      let (result, rules) = Self.scan(row.input)
      #expect(result == row.result)
      #expect(Set(rules) == Set(row.rules))
    }

    /// Openers past ``InputLimits/maxBrackets`` are text, as the input guard makes them: each
    /// opener costs at most one scan of a destination, so a line of thousands of `[](` costs the
    /// scanner a bounded number of scans, not one to its end per opener (fuzz seed 1212).
    @Test func openersPastTheBracketLimitAreText() {
      let bytes = Array("[a](x) [b](".utf8)
      var scanner = InlineHealScanner(
        bytes: bytes, start: 0, end: bytes.count, doubleTildeOnly: false, strikethrough: true)
      #expect(scanner.run() == .heal(truncateAt: 9, closers: Self.pending, destination: 11))
      scanner.maxBrackets = 1
      #expect(scanner.run() == Self.closers(""))
      #expect(
        InlineHealScanner(bytes: [], start: 0, end: 0, doubleTildeOnly: false, strikethrough: true).maxBrackets
          == InputLimits.default.maxBrackets)
    }

    /// Under GitHub's options a single tilde strikes through, but one left open stays text until
    /// its closer arrives: in replies it is mostly "approximately" or a home directory, which a
    /// closer struck through to the paragraph's end and took back when it ended (a review of
    /// frames). `~~` closes as it arrives; with the double-tilde option one tilde is text anyway.
    @Test func aSingleTildeStaysTextUntilItsCloserArrives() {
      let open = InlineHealScanner.Result.heal(truncateAt: nil, closers: [], leavesOpener: true)
      #expect(Self.scan("~a", options: .github).0 == open)
      #expect(Self.scan("It takes ~5 minutes", options: .github).0 == open)
      #expect(Self.scan("Edit ~/.bashrc", options: .github).0 == open)
      let strong = InlineHealScanner.Result.heal(truncateAt: nil, closers: Array("**".utf8), leavesOpener: true)
      #expect(Self.scan("~a **b", options: .github).0 == strong)
      #expect(Self.scan("~~a", options: .github).0 == Self.closers("~~"))
      #expect(Self.scan("~a").0 == Self.closers(""))
      #expect(Self.scan("~~a", options: []).0 == Self.closers(""))
      // Streamed under GitHub's options: no frame strikes through, and the end is one-shot's.
      let text = "It takes ~5 minutes, see ~/.bashrc.\n\nThen ~a~ and ~~b~~.\n"
      var stream = MarkdownStream(options: .github)
      var html = MarkdownStreamHTMLRenderer()
      var struck: [String] = []
      for (index, character) in text.enumerated() {
        html.apply(stream.feed(String(character)))
        if index < text.count / 2 && html.html.contains("<del>") { struck.append(html.html) }
      }
      html.apply(stream.finish())
      #expect(struck.isEmpty, "\(struck.first ?? "")")
      #expect(html.html == HTMLRenderer().render(MarkdownDocument(text, options: .github)))
    }

    @Test func processEmphasisConsumesMatchedRuns() {
      func run(_ character: UInt8, _ count: Int, open: Bool, close: Bool) -> InlineHealScanner.Delimiter {
        .init(
          position: 0, end: count, character: character, count: count, originalCount: count, canOpen: open,
          canClose: close)
      }
      var delimiters = [run(ASCII.star, 2, open: true, close: false), run(ASCII.star, 1, open: false, close: true)]
      InlineHealScanner.processEmphasis(&delimiters, bottom: 0)
      #expect(delimiters.map(\.count) == [1, 0])
      #expect(delimiters[1].closed)
      // Rule of three: `*a**` does not match a run that can open and close.
      delimiters = [run(ASCII.star, 1, open: true, close: false), run(ASCII.star, 2, open: true, close: true)]
      InlineHealScanner.processEmphasis(&delimiters, bottom: 0)
      #expect(delimiters.map(\.count) == [1, 2])
    }

    /// The search the linked list and floors replace: every closer looks back over every run.
    static func directProcessEmphasis(_ delimiters: inout [InlineHealScanner.Delimiter], bottom: Int) {
      var closer = bottom
      while closer < delimiters.count {
        let current = delimiters[closer]
        guard current.canClose, current.count > 0 else {
          closer += 1
          continue
        }
        var found: Int?
        var opener = closer - 1
        while opener >= bottom && found == nil {
          let candidate = delimiters[opener]
          if candidate.character == current.character && candidate.canOpen && candidate.count > 0 {
            if current.character == ASCII.tilde {
              if candidate.count == current.count { found = opener }
            } else if !((candidate.canClose || current.canOpen)
              && (candidate.originalCount + current.originalCount) % 3 == 0
              && !(candidate.originalCount % 3 == 0 && current.originalCount % 3 == 0))
            {
              found = opener
            }
          }
          opener -= 1
        }
        if let found {
          let use =
            current.character == ASCII.tilde
            ? current.count : (delimiters[found].count >= 2 && current.count >= 2 ? 2 : 1)
          delimiters[found].count -= use
          delimiters[closer].count -= use
          delimiters[closer].closed = true
          for between in (found + 1)..<closer { delimiters[between].count = 0 }
          if delimiters[closer].count == 0 { closer += 1 }
        } else {
          if !current.canOpen { delimiters[closer].count = 0 }
          closer += 1
        }
      }
    }

    /// The linear process leaves every run as the direct search does, on seeded random runs.
    @Test func processEmphasisMatchesTheDirectSearch() {
      var state: UInt64 = 0x9E37_79B9_7F4A_7C15
      func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
      }
      let characters = [ASCII.star, ASCII.underscore, ASCII.tilde]
      for _ in 0..<3000 {
        var delimiters: [InlineHealScanner.Delimiter] = []
        for index in 0..<(1 + next(24)) {
          let character = characters[next(3)]
          let count = character == ASCII.tilde ? 1 + next(2) : 1 + next(4)
          let flanking = next(3)
          delimiters.append(
            .init(
              position: index, end: index + count, character: character, count: count, originalCount: count,
              canOpen: flanking != 1, canClose: flanking != 0))
        }
        let bottom = next(3) == 0 ? next(delimiters.count) : 0
        var linear = delimiters
        var direct = delimiters
        InlineHealScanner.processEmphasis(&linear, bottom: bottom)
        Self.directProcessEmphasis(&direct, bottom: bottom)
        #expect(linear.map(\.count) == direct.map(\.count))
        #expect(linear.map(\.closed) == direct.map(\.closed))
      }
    }

    /// A paragraph of runs no closer matches is scanned in linear steps: the closers' searches
    /// stop at the floor the first one set (counted, as the trial's `*a_ ` units were quadratic).
    @Test func processEmphasisOfUnmatchedRunsIsLinear() {
      for units in [1000, 2000, 4000] {
        var delimiters: [InlineHealScanner.Delimiter] = []
        for index in 0..<units {
          delimiters.append(
            .init(
              position: 4 * index, end: 4 * index + 1, character: ASCII.star, count: 1, originalCount: 1,
              canOpen: true, canClose: false))
          delimiters.append(
            .init(
              position: 4 * index + 2, end: 4 * index + 3, character: ASCII.underscore, count: 1, originalCount: 1,
              canOpen: false, canClose: true))
        }
        var direct = delimiters
        var steps = 0
        InlineHealScanner.processEmphasis(&delimiters, bottom: 0, steps: &steps)
        Self.directProcessEmphasis(&direct, bottom: 0)
        #expect(delimiters.map(\.count) == direct.map(\.count))
        #expect(delimiters.filter { $0.count > 0 }.count == units)
        #expect(steps <= 3 * delimiters.count, "\(steps) steps for \(delimiters.count) runs")
      }
    }
  }
}
