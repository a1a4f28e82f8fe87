import ChatEngine
import Foundation
import ReplyMarkdown
import Testing

@testable import ChatExport

/// The page's rewrite of a reply's safe HTML (golden strings), and what stays the library's.
@Suite("Export: reply HTML in the page")
struct ReplyHTMLTests {
  private func page(_ markdown: String) -> String {
    let document = MarkdownDocument(markdown)
    let context = _ReplyHTML.Context(
      anchor: "m-1", disarmed: _ReplyHTML.disarmedDestinations(in: document), words: PageLanguage.english.words)
    return _ReplyHTML.rewrite(HTMLRenderer().render(document), context: context)
  }

  @Test func footnoteIdsAndInPageLinksAreScopedToTheMessage() throws {
    let markdown = "A[^n] and [back](#top).\n\n[^n]: Note.\n"
    let library = HTMLRenderer().render(MarkdownDocument(markdown))
    #expect(library == CmarkReference.html(markdown), "the library's HTML is cmark-gfm's")
    #expect(
      page(markdown) == """
        <p>A<sup class="footnote-ref"><a href="#m-1-fn-n" id="m-1-fnref-n" data-footnote-ref>1</a></sup> and <a href="#m-1-top">back</a>.</p>
        <section class="footnotes" data-footnotes>
        <ol>
        <li id="m-1-fn-n">
        <p>Note. <a href="#m-1-fnref-n" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
        </li>
        </ol>
        </section>

        """)
  }

  @Test func disarmedLinksAreTextWithTheirURLAndGoodLinksStay() throws {
    #expect(
      page("[a](javascript:alert(1) \"t\") [b](https://x.example/?q=1&r) [c]() <vbscript:x>")
        == "<p><span class=\"link-off\" title=\"t\">a</span><span class=\"link-url\"> (<span class=\"url\">javascript:alert(1)</span>)</span>"
        + " <a href=\"https://x.example/?q=1&amp;r\">b</a> <span class=\"link-off\">c</span>"
        + " <span class=\"link-off\">vbscript:x</span></p>\n", "an autolink's URL is not repeated")
    #expect(
      page("[x](data:text/html,<script>)").contains(
        "<span class=\"link-url\"> (<span class=\"url\">data:text/html,&lt;script&gt;</span>)</span>"))
    // Invisible format characters in a shown URL are percent-encoded, as the terminal shows them.
    #expect(
      page("[x](javascript:a\u{200F}b\u{061C}c\u{200B})").contains(
        "<span class=\"url\">javascript:a%E2%80%8Fb%D8%9Cc%E2%80%8B</span>"))
    // So are other invisible characters (an invisible operator, a tag character: a review).
    #expect(
      page("[x](javascript:a\u{2061}b\u{E0041})").contains(
        "<span class=\"url\">javascript:a%E2%81%A1b%F3%A0%81%81</span>"))
    let long = "javascript:" + String(repeating: "a", count: 300)
    #expect(page("[x](\(long))").contains("aaa…</span>)</span>"))
  }

  /// A link in an image's description is alt text, with no tag of its own: each disarmed link
  /// after it still shows its own URL (a review: `[b]` showed `javascript:X`).
  @Test func aLinkInAnImageDescriptionTakesNoURLFromTheLinksAfterIt() throws {
    #expect(
      page("![[a](javascript:X)](i.png) [b](javascript:Y) ![[c]()](j.png) [d](vbscript:Z)")
        == "<p><a class=\"img-link\" href=\"i.png\">\(_Glyphs.use(.image))<span>a</span></a>"
        + " <span class=\"link-off\">b</span><span class=\"link-url\"> (<span class=\"url\">javascript:Y</span>)</span>"
        + " <a class=\"img-link\" href=\"j.png\">\(_Glyphs.use(.image))<span>c</span></a>"
        + " <span class=\"link-off\">d</span><span class=\"link-url\"> (<span class=\"url\">vbscript:Z</span>)</span></p>\n"
    )
  }

  @Test func imagesTheCSPCannotLoadBecomeLinksWithTheirAltText() throws {
    #expect(
      page("![a chart](https://x.example/c.png \"T\") ![](javascript:x) ![dot](data:image/png;base64,AAAA)")
        == "<p><a class=\"img-link\" href=\"https://x.example/c.png\" title=\"T\">\(_Glyphs.use(.image))<span>a chart</span></a>"
        + " <span class=\"img-link img-off\">\(_Glyphs.use(.image))<span>Image</span></span>"
        + " <img src=\"data:image/png;base64,AAAA\" alt=\"dot\" /></p>\n")
  }

  @Test func headingsAreDemotedAndTablesAndCodeTakeFocus() throws {
    #expect(page("# One\n\n###### Six") == "<h3 class=\"rh1\">One</h3>\n<h6 class=\"rh6\">Six</h6>\n")
    let table = page("| a |\n|---|\n| b |")
    #expect(
      table.hasPrefix("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Table\"><table>\n"))
    #expect(table.hasSuffix("</table></div>\n"))
    #expect(page("```\nx\n```").contains("<pre tabindex=\"0\"><code>x\n</code></pre></div>"))
  }

  @Test func languagesAreFoundByCodeAndFallBackToEnglish() throws {
    #expect(PageLanguage(identifier: "de_DE.UTF-8") == .german)
    #expect(PageLanguage(identifier: "FR-ca") == .french)
    #expect(PageLanguage(identifier: "xx") == nil)
    #expect(PageLanguage(locale: Locale(identifier: "ja_JP")) == .english)
    #expect(PageLanguage.german.locale(preferring: Locale(identifier: "de_AT")).identifier == "de_AT")
    #expect(PageLanguage.german.locale(preferring: Locale(identifier: "en_US")).identifier == "de")
    for language in PageLanguage.all {
      #expect(language.words.count(2).contains("2"), "\(language.code)")
    }
  }

  @Test func aSavedPageNeverAsksToTryAgain() throws {
    let turn = _TurnHTML(words: PageLanguage.english.words, timeFormatter: DateFormatter(), timeZone: .gmt)
    #expect(turn.failureText(ChatMessage.defaultFailureMessage) == "This reply didn't finish.")
    #expect(turn.failureText("The server is busy. Try again.") == "The server is busy.")
    #expect(turn.failureText("Lost") == "Lost")
  }

  @Test func highlightingIsInTheStyleSheetTheCSPHashes() throws {
    let theme = CodeTheme(
      name: "T", background: CodeColor(rgb: 0xFFFFFF),
      styles: [.keyword: CodeStyle(foreground: CodeColor(rgb: 0xAA0000), bold: true)])
    let dark = CodeTheme(
      name: "D", background: CodeColor(rgb: 0), styles: [.keyword: CodeStyle(foreground: CodeColor(rgb: 0xFF8080))])
    let page = ThreadPage(
      messages: [ChatMessage(role: .assistant, text: "```swift\nlet x\n```", date: Date())],
      highlighting: PageHighlighting(highlighter: PlainCodeHighlighter(), light: theme, dark: dark))
    let html = page.render()
    #expect(page.styleSheet.contains(".code .hl-keyword { color: #aa0000; font-weight: 600; }"))
    #expect(
      page.styleSheet.contains(
        "@media screen and (prefers-color-scheme: dark) {\n  .code .hl-keyword { color: #ff8080; }\n}"))
    #expect(html.contains("content=\"\(page.contentSecurityPolicy)\""))
    #expect(page.contentSecurityPolicy.contains(_SHA256.cspSource(page.styleSheet)))
    #expect(page.contentSecurityPolicy != ThreadPage.contentSecurityPolicy)
    #expect(ThreadPage(messages: []).contentSecurityPolicy == ThreadPage.contentSecurityPolicy)
  }

  /// Copy on a highlighted code block copies the code, not the highlighting's markup.
  @Test func highlightedCodeIsCopiedAsWritten() throws {
    let code = "let x = \"<&>\" // \u{1B}\n"
    let page = ThreadPage(
      messages: [ChatMessage(role: .assistant, text: "```swift\n\(code)```", date: Date())],
      highlighting: PageHighlighting(
        highlighter: WholeLineHighlighter(),
        light: CodeTheme(name: "L", background: CodeColor(rgb: 0xFFFFFF), styles: [:]),
        dark: CodeTheme(name: "D", background: CodeColor(rgb: 0), styles: [:])))
    let html = page.render()
    #expect(html.contains("<span class=\"hl-"), "the code element holds highlighting spans")
    let start = html.range(of: "<script type=\"application/json\" id=\"rk-data\">")?.upperBound ?? html.endIndex
    let data = html[start...].prefix { $0 != "<" }
    let decoded = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    #expect(decoded?["code"] as? [String] == [code])
  }

  @Test func theDownloadNameComesFromTheTitle() throws {
    #expect(ThreadPage(messages: [], title: "Hello, World! / Ünïcode").downloadName == "hello-world-ünïcode.md")
    #expect(ThreadPage(messages: [], title: "???").downloadName == "conversation.md")
  }
}
