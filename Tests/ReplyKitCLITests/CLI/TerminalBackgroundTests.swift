import Testing

@testable import replykit

/// The background query's answer told apart from keys typed while it waited.
@Suite struct TerminalBackgroundTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func keysAroundTheAnswerAreKeptInOrder() {
    let answer = Self.bytes("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\")
    let (found, other) = TerminalBackground.split(Self.bytes("hi") + answer + Self.bytes("\u{1B}[A!\r"))
    #expect(found == answer)
    #expect(other == Self.bytes("hi\u{1B}[A!\r"))
    #expect(found.flatMap(TerminalBackground.parse) == false)
  }

  @Test func withoutAnAnswerEverythingIsKeys() {
    #expect(TerminalBackground.split(Self.bytes("typed\r")) == (nil, Self.bytes("typed\r")))
    let bel = Self.bytes("\u{1B}]11;rgb:0000/0000/0000\u{07}")
    #expect(TerminalBackground.split(bel + Self.bytes("x")) == (bel, Self.bytes("x")))
  }

  /// An answer cut short stays with the keys, and the chat's decoder drops it with its rest.
  @Test func anAnswerCutShortIsNotTyped() {
    let (answer, other) = TerminalBackground.split(Self.bytes("ab\u{1B}]11;rgb:00"))
    #expect(answer == nil)
    var decoder = InputDecoder()
    #expect(decoder.decode(other) == [.text("ab")])
    #expect(decoder.decode(Self.bytes("00/0000/0000\u{1B}\\c")) == [.text("c")])
  }
}
