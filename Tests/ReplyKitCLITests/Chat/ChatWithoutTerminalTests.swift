import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The faults of `replykit chat` without a terminal found by a black-box trial: failed writes
/// passed in silence, a thread file that did not load exited 0 with a wrong reason, and a signal
/// lost the partial reply and the line saying where the thread was saved.
@Suite(.timeLimit(.minutes(2))) struct ChatWithoutTerminalTests {
  static let thread = """
    {"messages":[{"id":"00000000-0000-4000-8000-000000000001","role":"user","text":"Hi",\
    "date":"2026-03-10T13:00:00Z","state":"complete"}]}
    """

  /// A new directory holding `thread.json`, a thread that ends with the person's turn.
  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-chat-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Data(thread.utf8).write(to: url.appendingPathComponent("thread.json"))
    return url
  }

  /// The saved thread's messages as `(role, state, text)`.
  static func saved(_ url: URL) throws -> [(role: String, state: String, text: String)] {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    let messages = root?["messages"] as? [[String: Any]] ?? []
    return messages.map {
      ($0["role"] as? String ?? "", $0["state"] as? String ?? "", $0["text"] as? String ?? "")
    }
  }

  /// Fault 1: a full disk is one line and status 1, and the reply is still saved whole.
  @Test func aFullDiskIsAnErrorAndTheThreadIsStillSaved() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("thread.json")
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let result = try CLIRunner.run(
      ["chat", "--thread", file.path, "--reply-command", "yes | head -c 300000"], output: full)
    #expect(result.status == 1)
    #expect(result.stderr == "replykit: cannot write standard output: No space left on device\n")
    let messages = try Self.saved(file)
    #expect(messages.map(\.role) == ["user", "assistant"])
    #expect(messages.last?.state == "complete")
    #expect(messages.last?.text.utf8.count == 300_000)

    let example = try CLIRunner.run(["chat", "--pace-ms", "0"], output: full)
    #expect(example.status == 1)
    #expect(example.stderr == "replykit: cannot write standard output: No space left on device\n")
  }

  /// Fault 1: a closed standard output is an error, and the transcript goes nowhere else (before
  /// the fix descriptor 1 was taken by the next descriptor opened, a pipe or an event).
  /// An endless thread file is refused at the limit (`--max-bytes`, 256 MiB by default), as
  /// `export` refuses it, instead of being read until memory runs out.
  @Test func anEndlessThreadFileIsRefusedAtTheLimit() throws {
    let result = try CLIRunner.run([
      "chat", "--thread", "/dev/zero", "--max-bytes", "1000", "--reply-command", "echo ok",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("replykit: '/dev/zero': input too large: more than 1000 bytes"), "\(result.stderr)")
    let alone = try CLIRunner.run(["chat", "--max-bytes", "1000"])
    #expect(alone.status == 2 && alone.stderr.contains("--max-bytes limits the --thread file"))
  }

  /// A trial: a save written through a FIFO that nothing reads waits in `open`, and SIGTERM,
  /// SIGINT and SIGHUP were not taken while it waited (only SIGKILL ended it). Now a signal ends
  /// the process at once, saying the thread was not saved.
  @Test func aSignalEndsASaveThatWaitsForAFIFOsReader() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = """
      mkfifo f.json
      (cat thread.json > f.json &)
      "$R" chat --thread f.json --reply-command 'echo hi' < /dev/null > out 2> err & P=$!
      i=0; while ! grep -q hi out 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
      sleep 1; kill -TERM $P
      i=0; while kill -0 $P 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      if kill -0 $P 2>/dev/null; then echo alive; kill -KILL $P; else wait $P; echo "status $?"; fi
      cat err
      """
    let result = try OutputSafetyTests.shell(script, in: directory)
    #expect(
      result.stdout
        == "status 143\nreplykit: the thread was not saved: nothing read \(directory.path)/f.json (a FIFO or device) "
        + "before the signal\n", "\(result.stdout)")
  }

  @Test func aClosedStandardOutputIsAnError() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      "\"$R\" chat --thread thread.json --reply-command 'cat > got.txt; echo hi' < /dev/null >&-", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "replykit: cannot write standard output: Bad file descriptor\n")
    // The reply command read the thread as JSON, nothing of the transcript.
    let sent = try String(contentsOf: directory.appendingPathComponent("got.txt"), encoding: .utf8)
    #expect(sent.hasPrefix("{") && !sent.contains("──"), "\(sent)")
    #expect(try Self.saved(directory.appendingPathComponent("thread.json")).map(\.text) == ["Hi", "hi\n"])
  }

  /// A reply command starts with every signal at its default, as a shell starts it: the signals
  /// the chat ignores (SIGXFSZ, and SIGUSR1 and the like it takes itself) are not passed on (a
  /// review: an ignored signal survives `exec`).
  @Test func aReplyCommandIgnoresNoSignal() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      "\"$R\" chat --thread thread.json --reply-command 'grep SigIgn /proc/self/status' < /dev/null", in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    let field = result.stdout.components(separatedBy: "SigIgn:").last?.trimmingCharacters(in: .whitespacesAndNewlines)
    let mask = try #require(field.flatMap { UInt64($0, radix: 16) }, "\(result.stdout)")
    for signalNumber in [SIGXFSZ, SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGALRM] {
      #expect(mask & (1 << UInt64(signalNumber - 1)) == 0, "signal \(signalNumber) ignored: \(String(mask, radix: 16))")
    }
  }

  /// A failed reply was shown only in the transcript on standard output, with status 1 and
  /// nothing on standard error, where the README says errors go (a trial).
  @Test func aFailedReplyIsAlsoALineOnStandardError() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      "\"$R\" chat --thread thread.json --reply-command 'cat > /dev/null; echo half; echo no model >&2; exit 4' "
        + "< /dev/null", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "replykit: the reply failed: no model\n")
    #expect(result.stdout.contains("half"))
    #expect(try Self.saved(directory.appendingPathComponent("thread.json")).last?.state == "failed")
  }

  /// Fault 1: a reader that goes away ends chat as it ends `render`: by SIGPIPE when SIGPIPE is
  /// at its default, else with the error; the reply is saved whole either way.
  @Test func aBrokenPipeEndsChatAsItEndsRender() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = """
      yes '# hi' | head -c 300000 > reply.md
      { "$R" render reply.md; echo "render $?" >&2; } | head -c 10 > /dev/null
      { "$R" chat --thread thread.json --reply-command 'cat reply.md' < /dev/null; echo "chat $?" >&2; } \
      | head -c 10 > /dev/null
      """
    let result = try OutputSafetyTests.shell(script, in: directory)
    #expect(result.stderr == "render 141\nchat 141\n")
    let messages = try Self.saved(directory.appendingPathComponent("thread.json"))
    #expect(messages.last?.state == "complete" && messages.last?.text.utf8.count == 300_000)

    try Data(Self.thread.utf8).write(to: directory.appendingPathComponent("thread.json"))
    let ignored = try OutputSafetyTests.shell(
      "trap '' PIPE; { \"$R\" chat --thread thread.json --reply-command 'cat reply.md' < /dev/null; "
        + "echo \"chat $?\" >&2; } | head -c 10 > /dev/null",
      in: directory)
    #expect(ignored.stderr == "replykit: cannot write standard output: Broken pipe\nchat 1\n")
    #expect(try Self.saved(directory.appendingPathComponent("thread.json")).last?.state == "complete")
  }

  /// A thread file that cannot be written at the end is an error too, naming the file.
  @Test func aThreadThatCannotBeSavedIsAnError() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("thread.json")
    let result = try CLIRunner.run(
      ["chat", "--thread", file.path, "--reply-command", "rm -r '\(directory.path)'; echo hi"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "replykit: cannot write '\(file.path)': No such file or directory; the thread was not saved\n")
  }

  /// A thread file written by someone else while the chat ran (another chat, an editor) is not
  /// written over: the thread is saved beside it, status 1 and one line saying where.
  @Test func aThreadFileChangedMeanwhileIsNotWrittenOver() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("thread.json")
    let result = try CLIRunner.run(
      [
        "chat", "--thread", file.path, "--reply-command",
        #"cat > /dev/null; printf '{"messages":[]}' > "# + "'\(file.path)'; echo hi",
      ])
    #expect(result.status == 1)
    #expect(try String(contentsOf: file, encoding: .utf8) == #"{"messages":[]}"#)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "thread.json" }
    try #require(names.count == 1)
    #expect(names[0].hasPrefix("thread.conflict-") && names[0].hasSuffix(".json"), "\(names)")
    let aside = directory.appendingPathComponent(names[0])
    #expect(try Self.saved(aside).map(\.text) == ["Hi", "hi\n"])
    #expect(
      result.stderr
        == "replykit: \(file.path) changed on disk while this chat ran (another chat or an editor?) and was not "
        + "written over; this thread was saved to \(aside.path)\n")
  }

  /// A new thread file in a folder that does not exist could never be saved: status 1 before
  /// anything is printed, naming the folder.
  @Test func aNewThreadInAMissingFolderIsAnError() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("missing/t.json")
    let result = try CLIRunner.run(["chat", "--thread", file.path, "--reply-command", "echo hi"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "replykit: cannot save the thread to '\(file.path)': the folder \(file.deletingLastPathComponent().path) "
        + "does not exist (create it, or name another file)\n")
  }

  /// Fault 2: a thread file that does not load is status 1 and the reason `export` gives, with
  /// what to do; nothing is printed on standard output and the file is left as it was.
  @Test(arguments: [
    ("bad.json", "{bad", "bad.json: not valid JSON: expected a key in quotes, found 'b' at line 1, column 2"),
    ("empty.json", "", "empty.json: the file is empty; a thread file is JSON with a \"messages\" list"),
    ("/dev/null", nil, "/dev/null: the file is empty; a thread file is JSON with a \"messages\" list"),
    (".", nil, "cannot read '.': it is a directory"),
    ("thread.json/inner", nil, "cannot read 'thread.json/inner': Not a directory"),
  ])
  func aThreadFileThatDoesNotLoadIsAnError(path: String, contents: String?, reason: String) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    if let contents { try Data(contents.utf8).write(to: directory.appendingPathComponent(path)) }
    let result = try OutputSafetyTests.shell(
      "\"$R\" chat --thread '\(path)' --reply-command 'echo hi' < /dev/null", in: directory)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == "replykit: \(reason) (--thread takes a thread file, or a new name to start a thread)\n")
    if let contents {
      #expect(try Data(contentsOf: directory.appendingPathComponent(path)) == Data(contents.utf8))
    }
    // `export` gives the same reason.
    let export = try OutputSafetyTests.shell("\"$R\" export '\(path)'", in: directory)
    #expect(export.status == 1 && export.stderr == "replykit: \(reason)\n")
  }

  /// Fault 3: SIGTERM prints the reply as far as it got and says where the thread was saved,
  /// then exits with 128 + SIGTERM; the file has the reply, stopped.
  @Test func aSignalPrintsThePartialReplyAndWhereItWasSaved() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The heading is printed as soon as it arrives; the paragraph after it only at the end.
    let script = """
      "$R" chat --thread thread.json --reply-command "printf '# Heading\\n\\nan open paragraph\\n'; exec sleep 100" \
        < /dev/null > out.txt &
      pid=$!
      i=0; until grep -qs Heading out.txt || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
      sleep 0.2
      kill -TERM $pid
      wait $pid
      echo "status $?"
      cat out.txt
      """
    let result = try OutputSafetyTests.shell(script, in: directory)
    let file = directory.appendingPathComponent("thread.json")
    #expect(result.stdout.hasPrefix("status 143\n"), "\(result.stdout)")
    #expect(result.stdout.contains(" an open paragraph\n"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("\n Stopped\n"), "\(result.stdout)")
    #expect(result.stderr == "replykit: 2 messages, saved to \(file.path)\n")
    let messages = try Self.saved(file)
    #expect(messages.last?.state == "stopped")
    #expect(messages.last?.text == "# Heading\n\nan open paragraph\n")
  }

  /// Fault 3 without a thread file: the line says the thread was not saved.
  @Test func aSignalWithoutAThreadFileSaysItWasNotSaved() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = """
      "$R" chat --pace-ms 300 < /dev/null > out.txt &
      pid=$!
      i=0; until grep -qs 'Can you give me a template' out.txt || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
      sleep 0.5
      kill -HUP $pid
      wait $pid
      echo "status $?"
      """
    let result = try OutputSafetyTests.shell(script, in: directory)
    #expect(result.stdout == "status \(128 + SIGHUP)\n")
    #expect(result.stderr.hasPrefix("replykit: "))
    #expect(
      result.stderr.hasSuffix(" messages, not saved (use --thread FILE to keep the thread)\n"), "\(result.stderr)")
  }
}
