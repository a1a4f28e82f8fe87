import Testing

@testable import replykit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    // Given back to the terminal (not the chat), it is dropped: the shell would read it as keys.
    #expect(TerminalInput.withoutTerminalAnswers(other) == Self.bytes("ab"))
    #expect(TerminalInput.withoutTerminalAnswers(Self.bytes("ab\u{1B}[A")) == Self.bytes("ab\u{1B}[A"))
  }
}

/// The keys a terminal's settings make signals of, told apart from typed text.
@Suite struct SignalKeysTests {
  static func settings(signals: Bool, interrupt: UInt8 = 0x03, quit: UInt8 = 0x1C, suspend: UInt8 = 0x1A) -> termios {
    var settings = termios()
    if signals { settings.c_lflag |= tcflag_t(ISIG) }
    withUnsafeMutableBytes(of: &settings.c_cc) { characters in
      characters[Int(VINTR)] = interrupt
      characters[Int(VQUIT)] = quit
      characters[Int(VSUSP)] = suspend
    }
    return settings
  }

  @Test func signalKeysAreCutFromTheText() {
    let keys = SignalKeys(settings: Self.settings(signals: true))
    #expect(keys.keys == [0x03: SIGINT, 0x1C: SIGQUIT, 0x1A: SIGTSTP])
    let (text, signals) = keys.split(Array("ab\u{1A}c\u{03}d\u{1C}".utf8))
    #expect(text == Array("abcd".utf8))
    #expect(signals == [SIGTSTP, SIGINT, SIGQUIT])
  }

  /// With signals off (`stty -isig`) the keys are text, as the terminal would read them; a disabled
  /// key (0) is none; where two share a key, interrupt wins.
  @Test func settingsDecideWhichKeysAreSignals() {
    #expect(SignalKeys(settings: Self.settings(signals: false)).keys.isEmpty)
    #expect(SignalKeys(settings: Self.settings(signals: true, quit: 0, suspend: 0)).keys == [0x03: SIGINT])
    #expect(SignalKeys(settings: Self.settings(signals: true, suspend: 0x03)).keys == [0x03: SIGINT, 0x1C: SIGQUIT])
  }
}
