import ChatEngine
import Foundation
import Testing

@testable import replykit

/// The chat screen drawn from a thread, without a terminal: numbers on replies and code blocks,
/// the help paged, long notices whole.
@MainActor @Suite struct ChatScreenTests {
  static let date = Date(timeIntervalSince1970: 1_700_000_000)

  static func thread(_ messages: [ChatMessage]) -> ChatThread {
    ChatThread(messages: messages, reply: { _ in AsyncThrowingStream { $0.finish() } }, onFeedback: { _, _ in })
  }

  static func lines(_ screen: ChatScreen, _ thread: ChatThread) -> [String] {
    screen.frame(thread).lines
  }

  @Test func repliesAndTheirCodeBlocksShowTheirNumbers() {
    let reply = "Run:\n\n```sh\nls\n```\n\n- then\n\n  ```\n  pwd\n  ```\n"
    let thread = Self.thread([
      ChatMessage(role: .user, text: "one", date: Self.date),
      ChatMessage(role: .assistant, text: "First", date: Self.date),
      ChatMessage(role: .user, text: "two", date: Self.date),
      ChatMessage(role: .assistant, text: reply, date: Self.date),
      ChatMessage(role: .user, text: "three", date: Self.date),
      ChatMessage(role: .assistant, text: "half", date: Self.date, state: .failed("It broke.")),
    ])
    let screen = ChatScreen(columns: 60, rows: 40, color: false)
    let lines = Self.lines(screen, thread)
    #expect(lines.contains(" #1 · Copy · ▲ Good · ▼ Bad · Share"))
    #expect(lines.contains(" sh · code 1"))
    #expect(lines.contains("   code 2"))
    #expect(lines.contains(" #2 · Copy · ▲ Good · ▼ Bad · Share · code 1–2"))
    #expect(lines.contains(" ✗ It broke."))
    #expect(lines.contains(" #3 · ↻ Retry /retry"))
  }

  @Test func theReplyInViewLeadsTheHints() {
    let hints = ChatScreen.hints(streaming: false, width: 40, inView: "acting on #1")
    #expect(hints == "acting on #1 · /help · Ctrl-C quits")
    // Narrower, the essential hints win.
    #expect(ChatScreen.hints(streaming: false, width: 24, inView: "acting on #1") == "/help · Ctrl-C quits")
    #expect(ChatScreen.hints(streaming: false, width: 40) == "Enter sends · /help · Ctrl-C quits")
  }

  @Test func aTallHelpShowsAPageAndScrolls() {
    let thread = Self.thread([])
    let screen = ChatScreen(columns: 50, rows: 12, color: false)
    screen.overlay = (1...30).map { "help line \($0)" }
    #expect(screen.overlayScrolls)
    let first = Self.lines(screen, thread)
    #expect(first[0] == "help line 1")
    #expect(first[8] == "1–8 of 30 · PgUp/PgDn scroll · other keys close")
    screen.scrollOverlay(by: 100)
    let last = Self.lines(screen, thread)
    #expect(last[0] == "help line 23")
    #expect(last[7] == "help line 30")
    #expect(last[8] == "23–30 of 30 · PgUp/PgDn scroll · other keys close")
    screen.overlay = ["short help"]
    #expect(!screen.overlayScrolls)
    #expect(Self.lines(screen, thread)[8] == "short help")
  }

  @Test func aLongNoticeShowsWholeAboveTheComposer() {
    let thread = Self.thread([])
    let screen = ChatScreen(columns: 40, rows: 12, color: false)
    screen.marker = "not saving"
    screen.notice = "thread.json did not load (not valid JSON); it will not be overwritten"
    screen.noticeIsError = true
    let lines = Self.lines(screen, thread)
    // The thread area is 9 lines: the notice takes its last two.
    #expect(lines[6...8] == ["", " thread.json did not load (not valid", " JSON); it will not be overwritten"][...])
    #expect(lines[9] == String(repeating: "─", count: 40))
    #expect(lines.last == "[not saving] /help · Ctrl-C quits")
    screen.notice = "Saved"
    #expect(Self.lines(screen, thread).last == "[not saving] Saved")
  }
}
