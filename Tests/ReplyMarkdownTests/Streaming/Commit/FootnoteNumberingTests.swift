import Testing

@testable import ReplyMarkdown

/// `FootnoteNumbering`: numbers carried from block to block; a tail numbered without changing them.
@Suite struct FootnoteNumberingTests {
  static func references(_ document: MarkdownDocument) -> [String] {
    document.nodes.compactMap { node in
      if case .footnoteReference(let reference) = node.kind {
        "\(reference.label):\(reference.number).\(reference.occurrence)"
      } else {
        nil
      }
    }
  }

  @Test func heldBlocksAndATailAreNumberedAsTheNextBlocksWouldBeAndChangeNothing() {
    let definitions = "\n\n[^a]: x\n[^b]: y\n[^c]: z\n[^d]: w\n"
    var numbering = FootnoteNumbering()
    _ = numbering.renumber(MarkdownDocument("See [^b] and [^a]." + definitions))
    let held = MarkdownDocument("Held: [^c] and [^a]." + definitions)
    let tail = MarkdownDocument("Then [^d], [^c] and [^b]." + definitions)
    var overlay = FootnoteNumbering.Overlay()
    let heldNumbered = numbering.number(held, overlay: &overlay)
    let tailNumbered = numbering.numbered(tail, after: overlay)
    // As if both were the next blocks of the numbering.
    var copy = numbering
    #expect(Self.references(heldNumbered) == Self.references(copy.renumber(held)))
    #expect(Self.references(tailNumbered) == Self.references(copy.renumber(tail)))
    #expect(Self.references(heldNumbered) == ["c:3.1", "a:2.2"])
    #expect(Self.references(tailNumbered) == ["d:4.1", "c:3.2", "b:1.2"])
    // Neither the numbering nor the overlay moved: the tail numbers the same way again, and the
    // next committed block takes the next number for `c`.
    #expect(Self.references(numbering.numbered(tail, after: overlay)) == ["d:4.1", "c:3.2", "b:1.2"])
    #expect(Self.references(numbering.renumber(MarkdownDocument("[^c]" + definitions))) == ["c:3.1"])
  }

  /// A footnote a block committed past the budget showed as text (`[^a]`, its definition not yet
  /// there) takes its number when its definition arrives, before footnotes first cited later,
  /// and its references shown count; one in code is no reference.
  @Test func aFootnoteShownAsTextTakesItsNumberWhenItsDefinitionArrives() {
    let definitions = "\n\n[^a]: x\n[^b]: y\n[^c]: z\n"
    var numbering = FootnoteNumbering()
    numbering.noteShownUnresolved(in: MarkdownDocument("Cited [^a] and [^c], and `[^b]` in code."))
    let inCode = numbering.numberShownUnresolved(definedNow: ["^b"])
    let cited = numbering.numberShownUnresolved(definedNow: ["^a", "^b"])
    #expect(!inCode && cited)
    let next = numbering.renumber(MarkdownDocument("Then [^b] and [^a]." + definitions))
    // `[^a]`, shown once as text, counted: this is its second reference.
    #expect(Self.references(next) == ["b:2.1", "a:1.2"])
    // `[^c]`, cited by the block shown as text, waits for its definition; numbered once.
    let first = numbering.numberShownUnresolved(definedNow: ["^c"])
    let again = numbering.numberShownUnresolved(definedNow: ["^c"])
    #expect(first && !again)
    let last = numbering.renumber(MarkdownDocument("[^c]" + definitions))
    #expect(Self.references(last) == ["c:3.2"])
  }

  /// On a terminal under `.live`, a reply citing a footnote in its first paragraph, then more than
  /// the budget of text, then a second footnote, both defined before the reply's last paragraph:
  /// the first paragraph commits showing `[^a]`, and the second footnote shows as 2, the number
  /// the footnote section at the end gives it (a review in tmux saw 1, the first footnote's).
  @Test(arguments: [1, 7, 20, 64])
  func aLaterFootnoteKeepsTheNumberTheWholeReplyGivesIt(chunk: Int) {
    let filler = String(repeating: "This filler sentence keeps the reply going without labels. ", count: 6)
    let text =
      "Intro claim with a footnote[^a].\n\n" + String(repeating: filler + "\n\n", count: 14)
      + "Second claim with another footnote[^b].\n\nClosing remark.\n\n[^a]: Note about the intro claim.\n\n"
      + "[^b]: Note about the second claim.\n\nAs the intro said[^a].\n\nHope this helps!\n"
    var stream = MarkdownStream()
    var terminal = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: 80)))
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: chunk) {
      terminal.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + chunk)]))
    }
    // The lines that cite: the first is the exception of `.live` (committed past the budget).
    let cited = terminal.committedLines.filter { $0.contains("[") }
    #expect(
      cited == ["Intro claim with a footnote[^a].", "Second claim with another footnote[2].", "As the intro said[1]."])
    terminal.apply(stream.finish())
    #expect(terminal.text.contains("[2] Note about the second claim."))
  }
}
