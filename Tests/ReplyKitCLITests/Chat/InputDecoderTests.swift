import Testing

@testable import replykit

/// The terminal input decoder on bytes, without a terminal.
@Suite struct InputDecoderTests {
  static func decode(_ reads: [[UInt8]]) -> [KeyEvent] {
    var decoder = InputDecoder()
    return reads.flatMap { decoder.decode($0) }
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func textAndControlKeys() {
    #expect(Self.decode([Self.bytes("hi\r")]) == [.text("hi"), .enter])
    #expect(
      Self.decode([[0x0A, 0x7F, 0x08, 0x09, 0x03]]) == [.newline, .backspace, .backspace, .text("    "), .control(3)])
  }

  @Test func cursorKeysInTheirCSIAndSS3Forms() {
    #expect(
      Self.decode([Self.bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OH\u{1B}OF")])
        == [.up, .down, .right, .left, .home, .end])
    #expect(
      Self.decode([Self.bytes("\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[7~\u{1B}[8~")])
        == [.home, .end, .delete, .pageUp, .pageDown, .home, .end])
  }

  @Test func aLoneEscapeIsEscapeAndAltEnterIsANewline() {
    #expect(Self.decode([[0x1B]]) == [.escape])
    #expect(Self.decode([[0x1B, 0x0D]]) == [.newline])
    #expect(Self.decode([[0x1B, 0x1B]]) == [.escape, .escape])
  }

  @Test func aSequenceSplitAcrossReadsIsKeptForTheNextRead() {
    #expect(Self.decode([[0x1B, UInt8(ascii: "[")], [UInt8(ascii: "A")]]) == [.up])
    #expect(Self.decode([Self.bytes("\u{1B}[5"), Self.bytes("~")]) == [.pageUp])
  }

  @Test func utf8SplitAcrossReadsIsNeverCut() {
    let bytes = Self.bytes("né😀")
    for split in 1..<bytes.count {
      let events = Self.decode([Array(bytes[..<split]), Array(bytes[split...])])
      let text = events.map { event -> String in
        if case .text(let text) = event { return text }
        return "?"
      }.joined()
      #expect(text == "né😀", "split at \(split)")
    }
  }

  @Test func bracketedPasteKeepsNewlinesAndControlsWhole() {
    let paste = "\u{1B}[200~line 1\r\nline\u{07} 2\u{1B}[201~"
    #expect(Self.decode([Self.bytes(paste)]) == [.paste("line 1\r\nline\u{07} 2")])
    let split = Self.bytes(paste)
    #expect(Self.decode([Array(split[..<12]), Array(split[12...])]) == [.paste("line 1\r\nline\u{07} 2")])
  }

  @Test func theMouseWheelIsDecodedAndOtherMouseReportsDropped() {
    #expect(Self.decode([Self.bytes("\u{1B}[<64;10;5M\u{1B}[<65;10;5M")]) == [.wheelUp, .wheelDown])
    #expect(Self.decode([Self.bytes("\u{1B}[<0;10;5M\u{1B}[<0;10;5mx")]) == [.text("x")])
  }

  @Test func unknownSequencesAreDroppedWhole() {
    #expect(Self.decode([Self.bytes("a\u{1B}[99zb")]) == [.text("a"), .text("b")])
  }
}
