import Testing

@testable import replykit

/// The chat composer: editing by grapheme cluster, and its layout at a width.
@Suite struct ComposerTests {
  @Test func editingMovesTheCursorByCharacter() {
    var composer = Composer()
    composer.insert("héllo 👋🏽")
    #expect(composer.cursor == 7)
    composer.backspace()
    #expect(composer.text == "héllo ")
    composer.move(by: -100)
    #expect(composer.cursor == 0)
    composer.deleteForward()
    #expect(composer.text == "éllo ")
    composer.move(by: 100)
    #expect(composer.cursor == 5)
    composer.backspace()
    composer.backspace()
    composer.backspace()
    composer.backspace()
    composer.backspace()
    composer.backspace()  // nothing left: no crash, nothing changes
    #expect(composer.isEmpty && composer.cursor == 0)
  }

  @Test func pastedLineEndingsBecomeNewlines() {
    var composer = Composer()
    composer.insert("a\r\nb\rc")
    #expect(composer.text == "a\nb\nc")
  }

  @Test func lineEdgesStopAtNewlines() {
    var composer = Composer()
    composer.insert("first\nsecond")
    composer.moveToLineEdge(toEnd: false)
    #expect(composer.cursor == 6)
    composer.move(by: -1)
    composer.moveToLineEdge(toEnd: false)
    #expect(composer.cursor == 0)
    composer.moveToLineEdge(toEnd: true)
    #expect(composer.cursor == 5)
  }

  @Test func takeEmptiesTheComposer() {
    var composer = Composer()
    composer.insert("send me")
    #expect(composer.take() == "send me")
    #expect(composer.isEmpty && composer.cursor == 0)
  }

  @Test func layoutWrapsAtTheWidthWithThePrompt() {
    var composer = Composer()
    composer.insert("abcdefgh")
    let layout = composer.layout(width: 6, maxLines: 5)
    #expect(layout.lines == ["› abcd", "  efgh", "  "])
    #expect(layout.cursorRow == 2 && layout.cursorColumn == 2)
  }

  @Test func layoutKeepsTheCursorVisibleAndShowsControlsAsSymbols() {
    var composer = Composer()
    composer.insert("1\n2\n3\n4")
    let layout = composer.layout(width: 20, maxLines: 2)
    #expect(layout.lines == ["  3", "  4"])
    #expect(layout.cursorRow == 1 && layout.cursorColumn == 3)
    var controls = Composer()
    controls.insert("a\u{07}b")
    let shown = controls.layout(width: 20, maxLines: 1).lines[0]
    #expect(!shown.contains("\u{07}"))
    #expect(shown.hasPrefix("› a") && shown.hasSuffix("b"))
  }

  /// The layout makes strings of the shown lines only (a paste of megabytes was laid out whole
  /// at every key: 8.9 s per key in a debug build for 4 MB, 1.3 s after). What it shows is what
  /// laying out every line and cutting the shown ones out gives, for random texts, cursors,
  /// widths and heights, a cursor after a full line included.
  @Test func layoutShowsWhatTheWholeLayoutWouldShow() {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["a", "bb ", "ccc", " ", "\n", "界", "é", "\u{07}", "\t", "👋🏽", "wordwordword"]
    for _ in 0..<500 {
      var composer = Composer()
      composer.insert((0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement()! }.joined())
      composer.move(by: -Int.random(in: 0...composer.characters.count, using: &generator))
      let width = Int.random(in: 3...12, using: &generator)
      let maxLines = Int.random(in: 1...5, using: &generator)
      let layout = composer.layout(width: width, maxLines: maxLines)
      // The reference: every line drawn, a blank one after a full line holding the cursor.
      let ranges = composer.visualLines(width: width - 2)
      var lines = ranges.map { range in
        composer.characters[range].map { VisibleText.sanitize(String($0)) }.joined()
      }
      if layout.cursorColumn == 2, layout.totalLines == lines.count + 1 {
        let row = layout.hiddenAbove + layout.cursorRow
        lines.insert("", at: row)
      }
      #expect(layout.totalLines == lines.count)
      let expected = lines[layout.hiddenAbove..<(lines.count - layout.hiddenBelow)].enumerated().map {
        (layout.hiddenAbove + $0.offset == 0 ? "› " : "  ") + $0.element
      }
      #expect(layout.lines == expected, "\(composer.text.debugDescription) at \(width)")
      #expect(layout.lines.count == min(maxLines, lines.count))
    }
  }
}
