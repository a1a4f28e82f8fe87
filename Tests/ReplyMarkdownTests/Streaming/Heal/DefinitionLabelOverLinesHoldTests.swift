import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let definitionLabelOverLines = [
    HealCase("[Foo\nbar]: /url \"ti", ""),
    HealCase("[Foo\nbar]: /u", ""),
    HealCase("[Foo\nbar]", ""),
    HealCase("[Foo\nbar\nbaz]: /url", ""),
    HealCase("Intro.\n\n[Foo\nbar]: /url 'ti", "<p>Intro.</p>"),
    HealCase("[a]: /a\n[Foo\nbar]: /url (ti", ""),
    HealCase("> [Foo\n> bar]: /url \"ti", ""),
    HealCase("[Foo\r\nbar]: /url \"ti", ""),
    // Near misses, shown as they stand: a label still open (a link's text may span lines), a
    // label not at a definition's place, a link.
    HealCase("[Foo\nbar", "<p><a pending>Foo␤bar</a></p>", applies: false),
    HealCase("Text\n[Foo\nbar]: /u \"t", "<p>Text␤<a pending>Foo␤bar</a>: /u &quot;t</p>", applies: false),
    HealCase("[Foo\nbar](/u", "<p><a pending>Foo␤bar</a></p>", applies: false),
    HealCase("[Foo]\nbar]: /u \"t", "<p><a pending>Foo</a>␤bar]: /u &quot;t</p>", applies: false),
    HealCase("[Foo\n- bar]: /u \"t", "<p>[Foo</p><ul><li>bar]: /u &quot;t</li></ul>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct DefinitionLabelOverLinesHoldTests {
    @Test(arguments: HealTables.definitionLabelOverLines)
    func definitionLabelOverLines(_ row: HealCase) { row.check(.definitionLabelOverLines) }

    /// A definition whose label spans lines, and its title on a line of its own, streamed a byte at
    /// a time: no frame shows any of it as a paragraph; the final output is one-shot's.
    @Test(arguments: ["[Foo\nbar]: /url \"title\"\n", "[Foo\n  bar]: /url\n  \"title\"\n"])
    func aDefinitionOverLinesNeverShowsAsAParagraph(definition: String) {
      let text = definition + "\nSee [Foo bar].\n"
      let bytes = Array(text.utf8)
      var stream = MarkdownStream()
      var html = MarkdownStreamHTMLRenderer()
      for index in bytes.indices {
        _ = html.apply(stream.feed(bytes: bytes[index...index]))
        let shown = html.html
        #expect(!shown.contains(": /url") && !shown.contains("&quot;"), "after \(index + 1) bytes: \(shown)")
      }
      _ = html.apply(stream.finish())
      #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    }
  }
}
