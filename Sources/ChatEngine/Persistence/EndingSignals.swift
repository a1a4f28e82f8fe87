#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals that end a command-line program (SIGINT, SIGTERM, SIGHUP, SIGQUIT), held off while
/// it does something that must not stop halfway: replacing a file, drawing a terminal update.
///
/// Blocking is per thread: in a single-threaded program a signal that arrives meanwhile is
/// delivered when ``restore(_:)`` runs; in a program with other threads it may go to one of them.
package enum EndingSignals {
  /// Blocks the signals in the calling thread; returns the mask to give ``restore(_:)``.
  package static func block() -> sigset_t {
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&blocked, signalNumber) }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    return previous
  }

  /// Whether one of the signals that would end the process (its action is the default) arrived
  /// while blocked and waits to be delivered. A signal the program ignores or takes another way
  /// (the chat reads them through a dispatch source, which may see one pending for a moment) is
  /// not counted: it ends nothing, so it cancels nothing.
  package static func arePending() -> Bool {
    var pending = sigset_t()
    guard sigpending(&pending) == 0 else { return false }
    return [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains { signalNumber in
      guard sigismember(&pending, signalNumber) == 1 else { return false }
      var action = sigaction()
      guard sigaction(signalNumber, nil, &action) == 0 else { return false }
      // SIG_DFL is the null handler.
      return action.__sigaction_handler.sa_handler == nil
    }
  }

  /// Puts back the mask ``block()`` returned; a signal that arrived meanwhile is delivered now.
  package static func restore(_ previous: sigset_t) {
    var previous = previous
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }
}
