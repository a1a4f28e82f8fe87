import Testing

@testable import ReplyMarkdown

/// The terminal consumer lays out an open table a row at a time: an update lays out its new and
/// open rows (all rows only when the layout changes), the tail always equals the whole open
/// table's rendering, and the final output equals one-shot rendering.
@Suite struct StreamingTerminalTableTests {
  /// A table of `rows` body rows whose cells are all as wide (numbers padded to four digits), so
  /// the layout settles with the first row; then a paragraph.
  static func evenTable(rows: Int) -> String {
    var text = "| # | name | value |\n|---|:---|---:|\n"
    for index in 1...rows {
      let number = String(repeating: "0", count: 4 - String(index).count) + String(index)
      text += "| \(number) | name **\(number)** | \(number) |\n"
    }
    return text + "\nafter\n"
  }

  /// Streams `text` in `chunk`-byte chunks through a terminal consumer that lays out tables and
  /// (`checkingTails`) one that renders the open part whole, checking after every update that
  /// their tails agree; returns the table rows the first laid out in each update, and its final
  /// lines.
  static func stream(_ text: String, chunk: Int, renderer: ANSIRenderer, checkingTails: Bool = true) -> (
    perUpdate: [Int], lines: [String]
  ) {
    func consumer(inPieces: Bool) -> StreamConsumerCore<LineStreamOutput> {
      StreamConsumerCore(
        LineStreamOutput(rowsRenderApart: false, inPieces: inPieces, terminalTables: renderer.options) {
          renderer.renderLines($0)
        })
    }
    var pieces = consumer(inPieces: true)
    var whole = consumer(inPieces: false)
    var stream = MarkdownStream()
    let bytes = Array(text.utf8)
    var perUpdate: [Int] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      let update = stream.feed(bytes: bytes[offset..<end])
      let before = pieces.output.tableRowsLaidOut
      pieces.apply(update)
      perUpdate.append(pieces.output.tableRowsLaidOut - before)
      if checkingTails {
        whole.apply(update)
        #expect(pieces.output.tailLines == whole.output.tailLines, "after \(end) bytes")
        #expect(pieces.output.committedLines == whole.output.committedLines, "after \(end) bytes")
      }
      offset = end
    }
    let last = stream.finish()
    pieces.apply(last)
    #expect(pieces.output.tailLines.isEmpty)
    return (perUpdate, pieces.output.committedLines)
  }

  @Test func rowsLaidOutPerUpdateStayBoundedWhileALongTableStreams() {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: true))
    let rows = 1_000
    let text = Self.evenTable(rows: rows)
    // The tails are checked against the whole table's rendering by the tests below (here that
    // would cost the whole table every update).
    let (perUpdate, lines) = Self.stream(text, chunk: 20, renderer: renderer, checkingTails: false)
    #expect(lines.joined(separator: "\n") + "\n" == renderer.render(MarkdownDocument(text)))
    // A 20-byte chunk settles at most one row; the open row is laid out with it (and the header
    // with the first layout). Nothing depends on the rows already shown.
    let header = 20
    #expect(perUpdate.count > rows)
    #expect(perUpdate.dropFirst(header).allSatisfy { $0 <= 3 }, "most in one update: \(perUpdate.max() ?? 0)")
    #expect(perUpdate.reduce(0, +) <= 4 * rows)
  }

  @Test func theConsumerTextEqualsOneShotAfterALongTable() {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: true, hyperlinks: true))
    let text = Self.evenTable(rows: 300)
    var stream = MarkdownStream()
    var terminal = MarkdownStreamANSIRenderer(renderer: renderer)
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: 20) {
      terminal.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)]))
    }
    terminal.apply(stream.finish())
    #expect(terminal.text == renderer.render(MarkdownDocument(text)))
  }

  @Test(arguments: [1, 7, 20])
  func aLaterWiderRowLaysTheTableOutAgain(chunk: Int) {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 40, color: true))
    var text = "| a | b |\n|---|:-:|\n"
    for index in 1...30 { text += "| \(index % 10) | x |\n" }
    let wide = "| a much wider cell than any before | and another wide one here |\n"
    text += wide
    for index in 1...30 { text += "| \(index % 10) | y |\n" }
    text += "\nafter\n"
    let (perUpdate, lines) = Self.stream(text, chunk: chunk, renderer: renderer)
    #expect(lines.joined(separator: "\n") + "\n" == renderer.render(MarkdownDocument(text)))
    // The wide row changes the layout while it arrives (the tail shows it as the whole table
    // would): every settled row is laid out again then, and only then.
    let relaidOut = perUpdate.filter { $0 > 30 }.count
    #expect(relaidOut >= 1)
    #expect(relaidOut <= wide.utf8.count / chunk + 2)
    // The rows after it (10 bytes each) keep the new layout.
    #expect(perUpdate.suffix(250 / chunk).allSatisfy { $0 <= 3 })
  }

  @Test func aTableTurnsIntoRecordsWhenItsColumnsNoLongerFit() {
    let renderer = ANSIRenderer(options: ANSIOptions(width: 24))
    var text = "| a | b | c | d |\n|---|---|--:|:-:|\n"
    for _ in 1...5 { text += "| 1 | 2 | 3 | 4 |\n" }
    text += "| one | two | three | four |\n| 5 | 6 | 7 | 8 |\n"
    let (_, lines) = Self.stream(text, chunk: 3, renderer: renderer)
    #expect(lines.joined(separator: "\n") + "\n" == renderer.render(MarkdownDocument(text)))
    #expect(lines.contains("a: one"))
  }
}
