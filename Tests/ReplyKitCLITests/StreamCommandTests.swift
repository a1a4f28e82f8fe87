import Foundation
import Testing

/// `replykit stream`: into a pipe it writes what `replykit render` writes; frames are JSON lines;
/// bad flags give one-line errors.
@Suite struct StreamCommandTests {
  static var corpus: [URL] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Corpus/replies")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test func corpusIsComplete() {
    #expect(Self.corpus.count == 30)
  }

  /// Every corpus reply in every format (one test case per reply, so they spread over the cores).
  @Test(arguments: corpus)
  func pipeOutputEqualsRender(file: URL) throws {
    for format in ["html", "plain", "ansi"] {
      let rendered = try CLIRunner.run(["render", file.path, "--to", format])
      let streamed = try CLIRunner.run(["stream", file.path, "--to", format, "--chunk-bytes", "13"])
      #expect(streamed.status == 0)
      #expect(streamed.stdout == rendered.stdout, "\(format) \(file.lastPathComponent)")
    }
  }

  /// With code highlighted, into a pipe the stream still writes what `render` writes.
  @Test func highlightedPipeOutputEqualsRender() throws {
    let reply =
      "Intro:\n\n- item\n\n  ```swift\n  let x = 1 // one\n  ```\n\n```python\ndef f():\n    return \"s\"\n```\n"
    for format in [["--to", "html"], ["--to", "ansi", "--color", "always"]] {
      let flags = format + ["--highlight", "always", "--theme", "GitHub Dark"]
      let rendered = try CLIRunner.run(["render", "-"] + flags, input: reply)
      let streamed = try CLIRunner.run(["stream", "-", "--chunk-bytes", "7"] + flags, input: reply)
      #expect(rendered.status == 0)
      #expect(streamed.status == 0)
      #expect(streamed.stdout == rendered.stdout, "\(format)")
    }
    let html = try CLIRunner.run(["stream", "-", "--to", "html", "--highlight", "always"], input: reply)
    #expect(html.stdout.contains("<span class=\"hl-keyword\">def</span>"))
  }

  /// Into a pipe the notes are `render`'s too: a piece the stream parsed on the way (a line of
  /// 404 link openers before the line whose backtick makes them code) passed a limit the whole
  /// reply does not, and the stream printed a note that `render` does not (a review); a limit the
  /// whole reply passes is noted by both.
  @Test func pipeNotesEqualRender() throws {
    let reply = "x `\n" + String(repeating: "[a] ", count: 404) + "\ny`\n"
    let rendered = try CLIRunner.run(["render", "-"], input: reply)
    #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    for size in ["1", "3", "7"] {
      let streamed = try CLIRunner.run(["stream", "-", "--chunk-bytes", size], input: reply)
      #expect(streamed.status == 0)
      #expect(streamed.stdout == rendered.stdout, "chunks of \(size)")
      #expect(streamed.stderr.isEmpty, "chunks of \(size): \(streamed.stderr)")
    }
    let passing = "x\n" + String(repeating: "[a] ", count: 404) + "\ny`\n"
    let notes = try CLIRunner.run(["render", "-"], input: passing).stderr
    #expect(notes.contains("InputLimits.maxBrackets"), "\(notes)")
    #expect(try CLIRunner.run(["stream", "-", "--chunk-bytes", "3"], input: passing).stderr == notes)
  }

  /// A line opening `` [` `` and 360 `[` is no link definition to cmark-gfm; the reference budget
  /// charged it as one up to the next blank line, which a lazy line 3 KB long pushed past the
  /// budget after the line was written: `stream` exited 1 saying a late definition changed it,
  /// and `render` escaped 46 brackets (a review).
  @Test func noDefinitionChargesTheReferenceBudget() throws {
    let reply = "[`" + String(repeating: "[", count: 360) + "`\n- a\n" + String(repeating: "a", count: 3000) + "\n"
    let rendered = try CLIRunner.run(["render", "-"], input: reply)
    #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    #expect(!rendered.stdout.contains("\\["))
    for size in ["1", "7"] {
      let streamed = try CLIRunner.run(["stream", "-", "--chunk-bytes", size], input: reply)
      #expect(streamed.status == 0, "chunks of \(size): \(streamed.stderr)")
      #expect(streamed.stdout == rendered.stdout, "chunks of \(size)")
    }
  }

  @Test func standardInputStreamsLikeAFile() throws {
    let text = "# Title\n\nSome **bold** and a [link](https://example.com).\n\n- one\n- two\n"
    let rendered = try CLIRunner.run(["render", "--to", "plain"], input: text)
    let streamed = try CLIRunner.run(["stream", "-", "--to", "plain"], input: text)
    #expect(streamed.stdout == rendered.stdout)
  }

  /// Standard input that the starting program left non-blocking (as a Node child process's pipe
  /// is): the command waits for the text to arrive instead of failing with "Resource temporarily
  /// unavailable" at the first moment nothing is there (a review: both commands did).
  @Test(arguments: ["stream", "render"])
  func aNonBlockingStandardInputIsWaitedFor(command: String) throws {
    let first = "Hello *wor"
    let rest = "ld*, and more.\n\n- one\n- two\n"
    let expected = try CLIRunner.run(["render", "--to", "plain"], input: first + rest)
    let process = Process()
    process.executableURL = CLIRunner.executable
    process.arguments = [command, "-", "--to", "plain"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    let descriptor = input.fileHandleForReading.fileDescriptor
    #expect(fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0)
    // A command that fails early leaves the pipe with no reader but this copy, so the writes
    // below never meet a closed pipe, whose signal would end the test process (ignoring the
    // signal instead passed that on to other tests' children, which then saw EPIPE).
    let reader = dup(descriptor)
    defer { close(reader) }
    try process.run()
    try? input.fileHandleForWriting.write(contentsOf: Data(first.utf8))
    usleep(300_000)
    try? input.fileHandleForWriting.write(contentsOf: Data(rest.utf8))
    try? input.fileHandleForWriting.close()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(printed)")
    #expect(printed == expected.stdout)
  }

  @Test func framesAreJSONLinesEndingWithAFinalOne() throws {
    let text = "Some **bold** text\n\n```swift\nlet x = 1\n```\n"
    let result = try CLIRunner.run(["stream", "-", "--frames", "--chunk-bytes", "4"], input: text)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count >= text.utf8.count / 4)
    var last: [String: Any] = [:]
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["display"] is String)
      last = object ?? [:]
    }
    #expect(last["final"] as? Bool == true)
    #expect(last["bytes"] as? Int == text.utf8.count)
    let rendered = try CLIRunner.run(["render"], input: text)
    #expect(last["display"] as? String == rendered.stdout)
    // No frame shows a raw delimiter of the bold or the fence.
    for line in lines.dropLast() { #expect(!line.contains("**") && !line.contains("```")) }
  }

  /// Frames escape every control character, DEL and C1 included (JSON allows those raw), so
  /// frames piped on to a terminal drive nothing there; decoded, the display is unchanged.
  @Test func framesEscapeEveryControlCharacter() throws {
    let text = "a\u{7F} b\u{9B}31m c\u{1B}[2J d\u{85} e\n"
    let result = try CLIRunner.run(["stream", "-", "--frames", "--to", "plain", "--chunk-bytes", "3"], input: text)
    #expect(result.status == 0)
    let controls = result.stdout.unicodeScalars.filter {
      $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
    }
    #expect(controls.isEmpty, "raw controls: \(controls.map { String($0.value, radix: 16) })")
    let last = try #require(result.stdout.split(separator: "\n").last)
    let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
    let rendered = try CLIRunner.run(["render", "--to", "plain"], input: text)
    #expect(object?["display"] as? String == rendered.stdout)
  }

  @Test(arguments: [
    (["stream", "--to", "pdf"], "unknown value 'pdf' for --to"),
    (["stream", "--chunk-bytes", "0"], "--chunk-bytes must be a whole number"),
    (["stream", "--delay-ms", "x"], "--delay-ms must be a whole number"),
    (["stream", "--bogus"], "unknown option '--bogus'"),
    (["stream", "--width", "80"], "--width applies to '--to ansi' only"),
    // Options that cannot change the output are named, not ignored.
    (["stream", "--to", "ansi", "--unsafe"], "--unsafe applies to '--to html' only"),
    (["render", "--to", "plain", "--unsafe"], "--unsafe applies to '--to html' only"),
    (["render", "--to", "plain", "--highlight", "always"], "--highlight applies to '--to ansi' and '--to html' only"),
    (["stream", "--to", "plain", "--theme", "github light"], "--theme applies to '--to ansi' and '--to html' only"),
  ])
  func badFlagsGiveOneLineErrors(arguments: [String], message: String) throws {
    let result = try CLIRunner.run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains(message))
  }
}
