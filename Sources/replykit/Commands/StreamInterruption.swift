#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ending signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) that arrived while `replykit stream` drew
/// on a terminal, recorded by a handler so the command can leave the whole display behind before
/// it dies of that signal.
nonisolated(unsafe) private var pendingEndingSignal: sig_atomic_t = 0

/// Whether SIGTSTP (Ctrl-Z) arrived while `replykit stream` drew on a terminal, recorded by a
/// handler so the command can clear its live region before it stops.
nonisolated(unsafe) private var pendingStop: sig_atomic_t = 0

/// Ends a live `replykit stream` cleanly on an ending signal: the handler only records it (and
/// interrupts a blocking read or sleep), and the command, between updates, writes out the whole
/// tail — whose top may be above the screen, never drawn — and then dies of the same signal, so
/// its exit status stays 128 + the signal. Ctrl-Z is taken the same way: between updates the
/// command clears its live region, stops, and once continued draws the tail again from where the
/// cursor is then (below what the shell wrote meanwhile).
///
/// Guarantees: the handlers are async-signal-safe (each stores one `sig_atomic_t`); a second
/// ending signal while the tail is written ends the program at once, as the default action would.
enum StreamInterruption {
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Installs the recording handler for the ending signals, without `SA_RESTART`, so that a
  /// blocking `read` or `usleep` returns early, and unblocks them: a parent may have left them
  /// blocked (a blocked mask survives `exec`), and then Ctrl-C would do nothing until the end.
  static func install() {
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signalNumber in signals + [SIGTSTP] { sigaddset(&unblocked, signalNumber) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    installStopHandler()
    let record: @convention(c) (Int32) -> Void = { signalNumber in
      if pendingEndingSignal != 0 {
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
      }
      pendingEndingSignal = signalNumber
    }
    for signalNumber in signals { handle(signalNumber, with: record) }
  }

  /// Makes `handler` take `signalNumber`, without `SA_RESTART`.
  private static func handle(_ signalNumber: Int32, with handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = handler
    #else
      action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signalNumber, &action, nil)
  }

  /// Records SIGTSTP instead of stopping at once (without `SA_RESTART`, so a blocking `read` or
  /// `usleep` returns early): stopped in the middle of an update, the terminal would be left with
  /// line wrap off, and the shell's lines written while stopped would be overwritten by the next
  /// update's redraw of a region that is no longer where it was (a trial: Ctrl-Z, then `fg`).
  private static func installStopHandler() {
    handle(SIGTSTP) { _ in pendingStop = 1 }
  }

  /// Whether Ctrl-Z (SIGTSTP) asked the program to stop.
  static var stopRequested: Bool { pendingStop != 0 }

  /// Stops the process as SIGTSTP's default action does; returns once it is continued (`fg`,
  /// `bg`, SIGCONT), with the recording handler back.
  static func stopNow() {
    pendingStop = 0
    signal(SIGTSTP, SIG_DFL)
    raise(SIGTSTP)
    installStopHandler()
  }

  /// The signal that arrived, if any.
  static var pending: Int32? { pendingEndingSignal == 0 ? nil : pendingEndingSignal }

  /// Dies of `signalNumber` with its default action (the exit status a shell shows as 128 + it).
  static func die(of signalNumber: Int32) -> Never {
    for other in signals { signal(other, SIG_DFL) }
    raise(signalNumber)
    // A signal whose default is ignored (none of these) would return here.
    exit(128 + signalNumber)
  }
}
