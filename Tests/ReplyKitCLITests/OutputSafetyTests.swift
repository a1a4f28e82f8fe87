import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 13: every write checked, output files written by one set of rules, input limits, notes
/// and the command line's odd cases. Everything happens in a temporary directory; the only
/// devices used are a FIFO made there and `/dev/full`.
@Suite struct OutputSafetyTests {
  static let thread = """
    {"model": "m1", "messages": [{"id": "00000000-0000-4000-8000-000000000001", "role": "user",
    "text": "Hi", "date": "2025-06-01T10:00:00Z", "state": "complete", "tokens": 3}]}
    """

  /// Runs `script` under `/bin/sh` with `$R` the replykit executable, in `directory`.
  static func shell(_ script: String, in directory: URL) throws -> CLIRunner.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["R"] = CLIRunner.executable.path
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIRunner.Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Data(thread.utf8).write(to: url.appendingPathComponent("thread.json"))
    return url
  }

  @Test(arguments: [
    "echo '# hi' | \"$R\" render",
    "echo '# hi' | \"$R\" stream",
    "\"$R\" export thread.json",
    "\"$R\" export thread.json -o /dev/full",
  ])
  func aFullDiskIsOneLineAndStatusOne(command: String) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try Self.shell(command.contains("-o") ? command : command + " > /dev/full", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test(arguments: ["render", "stream"])
  func aClosedStandardOutputOrBrokenPipeIsAnError(command: String) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let closed = try Self.shell("echo '# hi' | \"$R\" \(command) >&-", in: directory)
    #expect(closed.status == 1)
    #expect(closed.stderr.hasPrefix("replykit: cannot write standard output: "), "\(closed.stderr)")
    // SIGPIPE ignored: the write fails with EPIPE, which must not pass in silence.
    let piped = try Self.shell(
      "trap '' PIPE; head -c 2000000 /dev/zero | tr '\\0' 'a' | \"$R\" \(command) | true; echo \"status $?\"",
      in: directory)
    #expect(piped.stderr.contains("replykit: cannot write standard output: Broken pipe"), "\(piped.stderr)")
  }

  @Test func exportWritesThroughFIFOsFollowsSymlinksAndKeepsModes() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = try Self.shell(
      "mkfifo pipe && (cat pipe > got.txt &) && \"$R\" export thread.json --to plain -o pipe; sleep 0.2; cat got.txt",
      in: directory)
    #expect(fifo.status == 0)
    #expect(fifo.stdout == "You: Hi\n")
    let kinds = try Self.shell(
      "touch private.txt && chmod 600 private.txt && ln -s private.txt link.txt && "
        + "\"$R\" export thread.json --to plain -o link.txt && stat -c '%a %F' private.txt link.txt && cat private.txt",
      in: directory)
    #expect(kinds.stdout == "600 regular file\n777 symbolic link\nYou: Hi\n", "\(kinds.stderr)")
    let new = try Self.shell(
      "umask 022 && \"$R\" export thread.json -o new.html && stat -c '%a' new.html", in: directory)
    #expect(new.stdout == "644\n")
    // A new export is no more open than its thread file: a private thread makes a private page
    // (a review: 0644 from a 0600 thread), from a file or from standard input; one read from
    // another user's group keeps that group's bits; a read-only thread still makes a file its
    // owner can write again.
    let modes = try Self.shell(
      "umask 022 && cp thread.json private.json && chmod 600 private.json && "
        + "\"$R\" export private.json -o private.html && \"$R\" export - -o piped.html < private.json && "
        + "chmod 660 private.json && \"$R\" export private.json -o group.html && "
        + "chmod 400 private.json && \"$R\" export private.json -o owner.html && "
        + "stat -c '%a' private.html piped.html group.html owner.html && rm private.json private.html piped.html group.html owner.html",
      in: directory)
    #expect(modes.stdout == "600\n600\n640\n600\n", "\(modes.stderr)")
    let folder = try Self.shell("mkdir sub && \"$R\" export thread.json -o sub", in: directory)
    #expect(folder.status == 1 && folder.stderr == "replykit: cannot write 'sub': it is a directory\n")
    let empty = try CLIRunner.run(["export", directory.appendingPathComponent("thread.json").path, "-o", ""])
    #expect(empty.status == 2 && empty.stderr == "replykit: the output file name (-o) is empty\n")
    // A failed export leaves no partial or temporary file.
    let full = try Self.shell("ln -s /dev/full full && \"$R\" export thread.json -o full; ls -A", in: directory)
    #expect(full.stderr.contains("No space left on device"))
    #expect(
      full.stdout.split(separator: "\n").sorted() == [
        "full", "got.txt", "link.txt", "new.html", "pipe", "private.txt", "sub", "thread.json",
      ])
  }

  /// A trial: under a file size limit (`ulimit -f`), SIGXFSZ killed `export -o` in the middle of
  /// its write and left the temporary file beside the target. The program ignores SIGXFSZ: the
  /// write fails with "File too large", reported, and nothing is left behind.
  @Test func aFileSizeLimitIsAnErrorAndLeavesNothingBehind() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let long = String(repeating: "A reply line that takes room. ", count: 2_000)
    let thread = """
      {"messages": [{"id": "00000000-0000-4000-8000-000000000001", "role": "user", "text": "Hi",
      "date": "2025-06-01T10:00:00Z", "state": "complete"}, {"id": "00000000-0000-4000-8000-000000000002",
      "role": "assistant", "text": "\(long)", "date": "2025-06-01T10:00:01Z", "state": "complete"}]}
      """
    try Data(thread.utf8).write(to: directory.appendingPathComponent("long.json"))
    let result = try Self.shell(
      "echo old > out.html; (ulimit -f 8; \"$R\" export long.json -o out.html); echo \"status $?\"; cat out.html; ls -A",
      in: directory)
    #expect(result.stdout == "status 1\nold\nlong.json\nout.html\nthread.json\n", "\(result.stdout)")
    #expect(result.stderr == "replykit: cannot write 'out.html': File too large\n", "\(result.stderr)")
  }

  @Test func inputsPastTheLimitAreRefusedWithTheLimitNamed() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.shell("\"$R\" render thread.json --max-bytes 10", in: directory)
    #expect(file.status == 1)
    #expect(
      file.stderr.hasPrefix("replykit: 'thread.json': input too large: ")
        && file.stderr.contains("bytes; the limit is 10 bytes (raise it with --max-bytes N)"), "\(file.stderr)")
    // An endless input stops at the limit.
    let endless = try Self.shell("head -c 100000 /dev/zero | \"$R\" stream --max-bytes 1000", in: directory)
    #expect(
      endless.stderr
        == "replykit: standard input: input too large: more than 1000 bytes; the limit is 1000 bytes (raise it with --max-bytes N)\n"
    )
    let export = try Self.shell("\"$R\" export - --max-bytes 5 < thread.json", in: directory)
    #expect(export.status == 1 && export.stderr.contains("standard input: input too large"))
  }

  /// The largest limit the usage error names, on a pipe past 64 KiB, trapped (`limit + 1`
  /// overflowed: a trial).
  @Test func theLargestLimitReadsAPipe() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try Self.shell(
      "head -c 100000 /dev/zero | tr '\\0' a | \"$R\" render - --to plain --max-bytes 9223372036854775807 | wc -c",
      in: directory)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "100001")
  }

  @Test func aGuardThatChangesTheRenderingPrintsOneNotePerKind() throws {
    let deep = String(repeating: "> ", count: 40) + "x\n\n" + String(repeating: "> ", count: 50) + "y\n"
    for command in ["render", "stream"] {
      let result = try CLIRunner.run([command], input: deep)
      #expect(result.status == 0)
      let notes = result.stderr.split(separator: "\n")
      #expect(notes.count == 1, "\(result.stderr)")
      #expect(notes.first?.hasPrefix("replykit: note: ") == true)
      #expect(result.stderr.contains("InputLimits.maxNestingDepth"), "\(result.stderr)")
    }
    #expect(try CLIRunner.run(["render"], input: "# fine\n").stderr.isEmpty)
  }

  /// Notes come in the order of the lines they name, not in the library's order of kinds: here a
  /// too-wide table on line 1 before too many emphasis runs on line 4.
  @Test func guardNotesFollowTheLines() throws {
    let wide = "|" + String(repeating: "a|", count: 130) + "\n|" + String(repeating: "-|", count: 130) + "\n\n"
    let runs = String(repeating: "*a* ", count: 450) + "\n"
    let result = try CLIRunner.run(["render"], input: wide + runs)
    let notes = result.stderr.split(separator: "\n")
    #expect(notes.count == 2, "\(result.stderr)")
    #expect(notes.first?.hasPrefix("replykit: note: line 2: table too wide") == true, "\(result.stderr)")
    #expect(notes.last?.hasPrefix("replykit: note: line 4: ") == true, "\(result.stderr)")
  }

  @Test func commandLineOdds() throws {
    let bare = try CLIRunner.run([])
    #expect(bare.status == 2 && bare.stdout.isEmpty && bare.stderr.contains("Usage: replykit <command>"))
    let version = try CLIRunner.run(["--version", "extra"])
    #expect(version.status == 2 && version.stderr.contains("'--version' takes no arguments"))
    #expect(try CLIRunner.run(["--version"]).status == 0)
    let corpus = try CLIRunner.run(["fuzz", "--corpus", "/nonexistent-replykit-corpus", "--iterations", "1"])
    #expect(corpus.status == 1 && corpus.stderr.contains("--corpus '/nonexistent-replykit-corpus': no such directory"))
    let shared = try CLIRunner.run(["fuzz", "--shared", "/nonexistent-replykit-shared", "--iterations", "1"])
    #expect(shared.status == 1 && shared.stderr.contains("no such directory"))
    // A file where a folder is needed says so; a stray argument is a usage error, not ignored.
    let file = try CLIRunner.run(["fuzz", "--corpus", "/etc/hostname", "--iterations", "1"])
    #expect(file.status == 1 && file.stderr.contains("--corpus '/etc/hostname': not a directory"), "\(file.stderr)")
    let stray = try CLIRunner.run(["fuzz", "--iterations", "1", "extra"])
    #expect(stray.status == 2 && stray.stderr.contains("'replykit fuzz' takes no input file, got 'extra'"))
    // Standard input is named one way in every error.
    let render = try CLIRunner.run(["render", "-", "--max-bytes", "1"], input: "hello")
    let export = try CLIRunner.run(["export", "-"], input: "{")
    #expect(render.stderr.hasPrefix("replykit: standard input: "), "\(render.stderr)")
    #expect(export.stderr.hasPrefix("replykit: standard input: "), "\(export.stderr)")
  }

  // MARK: Control characters and read-only files (a black-box trial, 2026-12-03)

  /// Whether `text` holds a character a terminal would obey: C0 but tab and newline, DEL, C1, or
  /// a bidirectional override.
  static func holdsControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
      (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        || (0x202A...0x202E).contains(scalar.value)
    }
  }

  /// Error messages quote names and values as typed: their control characters show as symbols,
  /// and a newline in a name keeps the message on one line.
  @Test func errorMessagesShowControlCharacters() throws {
    let title = try CLIRunner.run(["render", "a\u{1B}]0;pwned\u{07}b"])
    #expect(title.status == 1)
    #expect(!Self.holdsControls(title.stderr), "\(title.stderr.debugDescription)")
    #expect(title.stderr.contains("a\u{241B}]0;pwned\u{2407}b"), "\(title.stderr)")
    let option = try CLIRunner.run(["render", "--x\u{1B}[2J"])
    #expect(option.status == 2 && !Self.holdsControls(option.stderr), "\(option.stderr.debugDescription)")
    let twoLines = try CLIRunner.run(["render", "bad\nname.md"])
    #expect(twoLines.status == 1 && twoLines.stderr.split(separator: "\n").count == 1, "\(twoLines.stderr)")
  }

  /// HTML, plain text and exports are data: byte for byte into a pipe, but on a terminal (a pty
  /// from `script`) their control characters show as symbols, as `--to ansi` shows them.
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
      "needs script(1) from bsdutils for a terminal"))
  func htmlAndPlainTextShowControlCharactersOnATerminal() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reply = "Hi \u{1B}]0;pwn\u{07} \u{1B}[31mred \u{9B}1m \u{202E}evil\n\n```\ncode \u{1B}[2J\n```\n"
    try Data(reply.utf8).write(to: directory.appendingPathComponent("reply.md"))
    for command in [
      "render --to plain reply.md", "render reply.md", "stream --to plain reply.md", "stream reply.md",
      "stream --frames --to plain reply.md",
    ] {
      let piped = try Self.shell("\"$R\" \(command)", in: directory)
      #expect(piped.status == 0 && Self.holdsControls(piped.stdout), "into a pipe, \(command) keeps the text")
      let shown = try Self.shell("script -qec '\"$R\" \(command)' /dev/null", in: directory)
      let output = shown.stdout.replacingOccurrences(of: "\r\n", with: "\n")
      #expect(shown.status == 0 && !Self.holdsControls(output), "\(command): \(output.debugDescription)")
      // Frames are JSON, which writes ESC as an escape already; the rest shows it as a symbol.
      let symbol = command.contains("--frames") ? "\\u001b[31mred" : "\u{241B}[31mred"
      #expect(output.contains(symbol), "\(command): \(output.debugDescription)")
    }
  }

  /// A file the user may not write is not replaced, though its folder would let a new one be
  /// renamed over it; a writable file in a folder that forbids new files names the folder. As
  /// root may write any file, the export then runs as `nobody` (setpriv).
  @Test(
    .enabled(
      if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "as root this needs setpriv(1) to run as another user"))
  func aReadOnlyFileIsNotReplaced() throws {
    let directory = try Self.directory()
    defer {
      chmod(directory.appendingPathComponent("closed").path, 0o755)
      try? FileManager.default.removeItem(at: directory)
    }
    let asUser = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
    let readOnly = directory.appendingPathComponent("read-only.txt")
    try Data("old\n".utf8).write(to: readOnly)
    let closed = directory.appendingPathComponent("closed")
    try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false)
    let inClosed = closed.appendingPathComponent("open.txt")
    try Data("old\n".utf8).write(to: inClosed)
    if geteuid() == 0 {
      for path in [directory.path, readOnly.path, closed.path, inClosed.path] { chown(path, 65534, 65534) }
    }
    chmod(readOnly.path, 0o444)
    chmod(inClosed.path, 0o666)
    chmod(closed.path, 0o555)
    chmod(directory.path, 0o755)

    let refused = try Self.shell("\(asUser)\"$R\" export thread.json --to plain -o read-only.txt", in: directory)
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("cannot write 'read-only.txt'") && refused.stderr.contains("read-only"))
    #expect(try String(contentsOf: readOnly, encoding: .utf8) == "old\n")
    #expect(try FileManager.default.attributesOfItem(atPath: readOnly.path)[.posixPermissions] as? Int == 0o444)

    let folder = try Self.shell("\(asUser)\"$R\" export thread.json --to plain -o closed/open.txt", in: directory)
    #expect(folder.status == 1, "\(folder.stderr)")
    #expect(folder.stderr.contains("the folder 'closed/' does not let files be created in it"), "\(folder.stderr)")
    #expect(try String(contentsOf: inClosed, encoding: .utf8) == "old\n")
  }

  /// `fuzz` needs something to mutate: without a Corpus folder where it runs, or with folders
  /// holding no markdown, it says so instead of fuzzing one empty input.
  @Test func fuzzWithNothingToMutateSaysSo() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = try Self.shell("\"$R\" fuzz --iterations 1 --no-save", in: directory)
    #expect(missing.status == 1 && missing.stderr.contains("no Corpus folder in the current directory"))
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("empty"), withIntermediateDirectories: false)
    let empty = try Self.shell("\"$R\" fuzz --corpus empty --shared empty --iterations 1 --no-save", in: directory)
    #expect(
      empty.status == 1 && empty.stderr.contains("nothing to mutate: 'empty' holds no .md files and no shared examples")
    )
    #expect(empty.stderr.split(separator: "\n").count == 1, "\(empty.stderr)")
  }
}
