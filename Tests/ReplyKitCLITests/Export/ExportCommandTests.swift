import Foundation
import Testing

/// `replykit export` as a user runs it: formats, standard input, `-o`, and malformed threads.
@Suite struct ExportCommandTests {
  private let environment = ["TZ": "UTC", "LANG": "en_US.UTF-8"]
  private let thread = ExportFixtures.archive([
    ("user", "Hi *there*", "2025-06-01T10:00:00Z", "complete", nil, nil),
    ("assistant", "**Hello**\n\n```\ncode\n```", "2025-06-01T10:00:01Z", "complete", nil, "good"),
  ])

  @Test func writesThePageToStandardOutputFromStandardInput() throws {
    let result = try CLIRunner.run(["export", "-", "--to", "html"], input: thread, environment: environment)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(result.stdout.contains("<h2 class=\"day\"><time datetime=\"2025-06-01\">June 1, 2025</time></h2>"))
    #expect(result.stdout.contains("<title>Hi *there*</title>"))
  }

  /// A trial: the page's data block kept its keys in an order that changed from run to run, so the
  /// same thread exported twice gave different files. Its keys are sorted now.
  @Test func theSameThreadGivesTheSameDataBlock() throws {
    var blocks: Set<String> = []
    for _ in 0..<3 {
      let page = try CLIRunner.run(["export", "-"], input: thread, environment: environment).stdout
      let block = try #require(page.components(separatedBy: "<script type=\"application/json\" id=\"rk-data\">").last)
      blocks.insert(String(try #require(block.components(separatedBy: "</script>").first)))
    }
    #expect(blocks.count == 1)
    #expect(blocks.first?.hasPrefix("{\"code\":") == true, "\(blocks.first ?? "")")
  }

  @Test func thePageSpeaksTheChosenLanguageAndNamesTheRecordedModel() throws {
    let recorded = "{\"model\": \"llama3.2\"," + thread.dropFirst()
    let german = try CLIRunner.run(["export", "-", "--lang", "de-AT"], input: recorded, environment: environment)
    #expect(german.status == 0)
    #expect(german.stdout.hasPrefix("<!DOCTYPE html>\n<html lang=\"de\">"))
    #expect(german.stdout.contains("<span class=\"model\">Modell: <span class=\"model-name\">llama3.2</span></span>"))
    #expect(german.stdout.contains("<h2 class=\"day\"><time datetime=\"2025-06-01\">1. Juni 2025</time></h2>"))
    #expect(german.stdout.contains("<span class=\"count\">2 Nachrichten</span>"))
    let plain = try CLIRunner.run(["export", "-", "--highlight", "never"], input: thread, environment: environment)
    #expect(!plain.stdout.contains("class=\"hl-") && !plain.stdout.contains(".hl-"))
    #expect(!plain.stdout.contains("class=\"model\""))
  }

  @Test func textFormats() throws {
    let plain = try CLIRunner.run(["export", "-", "--to", "plain"], input: thread, environment: environment)
    #expect(plain.stdout == "You: Hi *there*\n\nAssistant: Hello\n\ncode\n")
    let transcript = try CLIRunner.run(["export", "-", "--to", "transcript"], input: thread, environment: environment)
    #expect(transcript.stdout == "June 1, 2025\n\nYou: Hi *there*\n\nAssistant: Hello\n\ncode\n")
    let markdown = try CLIRunner.run(["export", "-", "--to=markdown"], input: thread, environment: environment)
    #expect(
      markdown.stdout
        == "## June 1, 2025\n\n**You**\n\n> Hi \\*there\\*\n\n**Assistant**\n\n**Hello**\n\n```\ncode\n```\n")
  }

  /// `-o /dev/stdout` (`/dev/fd/N`) writes through that descriptor, as the shell's `>` to it does:
  /// into a pipe, and after the lines before it in a file, which stay. (A trial: into a pipe it
  /// failed, "No such file or directory"; into a file it replaced the file, losing the lines
  /// around it.)
  @Test func aDescriptorsNameWritesThroughIt() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(thread.utf8).write(to: directory.appendingPathComponent("thread.json"))
    let expected = "You: Hi *there*\n\nAssistant: Hello\n\ncode\n"
    let piped = try OutputSafetyTests.shell(
      "\"$R\" export thread.json --to plain -o /dev/stdout | cat; echo \"status $?\"", in: directory)
    #expect(piped.stdout == expected + "status 0\n", "\(piped.stderr)")
    let file = try OutputSafetyTests.shell(
      "echo header > log.txt; { \"$R\" export thread.json --to plain -o /dev/stdout; echo footer; } >> log.txt;"
        + " \"$R\" export thread.json --to plain -o /dev/fd/3 3>> log.txt; cat log.txt", in: directory)
    #expect(file.stdout == "header\n" + expected + "footer\n" + expected, "\(file.stderr)")
    // A thread saved again and again is replaced whole through such a name (a review: written
    // at the descriptor's offset, a longer old file kept its tail and no longer loaded).
    let asking =
      #"{"messages": [{"id": "11111111-1111-1111-1111-111111111111", "role": "user", "text": "Hi", "#
      + #""date": "2025-01-01T10:00:00Z", "state": "complete"}]}"#
    try Data((asking + String(repeating: " ", count: 4096) + "\n").utf8).write(
      to: directory.appendingPathComponent("asking.json"))
    let saved = try OutputSafetyTests.shell(
      "\"$R\" chat --thread /dev/fd/3 --reply-command 'echo hello' </dev/null >/dev/null 3<>asking.json;"
        + " \"$R\" export asking.json --to plain", in: directory)
    #expect(saved.stdout == "You: Hi\n\nAssistant: hello\n", "\(saved.stderr)")
  }

