import Testing

@testable import ReplyMarkdown

/// The consumers render only what changed: held blocks listed again unchanged (after a block
/// commits ahead of them) keep their rendering, and an update that shows the last tail again
/// renders nothing. Counted, and checked against consumers rendering from scratch.
@Suite struct StreamingConsumerReuseTests {
  /// Paragraphs citing labels defined only at the end, so blocks wait and, past the live
  /// budget, commit one by one ahead of the others still held.
  static func citingReply(paragraphs: Int) -> String {
    var text = ""
    for index in 1...paragraphs {
      text += "Paragraph \(index) cites [source \(index)] and *more* text to make it longer than a line.\n\n"
    }
    for index in 1...paragraphs { text += "[source \(index)]: https://example.com/\(index)\n" }
    return text
  }

  @Test func heldBlocksListedAgainUnchangedAreNotRenderedAgain() {
    let paragraphs = 200
    let text = Self.citingReply(paragraphs: paragraphs)
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: true))
    var lines = StreamConsumerCore(LineStreamOutput(rowsRenderApart: false) { renderer.renderLines($0) })
    var html = StreamConsumerCore(HTMLStreamOutput(renderer: HTMLRenderer()))
    var fresh = StreamConsumerCore(
      LineStreamOutput(rowsRenderApart: false, reusesHeld: false) { renderer.renderLines($0) })
    var stream = MarkdownStream()
    var heldListed = 0
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: 20) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)])
      heldListed += update.held.count
      lines.apply(update)
      html.apply(update)
      fresh.apply(update)
      #expect(lines.output.tailLines == fresh.output.tailLines, "after \(start + 20) bytes")
      #expect(lines.output.committedLines == fresh.output.committedLines, "after \(start + 20) bytes")
    }
    let last = stream.finish()
    lines.apply(last)
    html.apply(last)
    #expect(lines.output.committedLines.joined(separator: "\n") + "\n" == renderer.render(MarkdownDocument(text)))
    #expect(String(decoding: html.output.bytes, as: UTF8.self) == HTMLRenderer().render(MarkdownDocument(text)))
    // Held blocks are listed whole after every commit, many times each; each is rendered about
    // once (again only where its document changed).
    #expect(heldListed > 4 * paragraphs, "held blocks listed: \(heldListed)")
    #expect(lines.output.heldBlocksRendered <= 2 * paragraphs, "rendered: \(lines.output.heldBlocksRendered)")
    #expect(html.output.heldBlocksRendered <= 2 * paragraphs, "rendered: \(html.output.heldBlocksRendered)")
  }

  /// An open part after a long block (here an open fence's) that holds footnote definitions shows
  /// one footnote section, closed, as the whole document's rendering does. (The blocks after the
  /// long block were written one by one, each footnote definition opening a section that nothing
  /// closed: `<section><ol><li>…</li>` in the display, in a review's frames of a long list
  /// followed by definitions.)
  @Test func footnoteDefinitionsAfterALongBlockShowOneClosedSection() {
    let text = "```\nlet a = 1\n```\n\nText[^1] and[^2].\n\n[^1]: One.\n[^2]: Two.\n"
    let document = MarkdownDocument(text)
    let head = MarkdownDocument("```\n")
    var output = HTMLStreamOutput(renderer: HTMLRenderer())
    output.beginPieces(.codeBlock(head), tight: true)
    let tail = MarkdownStreamTail(container: .codeBlock(head), settledRevision: 0, remainder: document)
    output.showOpen(StreamOpenPart(tail: tail, settled: [], tight: true, inPieces: true))
    let html = String(decoding: output.bytes, as: UTF8.self)
    #expect(html.components(separatedBy: "<section").count == 2, "\(html)")
    #expect(html.components(separatedBy: "</section>").count == 2, "\(html)")
    let whole = HTMLRenderer().render(document)
    let section = whole[whole.range(of: "<section")!.lowerBound...]
    #expect(html.hasSuffix(section), "\(html)")
  }

  /// The stream makes a held block's display (footnotes numbered, pending links marked) once and
  /// lists that same document again while the block is unchanged, so consumers compare it in O(1).
  @Test func heldBlocksListedAgainCarryTheDocumentTheyWereShownWith() {
    let paragraphs = 200
    let bytes = Array(Self.citingReply(paragraphs: paragraphs).utf8)
    var stream = MarkdownStream()
    var storage: [Int: UnsafeRawPointer] = [:]
    var listedAgain = 0
    var sameStorage = 0
    func address(_ document: MarkdownDocument) -> UnsafeRawPointer? {
      document.nodes.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } }
    }
    for start in stride(from: 0, to: bytes.count, by: 20) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)])
      for block in update.held {
        guard let pointer = address(block.document) else { continue }
        if let first = storage[block.id] {
          listedAgain += 1
          if first == pointer { sameStorage += 1 }
        } else {
          storage[block.id] = pointer
        }
      }
    }
    #expect(listedAgain > 4 * paragraphs, "held blocks listed again: \(listedAgain)")
    #expect(sameStorage == listedAgain, "listed again with the same document: \(sameStorage) of \(listedAgain)")
  }

  @Test func anUpdateShowingTheLastTailAgainRendersNothing() {
    // A paragraph of short lines past the refresh threshold shows new text in steps: most
    // updates show the last tail again.
    var text = ""
    for index in 0..<200 { text += "Word *\(index)* and `code`\n" }
    text += "\n\nAfter.\n"
    var plain = MarkdownStreamPlainRenderer()
    var core = StreamConsumerCore(
      LineStreamOutput(rowsRenderApart: true) { MarkdownStreamPlainRenderer.lines(PlainTextRenderer().render($0)) })
    var stream = MarkdownStream()
    let bytes = Array(text.utf8)
    var updates = 0
    var previous: [String] = []
    for start in stride(from: 0, to: bytes.count, by: 8) {
      let update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 8)])
      updates += 1
      let skippedBefore = core.skippedUpdates
      core.apply(update)
      plain.apply(update)
      if core.skippedUpdates > skippedBefore {
        // Skipped: what the consumer shows is what it showed.
        #expect(core.output.tailLines == previous, "after \(start + 8) bytes")
      }
      previous = core.output.tailLines
    }
    let last = stream.finish()
    core.apply(last)
    plain.apply(last)
    #expect(core.output.committedLines.joined(separator: "\n") == PlainTextRenderer().render(MarkdownDocument(text)))
    #expect(plain.text == PlainTextRenderer().render(MarkdownDocument(text)))
    #expect(core.skippedUpdates > updates / 2, "skipped \(core.skippedUpdates) of \(updates)")
  }
}
