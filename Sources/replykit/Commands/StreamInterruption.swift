#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ending signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) that arrived while `replykit stream` drew
/// on a terminal, recorded by a handler so the command can leave the whole display behind before
/// it dies of that signal.
nonisolated(unsafe) private var pendingEndingSignal: sig_atomic_t = 0

/// Ends a live `replykit stream` cleanly on an ending signal: the handler only records it (and
/// interrupts a blocking read or sleep), and the command, between updates, writes out the whole
/// tail — whose top may be above the screen, never drawn — and then dies of the same signal, so
/// its exit status stays 128 + the signal.
///
/// Guarantees: the handler is async-signal-safe (it stores one `sig_atomic_t`); a second signal
/// while the tail is written ends the program at once, as the default action would.
enum StreamInterruption {
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Installs the recording handler for the ending signals, without `SA_RESTART`, so that a
  /// blocking `read` or `usleep` returns early, and unblocks them: a parent may have left them
  /// blocked (a blocked mask survives `exec`), and then Ctrl-C would do nothing until the end.
  static func install() {
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signalNumber in signals { sigaddset(&unblocked, signalNumber) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    let record: @convention(c) (Int32) -> Void = { signalNumber in
      if pendingEndingSignal != 0 {
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
      }
      pendingEndingSignal = signalNumber
    }
    for signalNumber in signals {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = record
      #else
        action.__sigaction_u.__sa_handler = record
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signalNumber, &action, nil)
    }
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
