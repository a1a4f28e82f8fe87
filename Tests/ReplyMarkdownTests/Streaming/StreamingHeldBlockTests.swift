import Testing

@testable import ReplyMarkdown

/// Held blocks (closed, but a later definition could change them) become real links as soon as
/// the definition arrives, before the end of the stream; committed blocks never change.
@Suite struct StreamingHeldBlockTests {
  static let text =
    "# Title\n\nSee [docs] and [other][ref].\n\nNext para.\n\n[docs]: https://example.com/docs\n\nMore text.\n\n"
    + "[ref]: https://example.com/ref\n\nEnd.\n"

  @Test func aDefinitionArrivingMidStreamResolvesHeldLinks() {
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var plain = MarkdownStreamPlainRenderer()
    var terminal = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 60)))
    var committed = ""
    var committedLines: [String] = []
    var received = ""
    var sawDocsAlone = false
    for character in Self.text {
      received.append(character)
      let update = stream.feed(String(character))
      let edit = html.apply(update)
      plain.apply(update)
      terminal.apply(update)
      #expect(edit.keep >= committed.utf8.count, "retracted after \(received.debugDescription)")
      #expect(html.committedHTML.hasPrefix(committed))
      #expect(Array(terminal.committedLines.prefix(committedLines.count)) == committedLines)
      committed = html.committedHTML
      committedLines = terminal.committedLines
      if received.hasSuffix("\n\nMore") {
        // The first definition is in: its link is real, the other is still pending.
        #expect(html.html.contains("<a href=\"https://example.com/docs\">docs</a>"), "\(html.html)")
        #expect(html.html.contains("<a data-pending=\"\">other</a>"), "\(html.html)")
        #expect(plain.text.contains("docs (https://example.com/docs)"))
        #expect(terminal.text.contains("docs (https://example.com/docs)"))
        sawDocsAlone = true
      }
      if received.hasSuffix("\n\nEnd") {
        #expect(html.html.contains("<a href=\"https://example.com/ref\">other</a>"), "\(html.html)")
      }
    }
    #expect(sawDocsAlone)
    html.apply(stream.finish())
    #expect(html.html == HTMLRenderer().render(MarkdownDocument(Self.text)))
  }

  /// A list whose last item ends with a paragraph of definitions, right above the block that
  /// closes it, is loose to cmark-gfm (it decides before it removes that paragraph). Held for a
  /// label and parsed again when the definition arrives, the list stays loose: written into a
  /// pipe as it commits, it equals one-shot (fuzz seed 1406 made it tight).
  @Test(arguments: [
    "1. [z]\n\n   [X]:y\n# h\n\n[z]: /u \"" + String(repeating: "t", count: 100) + "\"\n\nmore\n",
    "- [z]\n\n  [X]:y\n***\n\n[z]: /u \"" + String(repeating: "t", count: 100) + "\"\n\nmore\n",
    "1. [\n\n   [X]:\"\n[^b]:[x]:\n* a\n",
  ])
  func aHeldListParsedAgainKeepsTheLoosenessItsClosingLineGave(_ text: String) {
    let oneShot = HTMLRenderer().render(MarkdownDocument(text))
    #expect(oneShot.contains("<li>\n<p>"))
    for chunk in [1, 2, 3, 4, 7] {
      let piped = StreamingHarness.piped(text, chunk: chunk, policy: .holdUntilFinish, showsTail: false)
      #expect(piped.written == oneShot, "chunk \(chunk)")
      #expect(!piped.rewrote, "chunk \(chunk)")
    }
  }

  /// A held paragraph glued above a table, parsed again when its definition arrives, is parsed
  /// without the table's header row, which alone would continue it (a review of a first version
  /// that parsed a held block again with the line after it: the header showed twice).
  @Test(arguments: [
    "para [z]\n| a | b |\n|---|---|\n| c | d |\n\n- [z]: /u \"" + String(repeating: "t", count: 80)
      + "\"\n\n[^n]: note\n",
    "[x y]\na||\n-|-\n1. [x y]:'\n[^n]:\n",
  ])
  func aHeldParagraphGluedAboveATableIsParsedAgainWithoutTheHeader(_ text: String) {
    let oneShot = HTMLRenderer().render(MarkdownDocument(text))
    for chunk in [1, 2, 3, 5, 7, 20] {
      let piped = StreamingHarness.piped(text, chunk: chunk, policy: .holdUntilFinish, showsTail: false)
      #expect(piped.written == oneShot, "chunk \(chunk)")
    }
  }
}

/// A stream whose tail is not shown commits the same blocks and finishes the same.
@Suite struct StreamingHiddenTailTests {
  @Test func hidingTheTailChangesNothingElse() throws {
    for (name, text) in StreamingHarness.corpus.prefix(10) {
      var shown = MarkdownStream()
      var hidden = MarkdownStream()
      hidden.showsTail = false
      var shownHTML = MarkdownStreamHTMLRenderer()
      var hiddenHTML = MarkdownStreamHTMLRenderer()
      for (position, chunk) in StreamingHarness.randomCharacterChunks(text, seed: 9, maximum: 40).enumerated() {
        shownHTML.apply(shown.feed(chunk))
        hiddenHTML.apply(hidden.feed(chunk))
        #expect(shownHTML.committedHTML == hiddenHTML.committedHTML, "\(name) @\(position)")
        // Turning the tail on midway shows what the other stream shows.
        if position == 40 { hidden.showsTail = true }
        if position > 40 { #expect(shownHTML.html == hiddenHTML.html, "\(name) @\(position)") }
      }
      shownHTML.apply(shown.finish())
      hiddenHTML.apply(hidden.finish())
      #expect(shownHTML.html == hiddenHTML.html, "\(name)")
    }
  }
}
