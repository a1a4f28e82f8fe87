import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `replykit chat` end to end: the real program in tmux, driven by keys, read from the pane.
@Suite(.serialized) struct ChatTerminalTests {
  /// A reply command that answers "Answer N", N counting the replies it has given.
  static let countingReply = #"echo x >> count.txt; printf 'Answer **%s**\n' "$(wc -l < count.txt | tr -d ' ')""#

  @Test func theExampleStreamsAndASentMessageGetsARenderedReply() throws {
    let session = try TmuxSession(["--pace-ms", "3"])
    try session.waitFor("the follow-up to finish") {
      $0.contains("Swap ItemStore for your own type") && $0.contains("Regenerate")
    }
    try session.submit("What is **bold** here?")
    let screen = try session.waitFor("the stub reply to finish") {
      $0.contains("rendered by ReplyKit's own markdown renderer") && $0.contains("Regenerate")
    }
    #expect(screen.contains("What is **bold** here?"))  // the person's turn is shown as typed
    #expect(screen.contains("┃ What is bold here?"))  // the reply's quote is rendered markdown
    #expect(screen.contains("│ replykit chat --reply-command"))  // a code block with its gutter
    #expect(!screen.contains("```"))
    #expect(screen.contains("1. Replies stream in word by word"))
  }

  @Test func escapeStopsTheStreamingReplyAndKeepsItsText() throws {
    let session = try TmuxSession(["--pace-ms", "120", "--thread", "new.json"])
    try session.submit("please stop me")
    try session.waitFor("┃ please stop me")
    try session.press("Escape")
    let screen = try session.waitFor("Stopped")
    #expect(screen.contains("You asked:"))
    #expect(screen.contains("┃ please stop me"))
    #expect(!screen.contains("Everything you see here"))
    #expect(screen.contains("Copy · Regenerate"))
    #expect(!screen.contains("■ Stop"))
  }

  @Test func regenerateReplacesTheLatestReply() throws {
    let session = try TmuxSession(["--reply-command", Self.countingReply, "--thread", "t.json"])
    try session.submit("count for me")
    try session.waitFor("Answer 1")
    try session.waitFor("Regenerate")
    try session.submit("/regenerate")
    let screen = try session.waitFor("Answer 2")
    #expect(!screen.contains("Answer 1"))
  }

  @Test func copyShowsCopiedAndSetsTheClipboard() throws {
    let session = try TmuxSession(["--reply-command", "printf 'Copy **this** text\\n'", "--thread", "t.json"])
    try session.submit("give me something")
    try session.waitFor("Copy this text")
    try session.waitFor("Regenerate")
    try session.submit("/copy")
    let screen = try session.waitFor("✓ Copied")
    #expect(screen.split(separator: "\n").last?.contains("Copied") == true)
    #expect(try session.pasteBuffer() == "Copy this text")
    // "Copied" shows for a moment, then Copy comes back.
    try session.waitFor("Copy to come back", timeout: 5) { !$0.contains("Copied") && $0.contains("Copy · Regenerate") }
  }

  @Test func scrollingUpWhileAReplyStreamsShowsNewMessagesAndKeepsTheView() throws {
    let session = try TmuxSession(["--pace-ms", "40"])
    try session.waitFor("■ Stop")
    try session.waitFor("the reply to reach the code block") { $0.contains("struct ItemsScreen") }
    try session.press("PageUp")
    let first = try session.waitFor("New messages")
    Thread.sleep(forTimeInterval: 0.6)
    let later = try session.screen()
    let threadArea = { (screen: String) in screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(20) }
    #expect(threadArea(first) == threadArea(later))
    #expect(later.contains("New messages"))
    try session.press("End")
    try session.waitFor("the marker to go") { !$0.contains("New messages") }
  }

