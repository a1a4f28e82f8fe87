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

  @Test func aLoneEscapeIsEscapeOnceNothingFollowsAndAltEnterIsANewline() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.holdsLoneEscape)
    #expect(decoder.endLoneEscape() == [.escape])
    #expect(!decoder.holdsLoneEscape)
    #expect(decoder.endLoneEscape().isEmpty)
    #expect(Self.decode([[0x1B, 0x0D]]) == [.newline])
    #expect(decoder.decode([0x1B, 0x1B]) == [.escape])
    #expect(decoder.endLoneEscape() == [.escape])
  }

  /// A slow link may split ESC from the rest of its key: the two reads make the one key, never
  /// Escape (which stops the reply) and text.
  @Test func anEscapeSplitFromItsSequenceIsTheKey() {
    #expect(Self.decode([[0x1B], Self.bytes("[5~")]) == [.pageUp])
    #expect(Self.decode([[0x1B], Self.bytes("OA")]) == [.up])
    #expect(Self.decode([[0x1B], [0x0D]]) == [.newline])
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

  @Test func thePasteEndMarkerIsFoundWhereverTheReadsCutIt() {
    // An ESC in the paste, a false start of the end marker, then the end marker.
    let paste = Self.bytes("\u{1B}[200~a\u{1B}\u{1B}[20x\u{1B}[201b\u{1B}[201~c\r")
    // (A lone ESC at the end of a read is the Escape key, so the cut is after it.)
    for split in 2..<paste.count {
      let events = Self.decode([Array(paste[..<split]), Array(paste[split...])])
      #expect(events == [.paste("a\u{1B}\u{1B}[20x\u{1B}[201b"), .text("c"), .enter], "split at \(split)")
    }
  }

  /// A paste past the limit is refused as one event, however the reads cut it; not one byte of
  /// it is a key (each of its line breaks was an Enter that sent a message), and what follows its
  /// end marker is keys again.
  @Test func aPasteLongerThanTheLimitIsRefusedWhole() {
    let line = Self.bytes("pasted line " + String(repeating: "p", count: 70) + "\r\n")
    let body = Array(repeating: line, count: InputDecoder.maximumPaste / line.count + 2).joined()
    let input = BracketedPaste.startMarker + body + BracketedPaste.endMarker + Self.bytes("x\r")
    let chunk = 1 << 20
    let reads = stride(from: 0, to: input.count, by: chunk).map { Array(input[$0..<min($0 + chunk, input.count)]) }
    #expect(Self.decode(reads) == [.pasteTooLarge(bytes: body.count), .text("x"), .enter])
    // At the limit it is pasted.
    let most = [UInt8](repeating: UInt8(ascii: "p"), count: InputDecoder.maximumPaste)
    let pasted = Self.decode([BracketedPaste.startMarker + most, BracketedPaste.endMarker])
    #expect(pasted == [.paste(String(decoding: most, as: UTF8.self))])
  }

  /// A paste start whose end never comes holds what follows as paste (not keys) until the chat
  /// ends it; then keys are keys again.
  @Test func anUnfinishedPasteEndsWhenTheChatSaysSo() {
    var decoder = InputDecoder()
    #expect(decoder.decode(Self.bytes("\u{1B}[200~hi\u{03}\r\u{1B}[201")).isEmpty)
    #expect(decoder.isInsidePaste)
    #expect(decoder.endUnfinishedPaste() == [.paste("hi\u{03}\r\u{1B}[201")])
    #expect(!decoder.isInsidePaste)
    #expect(decoder.endUnfinishedPaste().isEmpty)
    #expect(decoder.decode([0x03]) == [.control(3)])
  }

  @Test func theMouseWheelIsDecodedAndOtherMouseReportsDropped() {
    #expect(Self.decode([Self.bytes("\u{1B}[<64;10;5M\u{1B}[<65;10;5M")]) == [.wheelUp, .wheelDown])
    #expect(Self.decode([Self.bytes("\u{1B}[<0;10;5M\u{1B}[<0;10;5mx")]) == [.text("x")])
  }

  /// The background query's answer arriving after the chat reads keys (a slow link) is not typed.
  @Test func terminalAnswersAreDroppedWhole() {
    #expect(Self.decode([Self.bytes("a\u{1B}]11;rgb:1e1e/1e1e/1e1e\u{1B}\\b")]) == [.text("a"), .text("b")])
    #expect(
      Self.decode([Self.bytes("a\u{1B}]11;rgb:1e1e"), Self.bytes("/1e1e/1e1e\u{07}b")]) == [.text("a"), .text("b")])
    // Alt-] is not one; one broken by a key, or never ended, holds the keys after it back no longer.
    #expect(Self.decode([Self.bytes("\u{1B}]x"), Self.bytes("\u{1B}]1x")]) == [.text("x"), .text("1x")])
    #expect(Self.decode([Self.bytes("\u{1B}]11;rgb:1e\rok")]) == [.enter, .text("ok")])
    let long = Self.bytes("\u{1B}]11;" + String(repeating: "z", count: InputDecoder.maximumAnswer) + "ok")
    #expect(Self.decode([long]) == [.text(String(repeating: "z", count: 5) + "ok")])
  }

  @Test func unknownSequencesAreDroppedWhole() {
    #expect(Self.decode([Self.bytes("a\u{1B}[99zb")]) == [.text("a"), .text("b")])
  }
}
