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
}
