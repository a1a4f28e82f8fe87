import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shell command started with `sh -c` in its own process group, with pipes for its standard
/// input, output and error.
///
/// Guarantees: the child leads a new process group (so ``terminate(grace:)`` reaches everything
/// it started); it gets default signal dispositions and an empty signal mask whatever the chat
/// ignores; the chat's own descriptors (the terminal) are not inherited except as set here, and
/// every pipe end is close-on-exec (set right after `pipe`; processes are only started from the main actor, so no other start sees them in between). The caller closes the three descriptors.
struct Subprocess: Sendable {
  /// The child's process id (and process group id).
  let pid: pid_t
  /// Write end of the child's standard input.
  let input: Int32
  /// Read end of the child's standard output.
  let output: Int32
  /// Read end of the child's standard error.
  let error: Int32

  /// Starts `sh -c command`.
  ///
  /// - Throws: ``CLIError`` when the pipes or the process cannot be made.
  static func shell(_ command: String) throws -> Subprocess {
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
      throw CLIError.failure("cannot make pipes: \(String(cString: strerror(errno)))")
    }
    // All six close on exec; `dup2` in the child clears the flag on 0, 1 and 2 only.
    for descriptor in stdinPipe + stdoutPipe + stderrPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    posix_spawnattr_setpgroup(&attributes, 0)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    // Every signal this program ignores or takes itself goes back to its default in the command,
    // as a shell would start it (an ignored signal survives `exec`: a reply command under
    // `ulimit -f` would get "File too large" errors instead of SIGXFSZ).
    for signalNumber in [SIGPIPE, SIGQUIT, SIGWINCH, SIGXFSZ] + ChatApp.endingSignals {
      sigaddset(&defaults, signalNumber)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)

    let arguments: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) }
    defer { arguments.forEach { free($0) } }
    var argv = arguments + [nil]
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
    for descriptor in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] { close(descriptor) }
    guard status == 0 else {
      for descriptor in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] { close(descriptor) }
      throw CLIError.failure("cannot start '\(command)': \(String(cString: strerror(status)))")
    }
    return Subprocess(pid: pid, input: stdinPipe[1], output: stdoutPipe[0], error: stderrPipe[0])
  }

  /// Sends SIGTERM to the child's process group, then SIGKILL after `grace` seconds unless
  /// `hasExited` says the child is gone by then.
  func terminate(grace: TimeInterval, hasExited: @escaping @Sendable () -> Bool) {
    kill(-pid, SIGTERM)
    let group = pid
    DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
      if !hasExited() { kill(-group, SIGKILL) }
    }
  }

  /// Writes all of `data` to `descriptor` and closes it (a reader that went away is no error).
  static func writeAndClose(_ data: Data, to descriptor: Int32) {
    data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, base + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          break
        }
        offset += written
      }
    }
    close(descriptor)
  }

  /// How a child ended: its exit status, or the signal that ended it.
  struct End: Equatable {
    /// The exit status, or 128 + the signal (as a shell's `$?` has it); -1 when it could not be
    /// waited for.
    var status: Int32
    /// The signal that ended it, if one did.
    var signal: Int32?

    /// `exited with status 3`, or `was ended by SIGKILL` (a status of 137 that the command
    /// returned itself is not told apart by a shell, but is here).
    var phrase: String {
      guard let signal else { return "exited with status \(status)" }
      return "was ended by " + (Self.signalNames[signal].map { "SIG" + $0 } ?? "signal \(signal)")
    }

    static let signalNames: [Int32: String] = [
      SIGHUP: "HUP", SIGINT: "INT", SIGQUIT: "QUIT", SIGILL: "ILL", SIGABRT: "ABRT", SIGBUS: "BUS", SIGFPE: "FPE",
      SIGKILL: "KILL", SIGSEGV: "SEGV", SIGPIPE: "PIPE", SIGALRM: "ALRM", SIGTERM: "TERM", SIGUSR1: "USR1",
      SIGUSR2: "USR2", SIGXCPU: "XCPU", SIGXFSZ: "XFSZ",
    ]
  }

  /// Waits for the child; returns how it ended.
  func wait() -> End {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return End(status: -1) }
    }
    let signalled = status & 0x7F
    return signalled == 0 ? End(status: (status >> 8) & 0xFF) : End(status: 128 + signalled, signal: signalled)
  }

  /// Runs `work`, which blocks on a child's pipes or its exit, on a new thread of its own: on the
  /// shared dispatch pool (as wide as the machine has cores, and the Swift tasks' pool too) a few
  /// such jobs could take every worker until the pool grew, about a second later.
  static func onOwnThread(_ work: @escaping @Sendable () -> Void) {
    let thread = Thread(block: work)
    thread.name = "replykit child process"
    thread.start()
  }
}
