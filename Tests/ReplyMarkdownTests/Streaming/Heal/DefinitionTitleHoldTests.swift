import Testing

@testable import ReplyMarkdown

extension HealTables {
  static let definitionTitleAfterDefinition = [
    HealCase("Intro.\n\n[a]: http://x.com\n  \"ti", "<p>Intro.</p>"),
    HealCase("[a]: http://x.com\n  \"title\"", ""),
    HealCase("[a]: http://x.com\n'title", ""),
    HealCase("[a]: <http://x.com>\n(title", ""),
    HealCase("> [a]: /u\n> \"ti", "<blockquote></blockquote>"),
    HealCase("[a]: /u\r\n\"ti", ""),
    // Not under an untitled definition: shown as it stands.
    HealCase("[a]: /u \"t\"\n\"quoted", "<p>&quot;quoted</p>", applies: false),
    HealCase("Said:\n\"quoted", "<p>Said:␤&quot;quoted</p>", applies: false),
    HealCase("[a]: /u\nplain", "<p>plain</p>", applies: false),
    HealCase("[a]: /u\n\n\"quoted", "<p>&quot;quoted</p>", applies: false),
  ]
}

extension StreamingHealTests {
  @Suite struct DefinitionTitleHoldTests {
    @Test(arguments: HealTables.definitionTitleAfterDefinition)
    func definitionTitleAfterDefinition(_ row: HealCase) { row.check(.definitionTitleAfterDefinition) }

    @Test func anUntitledDefinitionIsALabelColonAndOneDestination() {
      func reads(_ line: String) -> Bool { DefinitionTitleHold.endsUntitledDefinition(Array(line.utf8)[...]) }
      #expect(reads("[a]: /u\n"))
      #expect(reads("[a b]:\t<http://x>  \r\n"))
      #expect(reads("[a\\]b]: /u"))
      #expect(!reads("[a]: /u \"t\"\n"))
      #expect(!reads("[a]:\n"))
      #expect(!reads("[]: /u\n"))
      #expect(!reads("[a [b]]: /u\n"))
      #expect(!reads("[a] /u\n"))
      #expect(!reads("text\n"))
    }

    /// The title line, streamed a byte at a time, never shows as a paragraph (the link gets its
    /// title once the line ends); the final output is one-shot's.
    @Test func aTitleOnTheNextLineNeverShowsWhileItArrives() {
      let text = "Intro [a] text.\n\n[a]: http://x.com\n  \"title\"\n\nAfter.\n"
      let bytes = Array(text.utf8)
      var stream = MarkdownStream()
      var html = MarkdownStreamHTMLRenderer()
      for index in bytes.indices {
        _ = html.apply(stream.feed(bytes: bytes[index...index]))
        #expect(!html.html.contains("&quot;") && !html.html.contains("<p>ti"), "after \(index + 1) bytes: \(html.html)")
      }
      _ = html.apply(stream.finish())
      #expect(html.html == HTMLRenderer().render(MarkdownDocument(text)))
    }
  }
}
