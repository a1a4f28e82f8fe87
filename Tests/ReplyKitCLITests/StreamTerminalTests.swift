import Foundation
import ReplyMarkdown
import Testing

/// `replykit stream --to ansi` on a terminal (tmux): the live region redraws in place, one row per
/// line, and only committed lines reach the scrollback, so the terminal ends as `render` leaves it:
/// with `--width` wider than the terminal, with a tail taller than the screen (a long table whose
/// columns widen, references defined last, a list that turns loose, a table row taller than the
/// screen) and with emoji that tmux draws wider than the renderer counts.
@Suite(.enabled(if: TmuxSession.tmuxPath != nil, "tmux is not installed: run 'make test' (it installs tmux)"))
struct StreamTerminalTests {
  static let columns = 80

  /// `text`'s lines as a terminal `columns` wide shows them: wrapped by display width, a wide
  /// character that does not fit moving to the next row; trailing spaces dropped (as tmux captures).
  static func wrapped(_ text: String, columns: Int) -> [String] {
    var rows: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var row = ""
      var width = 0
      for character in line {
        let characterWidth = DisplayWidth.of(String(character))
        if width + characterWidth > columns {
          rows.append(row)
          row = ""
          width = 0
        }
        row.append(character)
        width += characterWidth
      }
      rows.append(row)
    }
    return rows.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  @Test(arguments: [
    "02-swift-sort-vs-sorted.md", "09-banana-bread-recipe.md", "13-c-pointers-explained.md",
    "16-korean-study-plan.md", "19-vscode-keyboard-shortcuts.md",
  ])
  func widerThanTheTerminalEndsAsRenderWrapped(name: String) throws {
    let file = StreamCommandTests.corpus.first { $0.lastPathComponent == name }
    let path = try #require(file).path
    let flags = ["--to", "ansi", "--width", "120", "--color", "never", "--hyperlinks", "never"]
    let rendered = try CLIRunner.run(["render", path] + flags)
    var expected = Self.wrapped(rendered.stdout, columns: Self.columns)
    while expected.last == "" { expected.removeLast() }

    let session = try TmuxSession(
      [path, "--delay-ms", "1", "--chunk-bytes", "8"] + flags, width: Self.columns, height: 24,
      subcommand: "stream", readyText: nil)
    try session.waitFor("EXITED 0", timeout: 60)
    var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
    rows = Array(rows[..<end])
    while rows.last == "" { rows.removeLast() }
    #expect(rows == expected, "\(name): the terminal shows\n\(rows.joined(separator: "\n"))")
  }

  /// What a terminal `width` x `height` holds, scrollback included, after `replykit SUBCOMMAND
  /// FILE flags` ran in it: one line per row, up to the line the session prints when it exits.
  static func terminal(
    _ subcommand: String, file: String, text: String, flags: [String], width: Int, height: Int
  ) throws -> [String] {
    let session = try TmuxSession(
      [file] + flags, width: width, height: height, files: [file: Data(text.utf8)], subcommand: subcommand,
      readyText: nil)
    try session.waitFor("EXITED 0", timeout: 60)
    var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
    rows = Array(rows[..<end])
    while rows.last == "" { rows.removeLast() }
    return rows
  }

  /// Replies whose tail, at some update, was taller than the screen or changed its lines above
  /// the screen's top: what the live region showed on the way must leave no trace.
  static let tallTails: [(name: String, text: String, width: Int, height: Int)] = [
    (
      "a table whose columns widen after a screen of rows", tallTable, 80, 24
    ),
    (
      "references and a footnote defined after a screen of paragraphs",
      "Array index a[0] and [not a link] and [x][y], a note[^1] and a [citation].\n\n"
        + (1...40).map { "Paragraph \($0).\n\n" }.joined()
        + "[^1]: The note.\n\n[citation]: https://example.com/cited\n", 80, 24
    ),
    (
      "a list that turns loose",
      "1) Heat the oven and line a loaf tin with parchment.\n2) Mash the bananas in a large bowl with a fork.\n"
        + "3) Stir in the melted butter, then the sugar.\n"
        + "4) Sprinkle the baking soda and salt over the batter and mix them in.\n"
        + "5) Add the flour and fold just until no dry streaks remain.\n\n   Don't overmix.\n\n6) Bake.\n", 40, 8
    ),
    (
      "a table row taller than the screen",
      "| Sign | Solutions | Graph |\n|:----:|:----------|:------|\n"
        + "| > 0 | two different real roots of the equation, which are distinct | crosses the x-axis twice at two points |\n"
        + "| = 0 | one repeated real root | touches the axis |\n", 20, 6
    ),
    (
      "a setext heading after a paragraph taller than the screen",
      (1...40).map { "word\($0)" }.joined(separator: " ") + "\n===\n\nafter\n", 20, 6
    ),
    (
      "a table with emoji tmux draws wider than the renderer counts",
      "| What | Looks like | Graphemes | Code points | UTF-16 units | UTF-8 bytes |\n"
        + "|:-----|:----------:|----------:|------------:|-------------:|------------:|\n"
        + "| waving hand, medium skin tone | 👋🏽 | 1 | 2 | 4 | 8 |\n| red heart + VS16 | ❤️ | 1 | 2 | 2 | 6 |\n"
        + "| family | 👨‍👩‍👧‍👦 | 1 | 7 | 11 | 25 |\n", 80, 10
    ),
  ]