  @Test func theMouseWheelScrollsAndReachingTheBottomFollowsAgain() throws {
    let session = try TmuxSession(["--pace-ms", "40"])
    try session.waitFor("the reply to reach the code block") { $0.contains("struct ItemsScreen") }
    let wheel = { (button: Int) in Array("\u{1B}[<\(button);10;5M".utf8) }
    try session.send(bytes: wheel(64))
    try session.waitFor("New messages")
    try session.send(bytes: Array(repeating: wheel(65), count: 10).flatMap { $0 })
    try session.waitFor("following to resume") { !$0.contains("New messages") && !$0.contains("Latest") }
  }

  @Test func resizingLaysTheThreadOutAgain() throws {
    let session = try TmuxSession(["--pace-ms", "2"])
    let wide = try session.waitFor("the follow-up to finish") {
      $0.contains("you are done.") && $0.contains("Regenerate")
    }
    #expect(wide.contains("Swap ItemStore for your own type and you are done."))
    try session.resize(width: 50, height: 20)
    let narrow = try session.waitFor("the narrow layout") { screen in
      screen.contains(String(repeating: "─", count: 50)) && !screen.contains("type and you are done.")
    }
    for line in narrow.split(separator: "\n") {
      #expect(line.count <= 50)
    }
    #expect(narrow.contains("Swap ItemStore for your own"))
  }

  /// The help open while the terminal narrows is laid out again for the new width: no line
  /// spills past it onto the next row.
  @Test func theHelpIsLaidOutAgainWhenTheTerminalNarrows() throws {
    let session = try TmuxSession(["--reply-command", "printf ok"])
    try session.submit("/help")
    try session.waitFor("/quit")
    try session.resize(width: 30, height: 8)
    let narrow = try session.waitFor("the narrow help") { screen in
      screen.contains(String(repeating: "─", count: 30)) && screen.contains("of ")
    }
    for line in narrow.split(separator: "\n") {
      #expect(line.count <= 30, "\(line)")
    }
    try session.press("PageDown")
    try session.press("PageDown")
    let paged = try session.screen()
    for line in paged.split(separator: "\n") where line.contains("─") {
      #expect(line.allSatisfy { $0 == "─" }, "a help line spilled onto the separator: \(line)")
    }
  }

  @Test func aFailingReplyCommandShowsTheFailureAndRetry() throws {
    let command = "echo partial; echo 'warming up' >&2; echo 'model exploded' >&2; exit 3"
    let session = try TmuxSession(["--reply-command", command, "--thread", "t.json"])
    try session.submit("hello")
    let screen = try session.waitFor("✗ model exploded")
    #expect(screen.contains("Retry"))
    #expect(!screen.contains("warming up"))
    try session.submit("/retry")
    try session.waitFor("✗ model exploded")
  }

  @Test func stopEndsTheReplyCommandsProcessGroup() throws {
    let marker = "37.\(Int.random(in: 100_000...999_999))"
    let session = try TmuxSession(["--reply-command", "echo started; sleep \(marker) & sleep \(marker); echo never"])
    try session.submit("run something slow")
    try session.waitFor("started")
    // The second `sleep` starts a moment after "started" is printed: poll for both.
    let started = Date().addingTimeInterval(5)
    while Self.processesMatching("^sleep \(marker)") < 2, Date() < started { Thread.sleep(forTimeInterval: 0.05) }
    #expect(Self.processesMatching("^sleep \(marker)") == 2)
    try session.press("Escape")
    let screen = try session.waitFor("Stopped")
    #expect(!screen.contains("never"))
    let deadline = Date().addingTimeInterval(5)
    var running = true
    while running, Date() < deadline {
      running = Self.processesMatching("^sleep \(marker)") > 0
      if running { Thread.sleep(forTimeInterval: 0.1) }
    }
    #expect(!running, "the reply command's processes outlived Stop")
  }

