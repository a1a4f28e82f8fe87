import ReplyMarkdown
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way the program ends, so that every command, including `chat` (which ends from its
/// run loop rather than by returning), reports a failed write to standard output.
///
/// Guarantees: a write to standard output that failed is never an exit status of 0; the failure
/// is one line on standard error (`replykit: cannot write standard output: REASON`), or, when
/// the reader of a pipe went away and SIGPIPE was at its default when the program started,
/// death by SIGPIPE, as `render` dies when its write meets the closed pipe.
enum ProgramExit {
  /// Whether SIGPIPE was at its default before ``ignoreBrokenPipes()`` set it to be ignored.
  private static let pipeSignalWasDefault = Mutex(false)

  /// Ignores SIGPIPE, so that a child process that exits without reading (a reply or share
  /// command) makes the write to it fail with `EPIPE` instead of killing the program, and
  /// remembers whether SIGPIPE was at its default so that ``exit(_:)`` can still end by it.
  static func ignoreBrokenPipes() {
    let previous = signal(SIGPIPE, SIG_IGN)
    // SIG_DFL is the null handler.
    if previous == nil { pipeSignalWasDefault.withLock { $0 = true } }
  }

  /// Exits with `status` when every write to standard output succeeded. After a failed write
  /// a status of 0 becomes 1 (or death by SIGPIPE, see the type), and a status that already
  /// says failure (a failed reply, 128 + a signal) is kept; either way the failure is reported.
  static func exit(_ status: Int32) -> Never {
    let failure = StandardIO.outputError
    if failure == EPIPE && status == 0 && pipeSignalWasDefault.withLock({ $0 }) {
      signal(SIGPIPE, SIG_DFL)
      raise(SIGPIPE)
    }
    do {
      try StandardIO.checkOutput()
    } catch {
      report(error)
      terminate(status == 0 ? 1 : status)
    }
    terminate(status)
  }

  /// Reports `error` as one line on standard error and exits with its status (1 for an error
  /// that is not a ``CLIError``).
  static func fail(_ error: any Error) -> Never {
    report(error)
    terminate((error as? CLIError)?.status ?? 1)
  }

  /// Messages quote what the user typed and what files hold: their control characters show as
  /// symbols, so a name holding ESC or a newline cannot drive the terminal or break the line.
  private static func report(_ error: any Error) {
    let message = (error as? CLIError)?.message ?? "\(error)"
    StandardIO.writeError("replykit: " + TerminalSafeText.visible(message, keepingTabsAndNewlines: false))
  }

  private static func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(status)
    #else
      Darwin.exit(status)
    #endif
  }
}