  static var tallTable: String {
    var text = "| # | Command | Description |\n|---|---|---|\n"
    for row in 1...30 { text += "| \(row) | cmd\(row) | does thing \(row) |\n" }
    return text + "| 31 | `git rebase --interactive --autosquash` | rewrites history of the current branch |\n"
  }

  @Test(arguments: 0..<tallTails.count)
  func aTailTallerThanTheScreenEndsAsRender(index: Int) throws {
    let (name, text, width, height) = Self.tallTails[index]
    let flags = ["--to", "ansi", "--color", "never", "--hyperlinks", "never"]
    let rendered = try Self.terminal("render", file: "reply.md", text: text, flags: flags, width: width, height: height)
    let streamed = try Self.terminal(
      "stream", file: "reply.md", text: text, flags: flags + ["--chunk-bytes", "3"], width: width, height: height)
    #expect(rendered.count > height - 1, "\(name): the reply must be taller than the screen")
    #expect(
      streamed == rendered,
      "\(name): the terminal shows\n\(streamed.joined(separator: "\n"))\nwhere render shows\n\(rendered.joined(separator: "\n"))"
    )
  }

  /// A terminal one row high has no room for a tail (its one row is the cursor's): only committed
  /// lines reach it. (Before, a height of 1 read as 24, and every frame of the tail went to the
  /// scrollback.)
  @Test func aTerminalOneRowHighGetsNoTail() throws {
    let text = "# Heading one with several words\n\nA paragraph that grows *word* by word.\n\n- one\n- two\n"
    let flags = ["--to", "ansi", "--color", "never", "--hyperlinks", "never"]
    // One row shows only the last line: the end is waited for in the scrollback.
    func terminal(_ subcommand: String, _ extra: [String]) throws -> [String] {
      let session = try TmuxSession(
        ["reply.md"] + flags + extra, width: 80, height: 1, files: ["reply.md": Data(text.utf8)],
        subcommand: subcommand, readyText: nil)
      _ = try session.waitFor("EXITED 0 in the scrollback", timeout: 60) { _ in
        (try? session.scrollback())?.contains("EXITED 0") == true
      }
      var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
      rows = Array(rows[..<end])
      while rows.last == "" { rows.removeLast() }
      return rows
    }
    let rendered = try terminal("render", [])
    let streamed = try terminal("stream", ["--chunk-bytes", "3"])
    #expect(rendered.contains("- one") || rendered.contains("• one"), "\(rendered)")
    #expect(streamed == rendered, "the terminal shows\n\(streamed.joined(separator: "\n"))")
  }

  /// A terminal made narrower while a tail of long lines streams re-wraps them onto more rows: the
  /// next update goes up by the rows they take now, so none is left behind twice. (Before, with
  /// committed text above the tail, the first re-wrapped lines stayed above the redrawn region.)
  @Test func narrowingTheTerminalMidStreamLeavesNoLineTwice() throws {
    var text = (1...30).map { "Paragraph \($0).\n\n" }.joined()
    text += (1...12).map { "Line \($0) " + String(repeating: "abcdefghij", count: 6) + "\\\n" }.joined() + "end\n"
    let flags = ["--to", "ansi", "--width", "80", "--color", "never", "--hyperlinks", "never"]
    let session = try TmuxSession(
      ["reply.md", "--chunk-bytes", "8", "--delay-ms", "25"] + flags, width: 80, height: 24,
      files: ["reply.md": Data(text.utf8)], subcommand: "stream", readyText: nil)
    try session.waitFor("Line 3 ", timeout: 60)
    try session.resize(width: 50, height: 24)
    try session.waitFor("EXITED 0", timeout: 60)
    var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
    rows = Array(rows[..<end])
    while rows.last == "" { rows.removeLast() }
    let rendered = try Self.terminal("render", file: "reply.md", text: text, flags: flags, width: 80, height: 24)
    var expected = Self.wrapped(rendered.joined(separator: "\n"), columns: 50)
    while expected.last == "" { expected.removeLast() }
    #expect(rows == expected, "the terminal shows\n\(rows.joined(separator: "\n"))")
  }

  /// Ctrl-C while a tail taller than the screen streams: the whole tail is written out before the
  /// program dies of the signal, so the terminal holds the reply from its first line, each line
  /// once. (Before, the tail's lines above the screen's top were never written.)
  @Test func anInterruptedTallTailIsLeftWhole() throws {
    let line = { (index: Int) in "Line \(index) of a paragraph with hard breaks" }
    let text = (1...40).map { line($0) + "\\\n" }.joined() + "end\n"
    let session = try TmuxSession(
      ["reply.md", "--to", "ansi", "--color", "never", "--chunk-bytes", "8", "--delay-ms", "15"], width: 80,
      height: 12, files: ["reply.md": Data(text.utf8)], subcommand: "stream", readyText: nil)
    try session.waitFor("Line 20 ", timeout: 60)
    #expect(session.signalProgram(SIGINT))
    try session.waitFor("EXITED 130", timeout: 20)
    var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
    rows = Array(rows[..<end])
    while rows.last == "" { rows.removeLast() }
    #expect(rows.count >= 20, "\(rows.joined(separator: "\n"))")
    for (index, row) in rows.enumerated() {
      let expected = line(index + 1)
      // The last line may be cut where the text stopped arriving.
      let matches = index == rows.count - 1 ? !row.isEmpty && expected.hasPrefix(row) : row == expected
      #expect(matches, "row \(index + 1) is \(row.debugDescription)")
    }
  }

  /// Ctrl-Z mid-stream in an interactive shell, then `fg`: the live region is cleared before the
  /// program stops, so the shell writes its lines right below the committed ones, and once
  /// continued the tail is drawn again below them: every line of the reply shows once, the
  /// shell's lines stay. (Before, the program stopped at once: the tail stayed on the screen, and
  /// after `fg` the next update went up over the shell's lines and left the old tail above a
  /// second copy: a trial.) Continued in the background first (`bg`, then `fg`), it draws nothing
  /// over the shell's prompt meanwhile: the lines committed then are written once it is back in
  /// the foreground.
  @Test(arguments: [false, true])
  func stoppedAndContinuedMidStreamShowsEachLineOnce(inTheBackgroundFirst: Bool) throws {
    let text =
      (1...3).map { "Paragraph \($0).\n\n" }.joined() + (1...12).map { "Line \($0) of a tail\\\n" }.joined()
      + "end\n"
    let session = try TmuxSession(
      [], width: 80, height: 40, files: ["reply.md": Data(text.utf8)], readyText: nil, interactiveShell: true)
    let program = TmuxSession.quote(CLIRunner.executable.path)
    try session.type("\(program) stream reply.md --to ansi --color never --chunk-bytes 8 --delay-ms 30\n")
    try session.waitFor("Line 4 ", timeout: 60)
    try session.press("C-z")
    let stopped = try session.waitFor("Stopped", timeout: 20)
    #expect(stopped.contains("Paragraph 3."), "\(stopped)")
    #expect(!stopped.contains("Line "), "the tail stays on the screen while stopped:\n\(stopped)")
    if inTheBackgroundFirst {
      try session.type("bg\n")
      usleep(400_000)
    }
    try session.type("fg\n")
    // Done once the shell's prompt follows the reply's last line.
    let screen = try session.waitFor("the prompt after the reply", timeout: 60) { screen in
      let rows = screen.split(separator: "\n").map(String.init)
      guard let end = rows.lastIndex(of: "end") else { return false }
      return rows[(end + 1)...].contains { $0.hasPrefix("bash") }
    }
    let rows = screen.split(separator: "\n").map(String.init)
    for line in (1...3).map({ "Paragraph \($0)." }) + (1...12).map({ "Line \($0) of a tail" }) + ["end"] {
      #expect(rows.filter { $0 == line }.count == 1, "\(line.debugDescription) in\n\(screen)")
    }
    #expect(screen.contains("Stopped"), "the shell's lines were overwritten:\n\(screen)")
    if inTheBackgroundFirst {
      #expect(rows.contains { $0.hasSuffix("# bg") } && rows.contains { $0.hasSuffix("# fg") }, "\(screen)")
    }
  }

  /// Ctrl-Z and `fg` while the reply comes on standard input, slowly: the stream goes on where it
  /// stopped and ends as it would have. (Before, the read the signal interrupted was taken for a
  /// failure, as the terminal query made on continuing changed `errno`: "cannot read standard
  /// input: Inappropriate ioctl for device", and the rest of the reply was lost: a review.)
  @Test func stoppedAndContinuedWhileReadingStandardInputGoesOn() throws {
    let session = try TmuxSession([], width: 80, height: 24, files: [:], readyText: nil, interactiveShell: true)
    let program = TmuxSession.quote(CLIRunner.executable.path)
    try session.type(
      "(printf 'Hello *wor'; sleep 4; printf 'ld* and more.\\n') | \(program) stream --to ansi --color never\n")
    try session.waitFor("Hello wor", timeout: 30)
    try session.press("C-z")
    try session.waitFor("Stopped", timeout: 20)
    try session.type("fg; echo \"STATUS-$?-\"$((6 * 7))\n")
    let screen = try session.waitFor("STATUS-", timeout: 60) { $0.contains("-42") }
    #expect(screen.contains("STATUS-0-42"), "\(screen)")
    #expect(screen.contains("Hello world and more."), "\(screen)")
    #expect(!screen.contains("cannot read"), "\(screen)")
  }

  /// Started on a line that holds text already (`printf 'Assistant: '` first), the reply follows
  /// that text as `render`'s output does: the live region's first row starts at the column the
  /// cursor was in, asked of the terminal. (Before, every redraw went to the row's start and
  /// erased it, prefix included: a trial.)
  @Test(arguments: [7, 64])
  func aLineWithTextAlreadyKeepsIt(chunk: Int) throws {
    let text = "Hello **world**, this is a short reply.\n\n- one\n- two\n"
    let session = try TmuxSession(
      [], width: 80, height: 24, files: ["reply.md": Data(text.utf8)], readyText: nil, interactiveShell: true)
    let program = TmuxSession.quote(CLIRunner.executable.path)
    try session.type(
      "printf 'Assistant: '; \(program) stream reply.md --to ansi --color never --chunk-bytes \(chunk) --delay-ms 5\n")
    let screen = try session.waitFor("the prompt after the reply", timeout: 60) { screen in
      let rows = screen.split(separator: "\n").map(String.init)
      guard let end = rows.lastIndex(where: { $0.hasSuffix("two") }) else { return false }
      return rows[(end + 1)...].contains { $0.hasPrefix("bash") }
    }
    let rows = screen.split(separator: "\n").map(String.init)
    #expect(rows.contains("Assistant: Hello world, this is a short reply."), "\(screen)")
    #expect(
      rows.filter { $0.hasSuffix("one") }.count == 1 && rows.filter { $0.hasSuffix("two") }.count == 1, "\(screen)")
  }

  /// A job started in the background of an interactive shell (`replykit render --to ansi &`)
  /// does not ask the terminal its background colour for highlighting: the query's change of the
  /// terminal's settings stopped it (SIGTTOU), with nothing printed, until brought to the
  /// foreground (a trial).
  @Test func aBackgroundJobOnTheTerminalIsNotStopped() throws {
    let session = try TmuxSession(
      [], width: 80, height: 24, files: ["reply.md": Data("Hello **world**\n\n```swift\nlet a = 1\n```\n".utf8)],
      readyText: nil,
      interactiveShell: true)
    let program = TmuxSession.quote(CLIRunner.executable.path)
    // The marker printed is not the one typed (the typed line shows too).
    try session.type("\(program) render reply.md --to ansi --color always & sleep 2; jobs -l; echo LISTED-$((6 * 7))\n")
    let screen = try session.waitFor("LISTED-42", timeout: 30)
    #expect(screen.contains("Hello world") && screen.contains("let a = 1"), "\(screen)")
    #expect(!screen.contains("Stopped"), "\(screen)")
  }
}

