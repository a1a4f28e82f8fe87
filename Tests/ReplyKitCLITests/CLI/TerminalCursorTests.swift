import Testing

@testable import replykit

@Suite struct TerminalCursorTests {
  @Test(arguments: [
    ("\u{1B}[12;1R", 0), ("\u{1B}[3;12R", 11), ("typed\u{1B}[1;80R", 79),
  ])
  func aReportGivesTheColumnFromZero(reply: String, column: Int) {
    #expect(TerminalCursor.parse(Array(reply.utf8)) == column)
  }

  @Test(arguments: ["", "\u{1B}[12R", "\u{1B}[;5R", "\u{1B}[1;0R", "\u{1B}[1;5", "\u{1B}]11;rgb:0/0/0\u{07}", "[1;5R"])
  func anythingElseGivesNoColumn(reply: String) {
    #expect(TerminalCursor.parse(Array(reply.utf8)) == nil)
  }
}
