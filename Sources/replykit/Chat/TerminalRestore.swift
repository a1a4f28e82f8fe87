#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal settings to put back, readable from a signal handler (which may run at any
/// moment, so this state lives outside any actor and is written only before handlers exist).
nonisolated(unsafe) private var savedTerminalSettings = termios()
/// Whether the terminal is in the chat's mode and needs restoring.
nonisolated(unsafe) private var terminalNeedsRestore: sig_atomic_t = 0

/// Puts the terminal back the way it was: leaves mouse, paste and synchronized-output modes and
/// the alternate screen, shows the cursor and restores the saved settings.
///
/// Guarantees: async-signal-safe (only `write` and `tcsetattr` on static data) and idempotent, so
/// the exit path, `atexit`, and the crash handlers can all call it.
enum TerminalRestore {
  /// The bytes that undo the chat's terminal modes.
  static let leaveSequence: StaticString =
    "\u{1B}[?2026l\u{1B}[0m\u{1B}[r\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"

  /// Records `settings` as the ones to restore and arms the restore.
  static func arm(with settings: termios) {
    savedTerminalSettings = settings
    terminalNeedsRestore = 1
  }

  /// Restores the terminal if it is armed; safe to call from a signal handler.
  static func restore() {
    guard terminalNeedsRestore != 0 else { return }
    terminalNeedsRestore = 0
    _ = write(STDOUT_FILENO, leaveSequence.utf8Start, leaveSequence.utf8CodeUnitCount)
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminalSettings)
  }

  /// Installs the handlers: `atexit`, and for SIGQUIT and the crash and limit signals a handler
  /// that restores the terminal and then dies of the same signal. (SIGTERM, SIGINT, SIGHUP and
  /// the other ending signals, ``ChatApp/endingSignals``, are handled by the app on its queue,
  /// so it can stop the reply and save the thread first.)
  static func installHandlers() {
    atexit { TerminalRestore.restore() }
    // Not SIGXFSZ: the program ignores it, so a write past the file size limit fails and is
    // reported (the thread was not saved) instead of ending the chat.
    let fatal: [Int32] = [SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGXCPU, SIGSYS]
    for signalNumber in fatal {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signalNumber in
        TerminalRestore.restore()
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signalNumber, &action, nil)
    }
  }
}