/// Keys typed at the terminal while the program reads it: the background query's and the reply's.
@Suite(.enabled(if: TmuxSession.tmuxPath != nil, "tmux is not installed: run 'make test' (it installs tmux)"))
struct TypedKeysTests {
  /// An interactive shell in an 80x24 pane, with `reply.md` holding `reply` (a code block in it
  /// makes `render` and `stream` ask the terminal its background colour), and the program's path.
  private func shell(reply: String) throws -> (session: TmuxSession, program: String) {
    let session = try TmuxSession(
      [], width: 80, height: 24, files: ["reply.md": Data(reply.utf8)], readyText: nil, interactiveShell: true)
    return (session, TmuxSession.quote(CLIRunner.executable.path))
  }

  /// Keys typed before the program asks the terminal something (its background colour for
  /// highlighting; where the cursor is, for a live stream) are read by that query; they go back to
  /// the terminal, so the next command typed ahead still runs. (Before, they were lost: kept for a
  /// chat that `render` never starts, or dropped by the cursor query.)
  @Test(arguments: ["render reply.md --to ansi --color always", "stream reply.md --to ansi --color never"])
  func keysTypedAheadOfAQueryReachTheShell(command: String) throws {
    let (session, program) = try shell(reply: "Hello **world**\n\n```swift\nlet a = 1\n```\n")
    // Both lines arrive at once: the second waits in the terminal's input while the first runs.
    try session.type("\(program) \(command)\necho TYPED-$((6 * 7))\n")
    let screen = try session.waitFor("TYPED-42", timeout: 30)
    #expect(screen.contains("Hello world") && screen.contains("let a = 1"), "\(screen)")
  }

