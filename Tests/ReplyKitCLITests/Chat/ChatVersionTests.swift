import Foundation
import Testing

/// Versions in `replykit chat`, end to end: `‹ 2/3 ›`, `/prev`, `/next`, `/version N`, `/edit [N]`.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxPath != nil, "needs tmux: 'make test' installs it"))
struct ChatVersionTests {
  /// Answers "Answer N", N counting the replies the command has given.
  static let countingReply = ChatTerminalTests.countingReply

  @Test func regenerateKeepsTheOldReplyAndTheCommandsSwitchBetweenThem() throws {
    let session = try TmuxSession(["--reply-command", Self.countingReply, "--thread", "t.json"])
    try session.submit("count for me")
    try session.waitFor("the first reply") { $0.contains("Answer 1") && $0.contains("Regenerate") }
    try session.submit("/regenerate")
    var screen = try session.waitFor("the second version") { $0.contains("Answer 2") && $0.contains("‹ 2/2 ›") }
    #expect(!screen.contains("Answer 1"))
    try session.submit("/prev")
    screen = try session.waitFor("version 1") { $0.contains("Answer 1") && $0.contains("‹ 1/2 ›") }
    #expect(screen.contains("Version 1 of 2"))  // the switch is announced in the status line
    #expect(!screen.contains("Answer 2"))
    try session.submit("/prev")
    try session.waitFor("That is the first version.")
    try session.submit("/next")
    try session.waitFor("version 2 again") { $0.contains("Answer 2") && $0.contains("‹ 2/2 ›") }
    try session.submit("/regenerate")
    try session.waitFor("a third version") { $0.contains("Answer 3") && $0.contains("‹ 3/3 ›") }
    try session.press("M-Left")
    try session.waitFor("Alt-Left to version 2") { $0.contains("Answer 2") && $0.contains("‹ 2/3 ›") }
    try session.press("M-Right")
    try session.waitFor("Alt-Right to version 3") { $0.contains("Answer 3") && $0.contains("‹ 3/3 ›") }
    try session.submit("/version 1")
    try session.waitFor("version 1 again") { $0.contains("Answer 1") && $0.contains("‹ 1/3 ›") }
    try session.submit("/version 4")
    try session.waitFor("There is no version 4; the turn has 3.")
    try session.submit("/quit")
    try session.waitFor("EXITED 0")
    // The file keeps every version and which one shows.
    let data = try Data(contentsOf: session.directory.appendingPathComponent("t.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let messages = try #require(json["messages"] as? [[String: Any]])
    #expect(messages.compactMap { $0["text"] as? String } == ["count for me", "Answer **1**\n"])
    let versions = try #require(json["versions"] as? [[String: Any]])
    #expect(versions.count == 2)
    #expect(versions.compactMap { $0["version"] as? Int } == [2, 3])
  }

  @Test func editBranchesFromAnEarlierTurnAndPrevBringsTheOldBranchBack() throws {
    let session = try TmuxSession(["--reply-command", Self.countingReply, "--thread", "t.json"], height: 40)
    try session.submit("first question")
    try session.waitFor("the first reply") { $0.contains("Answer 1") && $0.contains("Regenerate") }
    try session.submit("second question")
    try session.waitFor("the second reply") { $0.contains("Answer 2") && $0.contains("Regenerate") }
    try session.submit("/edit 1")
    var screen = try session.waitFor("editing your message")
    #expect(screen.contains("› first question"))
    try session.press("C-u")
    try session.submit("first, edited")
    screen = try session.waitFor("the reply to the edit") { $0.contains("Answer 3") && $0.contains("‹ 2/2 ›") }
    #expect(screen.contains("first, edited"))
    #expect(!screen.contains("second question") && !screen.contains("Answer 2"))
    #expect(!screen.contains("editing your message"))
    // The reply has one version, so /prev switches your message before it: the old branch is back.
    try session.submit("/prev")
    screen = try session.waitFor("the old branch") { $0.contains("second question") && $0.contains("Answer 2") }
    #expect(screen.contains("first question") && screen.contains("‹ 1/2 ›"))
    #expect(!screen.contains("Answer 3"))
  }

  @Test func escapeCancelsAnEdit() throws {
    let session = try TmuxSession(["--reply-command", Self.countingReply, "--thread", "t.json"])
    try session.submit("only question")
    try session.waitFor("the reply") { $0.contains("Answer 1") && $0.contains("Regenerate") }
    try session.submit("/edit")
    try session.waitFor("› only question")
    try session.press("Escape")
    let screen = try session.waitFor("the edit to go") { !$0.contains("editing your message") }
    #expect(!screen.contains("› only question"))
    try session.submit("a new question")
    try session.waitFor("Answer 2")
    #expect(!(try session.screen()).contains("‹ "))
  }
}
