import Foundation
import Testing

/// Input the chat must not misread, driven through the real chat in tmux: pastes too large or
/// never ended, text that looks like a command, the key that closes the help, keys typed at
/// start.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ChatInputTerminalTests {
  /// A reply command that counts the replies asked for in `count.txt`.
  static let countingCommand = "cat >/dev/null; echo x >> count.txt; echo ok"

  static func replies(in session: TmuxSession) -> Int {
    let text = (try? String(contentsOf: session.directory.appendingPathComponent("count.txt"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").count
  }

  /// A paste past 4 MiB is refused whole: no line of it is typed (each line break was an Enter
  /// that sent a message), and the keys after it work.
  @Test func aPasteTooLargeIsRefusedWholeAndSendsNothing() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand])
    let line = "pasted line " + String(repeating: "p", count: 70) + "\n"
    let text = String(repeating: line, count: 60_000)
    try session.paste(Data(text.utf8))
    try session.waitFor("Paste too large (\(text.utf8.count) bytes, the most is 4 MiB)", timeout: 60)
    #expect(Self.replies(in: session) == 0)
    #expect(!(try session.screen().contains("pasted line")))
    try session.submit("after")
    try session.waitFor("ok")
    #expect(Self.replies(in: session) == 1)
  }

  /// A paste start whose end never comes ends after a second without input: Ctrl-C quits again,
  /// and what came after the start is in the composer, not sent.
  @Test func aPasteThatNeverEndsLetsKeysWorkAfterASecond() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand])
    try session.send(bytes: Array("\u{1B}[200~stray".utf8))
    try session.press("Enter")
    try session.waitFor("The paste did not end", timeout: 5)
    #expect(try session.screen().contains("› stray"))
    #expect(Self.replies(in: session) == 0)
    try session.press("C-c")
    try session.waitFor("EXITED 0")
  }

  /// Text that starts with `/` but is not a command stays in the composer, and `//` sends it;
  /// a command that takes nothing, given something, is not run.
  @Test func textThatIsNotACommandIsKept() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand])
    try session.submit("/etc/hosts has a weird line")
    let screen = try session.waitFor("Unknown command /etc/hosts")
    #expect(screen.contains("› /etc/hosts has a weird line"))
    try session.press("C-u")
    try session.submit("/exit codes in bash: what does 137 mean?")
    try session.waitFor("/exit takes nothing after it")
    #expect(try session.screen().contains("› /exit codes in bash"))
    try session.press("C-a")
    try session.type("/")
    try session.press("Enter")
    try session.waitFor("ok")
    #expect(Self.replies(in: session) == 1)
    // The message shows with one slash; /edit puts it back with two, so Enter sends it again.
    #expect(try session.screen().contains("/exit codes in bash: what does 137 mean?"))
    try session.submit("/edit")
    try session.waitFor("› //exit codes in bash")
  }

  /// The key that closes the help is not typed into the composer.
  @Test func theKeyThatClosesTheHelpIsNotTyped() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand])
    try session.submit("/help")
    try session.waitFor("Press any key to close this help.")
    try session.type("x")
    try session.waitFor("help closed") { !$0.contains("Press any key to close") }
    try session.type("y")
    let screen = try session.waitFor("› y")
    #expect(!screen.contains("› xy"))
  }

  /// Keys typed before the chat reads keys (while the terminal is asked for its background) are
  /// kept.
  @Test func keysTypedAtStartAreKept() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand], readyText: nil)
    try session.type("early")
    try session.waitFor("› early")
  }

  /// The background query's answer coming after the chat reads keys (a slow link) is not typed.
  @Test func aLateAnswerFromTheTerminalIsNotTyped() throws {
    let session = try TmuxSession(["--reply-command", Self.countingCommand])
    try session.send(bytes: Array("\u{1B}]11;rgb:1e1e/1e1e/1e1e\u{1B}\\".utf8))
    try session.type("next")
    let screen = try session.waitFor("› next")
    #expect(!screen.contains("rgb:"))
  }
}