  /// Keys typed while an earlier command ran were echoed then; given back after a query they are
  /// not echoed again (a review: `ls` typed during `sleep 1; replykit stream …` showed as
  /// `lslsTitle`, once more per query), and the reply's first line starts clean.
  @Test(arguments: ["render reply.md --to ansi --color always", "stream reply.md --to ansi --color always"])
  func keysTypedEarlierAreNotEchoedAgain(command: String) throws {
    let (session, program) = try shell(reply: "Title line\n\n```swift\nlet a = 1\n```\n")
    try session.type("sleep 1; \(program) \(command)\n")
    usleep(300_000)
    try session.type("echo TYPED-$((6 * 7))\n")
    let screen = try session.waitFor("TYPED-42", timeout: 30)
    let rows = screen.split(separator: "\n").map(String.init)
    #expect(rows.contains("Title line"), "\(screen)")
    // Once as typed during the sleep, once as the shell reads it back: not a third time.
    #expect(rows.filter { $0.contains("echo TYPED-") }.count == 2, "\(screen)")
  }

  /// A reply typed at the terminal (`replykit stream --to ansi`, then the text and Ctrl-D) is
  /// written block by block below what is typed, as into a pipe: no live region is redrawn over the
  /// terminal's echo. (Before, the redraws moved up over the echoed lines: a trial.)
  @Test func aReplyTypedAtTheTerminalIsWrittenBelowItsEcho() throws {
    let session = try TmuxSession([], width: 80, height: 24, files: [:], readyText: nil, interactiveShell: true)
    let program = TmuxSession.quote(CLIRunner.executable.path)
    try session.type("\(program) stream --to ansi --color never --chunk-bytes 3\n")
    usleep(500_000)
    for line in ["Hello **world**, typed.", "", "- one", "- two", ""] {
      try session.type(line + "\n")
      usleep(150_000)
    }
    try session.type("Last words")
    usleep(150_000)
    try session.press("C-d")
    try session.press("C-d")
    let screen = try session.waitFor("the prompt after the reply", timeout: 30) { screen in
      let rows = screen.split(separator: "\n").map(String.init)
      // The typed last line, then its rendering, then the prompt.
      guard rows.filter({ $0 == "Last words" }).count == 2, let end = rows.lastIndex(of: "Last words") else {
        return false
      }
      return rows[(end + 1)...].contains { $0.hasPrefix("bash") }
    }
    let rows = screen.split(separator: "\n").map(String.init)
    for typed in ["Hello **world**, typed.", "- one", "- two"] {
      #expect(rows.filter { $0.hasSuffix(typed) }.count == 1, "\(typed.debugDescription) echoed once in\n\(screen)")
    }
    #expect(rows.filter { $0 == "Hello world, typed." }.count == 1, "\(screen)")
    #expect(rows.filter { $0.hasSuffix("one") && !$0.hasSuffix("- one") }.count == 1, "\(screen)")
    #expect(rows.filter { $0.hasSuffix("two") && !$0.hasSuffix("- two") }.count == 1, "\(screen)")
  }
}
