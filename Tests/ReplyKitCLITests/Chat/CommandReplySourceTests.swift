import ChatEngine
import Foundation
import Testing

@testable import replykit

/// A reply command's output is bounded in memory, as a model's reply is: past the limit the
/// command is ended and the reply fails with its text so far; standard error keeps only its end.
@Suite struct CommandReplySourceTests {
  // The commands read the thread first: one that exits before it is written makes the write
  // raise SIGPIPE, which `replykit` ignores (``ProgramExit/ignoreBrokenPipes()``) but this test
  // process must not (its children's tests expect SIGPIPE at its default).

  static let history = [ChatMessage(role: .user, text: "Hi", date: Date())]

  /// Collects a reply: its text and the error it ended with, if any.
  static func collect(_ source: CommandReplySource) async -> (text: String, error: String?) {
    var text = ""
    do {
      for try await chunk in await source.reply(history) { text += chunk }
      return (text, nil)
    } catch {
      return (text, error.localizedDescription)
    }
  }

  @Test func endlessOutputStopsAtTheLimitWithItsTextKept() async {
    var source = CommandReplySource(command: "cat > /dev/null; yes 'wörd'")
    source.maximumReplyBytes = 100_001
    let (text, error) = await Self.collect(source)
    #expect(error == "The reply command printed more than 100001 bytes; the rest was not read.")
    // Cut at the last whole character that fits: "wörd\n" is 6 bytes.
    #expect(text.utf8.count <= 100_001 && text.utf8.count > 100_001 - 4, "\(text.utf8.count)")
    #expect(text.hasPrefix("wörd\nwörd\n") && !text.contains("\u{FFFD}"))
  }

  @Test func outputWithinTheLimitCompletes() async {
    var source = CommandReplySource(command: "cat > /dev/null; printf 'abc'")
    source.maximumReplyBytes = 3
    let (text, error) = await Self.collect(source)
    #expect(text == "abc" && error == nil)
  }

  @Test func onlyTheEndOfStandardErrorIsKept() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let (reading, writing) = (descriptors[0], descriptors[1])
    let writer = Thread {
      let line = Array(repeating: UInt8(ascii: "e"), count: 1000) + [UInt8(ascii: "\n")]
      for _ in 0..<1000 { _ = line.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) } }
      _ = "last line".withCString { write(writing, $0, 9) }
      close(writing)
    }
    writer.start()
    let kept = CommandReplySource.readAll(reading, keepingLast: 4096)
    close(reading)
    #expect(kept.count == 4096)
    #expect(String(decoding: kept, as: UTF8.self).hasSuffix("eee\nlast line"))
  }

  /// A 60,000-character error line was stored and shown whole (model errors are cut at 300), and a
  /// command killed by a signal read as "exited with status 137" (a trial).
  @Test func theErrorLineIsShortAndASignalIsNamed() async {
    let long = await Self.collect(
      CommandReplySource(command: "cat > /dev/null; printf 'oops %.0s' $(seq 1 2000) >&2; printf '\\n' >&2; exit 3"))
    #expect(long.error?.hasPrefix("oops oops ") == true)
    #expect(long.error?.count == CommandReplySource.errorLineLimit + 1 && long.error?.hasSuffix("…") == true)
    let killed = await Self.collect(CommandReplySource(command: "cat > /dev/null; kill -KILL $$"))
    #expect(killed.error == "The reply command was ended by SIGKILL.")
    let plain = await Self.collect(CommandReplySource(command: "cat > /dev/null; exit 137"))
    #expect(plain.error == "The reply command exited with status 137.")
    let said = await Self.collect(
      CommandReplySource(command: "cat > /dev/null; echo 'out of memory' >&2; kill -TERM $$"))
    #expect(said.error == "The reply command was ended by SIGTERM: out of memory")
  }
}
