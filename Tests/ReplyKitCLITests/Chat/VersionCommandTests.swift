import ChatEngine
import Foundation
import Testing

@testable import replykit

/// The version commands and marks of the chat, without a terminal.
@MainActor
@Suite struct VersionCommandTests {
  @Test func theVersionCommandsParse() {
    #expect(SlashCommand.parse("/prev") == .previousVersion)
    #expect(SlashCommand.parse(" /next ") == .nextVersion)
    #expect(SlashCommand.parse("/version 3") == .version(3))
    #expect(SlashCommand.parse("/edit") == .edit(nil))
    #expect(SlashCommand.parse("/edit 2") == .edit(2))
    #expect(SlashCommand.parse("/version") == .invalid("Use /version N, with N from 1 (‹ N/M › under a turn)."))
    #expect(SlashCommand.parse("/version 0") == .invalid("Use /version N, with N from 1."))
    #expect(SlashCommand.parse("/edit x") == .invalid("Use /edit [N], with N from 1."))
    #expect(SlashCommand.parse("/prev 2") == .invalid("/prev takes no number; /version N shows version N."))
    #expect(SlashCommand.helpLines.contains { $0.contains("/edit [N]") })
  }

  @Test func altLeftAndAltRightDecode() {
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}[1;3D\u{1B}[1;3C\u{1B}[D".utf8)) == [.altLeft, .altRight, .left])
    // Other modifiers (Ctrl is 5) stay the plain arrow.
    #expect(decoder.decode(Array("\u{1B}[1;5C".utf8)) == [.right])
  }

  @Test func aTurnWithVersionsShowsWhichOneUnderIt() {
    let renderer = TurnRenderer(width: 60, color: false)
    let versions = ChatVersions(ids: [UUID(), UUID(), UUID()], shownIndex: 1)
    let reply = ChatMessage(role: .assistant, text: "Hello", date: Date())
    let turn = ChatTurn(message: reply, isLatest: true, copied: nil, showsThumbs: true, versions: versions)
    let lines = renderer.lines(for: .turn(turn))
    #expect(lines.contains { $0.hasPrefix(" ‹ 2/3 › · Copy · Regenerate") })
    let user = ChatMessage(role: .user, text: "Hi", date: Date())
    let userLines = renderer.lines(
      for: .turn(ChatTurn(message: user, isLatest: false, copied: nil, showsThumbs: true, versions: versions)))
    #expect(userLines.dropLast().last?.hasSuffix("‹ 2/3 ›") == true)
    #expect(userLines.allSatisfy { VisibleText.width($0) <= 60 })
    // A failed reply has no action row; the versions still show.
    var failed = reply
    failed.state = .failed("Offline.")
    let failedLines = renderer.lines(
      for: .turn(ChatTurn(message: failed, isLatest: true, copied: nil, showsThumbs: true, versions: versions)))
    #expect(failedLines.contains(" ‹ 2/3 ›"))
    // Without versions nothing changes.
    #expect(
      !renderer.lines(for: .turn(ChatTurn(message: reply, isLatest: true, copied: nil, showsThumbs: true)))
        .joined().contains("‹"))
  }
}
