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

  /// Whether one of the signals arrived while blocked and waits to be delivered (to this thread
  /// or, unless another thread takes it, to the process).
  package static func arePending() -> Bool {
    var pending = sigset_t()
    guard sigpending(&pending) == 0 else { return false }
    return [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains { sigismember(&pending, $0) == 1 }
  }

  /// Puts back the mask ``block()`` returned; a signal that arrived meanwhile is delivered now.
  package static func restore(_ previous: sigset_t) {
    var previous = previous
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }
}