  @Test func theThreadFileRoundTrips() throws {
    let session = try TmuxSession(["--reply-command", "printf 'Stored **answer**'", "--thread", "thread.json"])
    try session.submit("remember me")
    try session.waitFor("Stored answer")
    try session.waitFor("Regenerate")
    try session.submit("/quit")
    try session.waitFor("EXITED 0")
    let url = session.directory.appendingPathComponent("thread.json")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    let messages = json?["messages"] as? [[String: Any]] ?? []
    #expect(messages.count == 2)
    #expect(messages.first?["text"] as? String == "remember me")
    #expect(messages.last?["text"] as? String == "Stored **answer**")
    #expect(messages.last?["state"] as? String == "complete")

    let again = try TmuxSession(["--thread", url.path])
    let screen = try again.waitFor("Loaded 2 messages")
    #expect(screen.contains("remember me"))
    #expect(screen.contains("Stored answer"))
  }

  /// The thread was saved only once a reply ended, so a chat killed outright mid-reply (SIGKILL,
  /// out of memory) lost the question just sent (a trial). It is saved as it is sent.
  @Test func aSentMessageIsSavedBeforeItsReplyEnds() throws {
    let session = try TmuxSession([
      "--reply-command", "cat > /dev/null; printf 'Thinking'; sleep 30", "--thread", "t.json",
    ])
    try session.submit("keep this question")
    try session.waitFor("Thinking")
    #expect(session.signalProgram(SIGKILL))
    try session.waitFor("EXITED 137")
    let url = session.directory.appendingPathComponent("t.json")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    let messages = json?["messages"] as? [[String: Any]] ?? []
    #expect(messages.first?["text"] as? String == "keep this question")
    #expect(messages.count == 2 && messages.last?["role"] as? String == "assistant")
    let again = try TmuxSession(["--thread", url.path])
    let screen = try again.waitFor("Loaded 2 messages")
    #expect(screen.contains("keep this question"))
  }

  @Test func aThreadFileThatFailsToLoadIsNeverOverwritten() throws {
    let original = Data("{\"messages\": [{\"role\": \"robot\"}]}".utf8)
    let session = try TmuxSession(
      ["--reply-command", "printf ok", "--thread", "broken.json"], files: ["broken.json": original])
    try session.waitFor("did not load")
    try session.submit("hi")
    try session.waitFor("Regenerate")
    try session.submit("/save")
    try session.waitFor("Not saving over")
    try session.press("C-c")
    // The turns are lost with the file that did not load: status 1.
    try session.waitFor("EXITED 1")
    #expect(try Data(contentsOf: session.directory.appendingPathComponent("broken.json")) == original)
  }

  @Test func controlCharactersFromARepliesNeverReachTheTerminal() throws {
    let session = try TmuxSession([
      "--reply-command", #"printf 'evil \033[31mred\033]0;pwned\007 end'"#, "--thread", "t.json",
    ])
    try session.submit("be evil")
    // Wait for the reply's own last word ("end" alone also matches the hint line's "sends"), and
    // for its end: while it streams, `[31mred␛]` is a pending link label, shown without brackets.
    try session.waitFor("␇ end")
    let screen = try session.waitFor("Regenerate")
    #expect(screen.contains("␛[31mred␛]0;pwned␇ end"))
  }

  @Test func alternateEnterAddsALineAndTheTerminalIsRestoredOnExit() throws {
    let session = try TmuxSession(["--reply-command", "printf done", "--thread", "t.json"])
    try session.type("first line")
    try session.press("M-Enter")
    try session.type("second line")
    let composing = try session.waitFor("second line")
    #expect(composing.contains("› first line"))
    try session.press("Enter")
    try session.waitFor("done")
    try session.press("C-c")
    let screen = try session.waitFor("EXITED 0")
    // Back on the normal screen: the chat's lines are gone.
    #expect(!screen.contains("Enter sends"))
  }

  /// How many processes have `pattern` in their command line.
  /// Waits up to 5 s for at least `count` processes matching `pattern`; how many there are.
  static func waitForProcesses(_ pattern: String, count: Int) -> Int {
    let deadline = Date().addingTimeInterval(5)
    while processesMatching(pattern) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return processesMatching(pattern)
  }

  static func processesMatching(_ pattern: String) -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
    process.arguments = ["-f", "-c", pattern]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return 0 }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }
}
