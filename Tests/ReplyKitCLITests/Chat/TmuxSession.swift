import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `replykit` running in a detached tmux session of a fixed size, on a tmux server of
/// its own (so tests can run in parallel), driven with `send-keys` and read with `capture-pane`.
///
/// Waits poll the pane every 40 ms up to a timeout instead of sleeping blindly. The server is
/// killed when the session is released.
final class TmuxSession {
  /// Why a session could not run.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let socket = "rkchat-test-\(UUID().uuidString.prefix(8))"
  /// A directory for this test's files (thread files, counters), removed at the end.
  let directory: URL

  /// Starts `replykit chat` with `arguments` in a `width` x `height` session. After the program
  /// exits the pane shows `EXITED <status>`.
  /// `files` are written to ``directory`` (the program's working directory) first.
  /// `subcommand` and `readyText` run another command (`stream`) and wait for its first output.
  /// With `interactiveShell`, the pane runs an interactive bash (job control on) in ``directory``
  /// instead, for the test to type commands into; `arguments` are then unused.
  init(
    _ arguments: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
    files: [String: Data] = [:], subcommand: String = "chat", readyText: String? = "Message (Enter sends",
    interactiveShell: Bool = false
  ) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("rkchat-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
    guard Self.tmuxPath != nil else {
      throw Failure(
        description: "tmux is not installed: the chat end-to-end tests drive replykit in tmux. "
          + "Run 'make test' (it installs tmux) or 'sudo apt-get install tmux'.")
    }
    let exports = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
    let command =
      interactiveShell
      // Signals at their default actions, as in a user's shell (one the test runner ignored would
      // stay ignored across exec).
      ? "cd \(Self.quote(directory.path)) && exec env --default-signal bash --norc --noprofile -i"
      : "cd \(Self.quote(directory.path)) && env \(exports) \(([CLIRunner.executable.path, subcommand] + arguments).map(Self.quote).joined(separator: " ")) 2>stderr.txt; echo EXITED $?; sleep 600"
    try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command])
    try tmux(["set-option", "-g", "set-clipboard", "on"])
    let pids = try tmux(["display-message", "-p", "#{pid} #{pane_pid}"]).split(separator: " ")
      .compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    serverPID = pids.first ?? 0
    panePID = pids.last ?? 0
    // Keys typed before the program is in raw mode would be cooked by the terminal.
    if let readyText { try waitFor(readyText) }
  }

  private var serverPID: pid_t = 0
  private var panePID: pid_t = 0

  /// Sends `signalNumber` to the program the pane runs (the shell's child); whether it was found.
  @discardableResult
  func signalProgram(_ signalNumber: Int32) -> Bool {
    guard let (pid, _) = program() else { return false }
    return kill(pid, signalNumber) == 0
  }

  /// The program the pane runs (the shell's child): its process id and state (`/proc` stat's
  /// letter: `T` when stopped).
  func program() -> (pid: pid_t, state: Character)? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    for entry in entries {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the command name in parentheses: the state, then the parent's id.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, pid_t(fields[1]) == panePID, let state = fields[0].first { return (pid, state) }
    }
    return nil
  }

  deinit {
    _ = try? tmux(["kill-server"])
    // Also by process id: the server must go even if its socket was removed under it.
    if panePID > 0 { kill(-panePID, SIGKILL) }
    if serverPID > 0 { kill(serverPID, SIGKILL) }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Types `text` literally.
  func type(_ text: String) throws {
    try tmux(["send-keys", "-l", "--", text])
  }

  /// Presses keys by tmux name (`Enter`, `Escape`, `PageUp`, `End`, `C-c`, `M-Enter`).
  func press(_ keys: String...) throws {
    try tmux(["send-keys"] + keys)
  }

  /// Sends raw bytes to the program, as a terminal would (mouse reports, say).
  func send(bytes: [UInt8]) throws {
    try tmux(["send-keys", "-H"] + bytes.map { String($0, radix: 16) })
  }

  /// Pastes `data` as the terminal does (bracketed, since the chat asks for it) through a tmux
  /// paste buffer.
  func paste(_ data: Data) throws {
    let file = directory.appendingPathComponent(".paste-\(UUID().uuidString)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    try tmux(["load-buffer", "-b", "paste", file.path])
    try tmux(["paste-buffer", "-p", "-d", "-b", "paste"])
  }

  /// Types a line and presses Enter.
  func submit(_ text: String) throws {
    try type(text)
    try press("Enter")
  }

  /// The visible pane, one line per row.
  func screen() throws -> String {
    try tmux(["capture-pane", "-p"])
  }

  /// The scrollback and the visible pane, one line per row (wrapped lines as their rows).
  func scrollback() throws -> String {
    try tmux(["capture-pane", "-p", "-S", "-", "-E", "-"])
  }

  /// Resizes the window (the program gets SIGWINCH).
  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
  }

  /// The last tmux paste buffer (where OSC 52 lands with `set-clipboard on`).
  func pasteBuffer() throws -> String {
    try tmux(["show-buffer"])
  }

  /// Polls tmux's paste buffer until it starts with `prefix` (a copy's OSC 52 may reach tmux after
  /// the notice that reports it is drawn); returns the buffer as it last was.
  @discardableResult
  func pasteBuffer(startingWith prefix: String, timeout: TimeInterval = 5) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = (try? pasteBuffer()) ?? ""
    while !buffer.hasPrefix(prefix) && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.04)
      buffer = (try? pasteBuffer()) ?? ""
    }
    return buffer
  }

  /// Polls the pane until `condition` holds; fails with the last screen after `timeout` seconds.
  @discardableResult
  func waitFor(
    _ what: String, timeout: TimeInterval = 10, _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if condition(last) { return last }
      Thread.sleep(forTimeInterval: 0.04)
    }
    let stderr = (try? String(contentsOf: directory.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
    throw Failure(description: "timed out waiting for \(what); the screen was:\n\(last)\nstderr: \(stderr)")
  }

  /// Polls until the pane shows `text`.
  @discardableResult
  func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
    try waitFor("'\(text)'", timeout: timeout) { $0.contains(text) }
  }

  /// Runs tmux and returns its standard output.
  ///
  /// Spawned and reaped by hand: Foundation's `Process` can miss the exit of the tmux client
  /// that starts a server (the server it forks keeps running), and then waits forever.
  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let outputURL = directory.appendingPathComponent(".tmux-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let command = ([Self.tmuxPath ?? "tmux", "-L", socket] + arguments).map(Self.quote).joined(separator: " ")
    let shell = "unset TMUX; exec \(command) >\(Self.quote(outputURL.path)) 2>/dev/null </dev/null"
    let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", shell].map { (text: String) in strdup(text) }
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, argv + [nil], environ)
    guard spawned == 0 else { throw Failure(description: "cannot start tmux: error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else {
      throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
    }
    let data = (try? Data(contentsOf: outputURL)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The tmux executable on PATH, if any.
  static let tmuxPath: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
      let candidate = "\(directory)/tmux"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// `text` quoted for `sh`.
  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
