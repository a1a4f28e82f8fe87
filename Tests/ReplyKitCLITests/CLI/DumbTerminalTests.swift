import Foundation
import Testing

/// `TERM=dumb` names a terminal that cannot move its cursor (Emacs's shell buffers, some CI log
/// viewers): `stream` writes to it as into a pipe, and `chat` prints the thread as without a
/// terminal, so no cursor movement, alternate screen or mouse mode reaches it.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
    "needs script(1) from bsdutils for a terminal"))
struct DumbTerminalTests {
  /// Escape sequences that move the cursor, erase rows or switch terminal modes.
  static let screenControls = [
    "\u{1B}[1A", "\u{1B}[2K", "\u{1B}[?2026h", "\u{1B}[?7l", "\u{1B}[?1049h", "\u{1B}[?1000h",
  ]

  static func run(_ command: String, term: String, in directory: URL) throws -> CLIRunner.Result {
    // A full-screen chat would wait for keys: `timeout` ends it, and the test fails on its status.
    try OutputSafetyTests.shell("TERM=\(term) timeout 30 script -qec '\(command)' /dev/null </dev/null", in: directory)
  }

  @Test func streamWritesToADumbTerminalAsIntoAPipe() throws {
    let directory = try OutputSafetyTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reply = "# Title\n\nA paragraph that grows *word* by word.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    try Data(reply.utf8).write(to: directory.appendingPathComponent("reply.md"))
    let flags = "--to ansi --width 60 --hyperlinks never"
    let streamed = try Self.run("\"$R\" stream reply.md \(flags) --chunk-bytes 3", term: "dumb", in: directory)
    let rendered = try Self.run("\"$R\" render reply.md \(flags)", term: "dumb", in: directory)
    #expect(streamed.status == 0 && rendered.status == 0)
    for control in Self.screenControls {
      #expect(!streamed.stdout.contains(control), "stream wrote \(control.debugDescription)")
    }
    #expect(streamed.stdout == rendered.stdout, "\(streamed.stdout.debugDescription)")
    // The same command on a terminal that moves its cursor redraws in place.
    let live = try Self.run("\"$R\" stream reply.md \(flags) --chunk-bytes 3", term: "xterm-256color", in: directory)
    #expect(live.stdout.contains("\u{1B}[?2026h"), "\(live.stdout.debugDescription)")
  }

  @Test func chatOnADumbTerminalPrintsTheThread() throws {
    let directory = try OutputSafetyTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let chat = try Self.run("\"$R\" chat --pace-ms 0", term: "dumb", in: directory)
    #expect(chat.status == 0, "\(chat.stderr)")
    for control in Self.screenControls {
      #expect(!chat.stdout.contains(control), "chat wrote \(control.debugDescription)")
    }
    // The Example conversation, printed, without the background query (OSC 11) either.
    #expect(chat.stdout.contains("How do I run work in the background"), "\(chat.stdout.prefix(300).debugDescription)")
    #expect(!chat.stdout.contains("\u{1B}]11;"), "\(chat.stdout.prefix(300).debugDescription)")
  }
}
