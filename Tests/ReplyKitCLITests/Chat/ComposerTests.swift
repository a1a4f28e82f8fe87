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
}