  /// `-o` naming the thread file itself (or a link to it) would replace the thread with the page.
  @Test func refusesToWriteOverTheThreadFile() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("thread.json")
    try Data(thread.utf8).write(to: input)
    let link = directory.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "thread.json")
    for output in [input.path, link.path, directory.path + "/./thread.json"] {
      let result = try CLIRunner.run(["export", input.path, "-o", output], environment: environment)
      #expect(result.status == 2, "\(output)")
      #expect(result.stderr.contains("is the thread file itself"), "\(output): \(result.stderr)")
      #expect(try String(contentsOf: input, encoding: .utf8) == thread)
    }
    // Standard input redirected from the thread file (a trial: the thread was replaced).
    for output in ["thread.json", "link.json", "/dev/stdin"] {
      let result = try OutputSafetyTests.shell(
        "\"$R\" export - -o \(output) < thread.json; echo \"status $?\"", in: directory)
      #expect(result.stdout == "status 2\n", "\(output): \(result.stdout)")
      #expect(result.stderr.contains("is the thread file itself (standard input reads it)"), "\(result.stderr)")
      #expect(try String(contentsOf: input, encoding: .utf8) == thread)
    }
  }

  @Test func writesTheOutputFileAndReplacesItWhole() throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("thread.json")
    try Data(thread.utf8).write(to: input)
    let output = directory.appendingPathComponent("thread.html")
    try Data("old".utf8).write(to: output)
    let result = try CLIRunner.run(["export", input.path, "-o", output.path], environment: environment)
    #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
    #expect(try String(contentsOf: output, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["thread.html", "thread.json"])
  }

  @Test(arguments: [
    ("{\"messages\": [{\"id\": 1}]}", "messages[0].id: expected a string"),
    (
      "{\"messages\": [{\"id\": \"00000000-0000-4000-8000-000000000001\", \"role\": \"robot\", \"text\": \"x\", \"date\": \"2025-06-01T10:00:00Z\", \"state\": \"complete\"}]}",
      "messages[0].role"
    ),
    ("{\"messages\": [", "not valid JSON"),
    ("[]", "expected"),
  ])
  func malformedThreadsNameThePlaceAndLeaveNoFile(json: String, expected: String) throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bad.json")
    try Data(json.utf8).write(to: input)
    let output = directory.appendingPathComponent("out.html")
    let result = try CLIRunner.run(["export", input.path, "-o", output.path], environment: environment)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("replykit: \(input.path): "))
    #expect(result.stderr.contains(expected), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.json"])
  }

  @Test(arguments: [
    (["export"], 2, "needs a thread file"),
    (["export", "-", "--to", "pdf"], 2, "unknown value 'pdf' for --to"),
    (["export", "-", "--to", "plain", "--title", "x"], 2, "--title applies to '--to html' only"),
    (["export", "-", "--to", "markdown", "--lang", "de"], 2, "--lang applies to '--to html' only"),
    (
      ["export", "-", "--lang", "klingon"], 2, "the page has no words in 'klingon' (--lang); languages: en, de, fr, es"
    ),
    (
      ["export", "-", "--highlight", "sometimes"], 2,
      "unknown value 'sometimes' for --highlight; expected one of: auto, always, never"
    ),
    (["export", "/nonexistent/thread.json"], 1, "cannot read '/nonexistent/thread.json'"),
  ])
  func usageAndReadErrors(arguments: [String], status: Int32, message: String) throws {
    let result = try CLIRunner.run(arguments, input: thread)
    #expect(result.status == status)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// An option given twice would silently drop one of its values (`-o a.html -o b.html` wrote
  /// only b.html), and an empty or blank title would silently fall back or show nothing: each is
  /// a usage error, before anything is read or written.
  @Test(arguments: [
    (["export", "-", "-o", "DIR/a.html", "-o", "DIR/b.html"], "option '-o' is given more than once"),
    (["export", "-", "--output=DIR/a.html", "--output", "DIR/b.html"], "option '--output' is given more than once"),
    (["export", "-", "-o", "DIR/a.html", "--output", "DIR/b.html"], "-o and --output are the same option"),
    (["export", "-", "--to", "html", "--to", "markdown"], "option '--to' is given more than once"),
    (["export", "-", "--title", ""], "the page title (--title) is empty"),
    (["export", "-", "--title", " \t "], "the page title (--title) is blank"),
    (["export", "-", "--title", "\u{200B}\u{2060} "], "the page title (--title) is blank"),
    (["render", "-", "--to", "html", "--to", "plain"], "option '--to' is given more than once"),
    (["stream", "-", "--width", "40", "--width", "80"], "option '--width' is given more than once"),
  ])
  func repeatedOptionsAndBlankTitlesAreUsageErrors(arguments: [String], message: String) throws {
    let directory = try ExportFixtures.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(
      arguments.map { $0.replacingOccurrences(of: "DIR", with: directory.path) }, input: thread)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("replykit: \(message)"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no file written")
  }

  /// A flag given twice means what it means once.
  @Test func aRepeatedFlagIsTheFlag() throws {
    let once = try CLIRunner.run(["export", "-", "--all-versions"], input: thread, environment: environment)
    let twice = try CLIRunner.run(
      ["export", "-", "--all-versions", "--all-versions"], input: thread, environment: environment)
    #expect(once.status == 0 && twice.status == 0)
    #expect(twice.stdout.count == once.stdout.count)
  }

  @Test func anUnwritableOutputIsAOneLineFailure() throws {
    let result = try CLIRunner.run(["export", "-", "-o", "/nonexistent/dir/out.html"], input: thread)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("replykit: cannot write '/nonexistent/dir/out.html': "))
  }
}
