import Testing

@testable import replykit

@Suite struct TerminalCursorTests {
  @Test(arguments: [
    ("\u{1B}[12;1R", 0), ("\u{1B}[3;12R", 11), ("typed\u{1B}[1;80R", 79),
  ])
  func aReportGivesTheColumnFromZero(reply: String, column: Int) {
    #expect(TerminalCursor.split(Array(reply.utf8)).column == column)
  }

  /// Keys typed around the report are given back in order; a report cut short is not one.
  @Test func keysAroundTheReportAreKeptInOrder() {
    let (column, other) = TerminalCursor.split(Array("ab\u{1B}[A\u{1B}[2;7Rc\r".utf8))
    #expect(column == 6)
    #expect(other == Array("ab\u{1B}[Ac\r".utf8))
    #expect(TerminalCursor.split(Array("R\u{1B}[2;7".utf8)) == (nil, Array("R\u{1B}[2;7".utf8)))
  }

  @Test(arguments: ["", "\u{1B}[12R", "\u{1B}[;5R", "\u{1B}[1;0R", "\u{1B}[1;5", "\u{1B}]11;rgb:0/0/0\u{07}", "[1;5R"])
  func anythingElseGivesNoColumn(reply: String) {
    #expect(TerminalCursor.split(Array(reply.utf8)).column == nil)
  }

  /// A report cut short at the end is not given back (the shell would read it as keys), whatever
  /// its digits; keys that end with another sequence are.
  @Test(arguments: [
    ("ab\u{1B}[12;3", "ab"), ("ab\u{1B}[", "ab"), ("ab\u{1B}", "ab"), ("ab\u{1B}[A", "ab\u{1B}[A"),
    ("ab\u{1B}[1;2;3", "ab"), ("ab", "ab"),
  ])
  func aReportCutShortIsNotGivenBack(other: String, kept: String) {
    #expect(TerminalInput.withoutTerminalAnswers(Array(other.utf8)) == Array(kept.utf8))
  }

  /// Given back to the terminal, keys keep arrows but lose what the terminal sent: a late answer
  /// to the background query (a review: it reached the shell as typed keys), a cursor report, and
  /// a sequence cut short at the end.
  @Test(arguments: [
    ("ls\u{1B}]11;rgb:0000/0000/0000\u{1B}\\x", "lsx"), ("a\u{1B}]11;rgb:ff/ff/ff\u{07}b", "ab"),
    ("\u{1B}[A\u{1B}[12;40Rz", "\u{1B}[Az"), ("q\u{1B}]11;rgb:00", "q"), ("q\u{1B}[3;", "q"), ("q\u{1B}", "q"),
    ("\u{1B}[1;5A\u{1B}OB", "\u{1B}[1;5A\u{1B}OB"),
  ])
  func terminalAnswersAreNotGivenBack(typed: String, kept: String) {
    #expect(TerminalInput.withoutTerminalAnswers(Array(typed.utf8)) == Array(kept.utf8))
  }
}
