#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keys a terminal turns into signals (interrupt, quit, suspend), read from its settings, so
/// that keys read while those signals were off can be delivered as the terminal would have.
///
/// Guarantees: a key counts only when the settings make signals (`ISIG`) and the key is not
/// disabled (`_POSIX_VDISABLE`, 0).
struct SignalKeys: Equatable {
  /// Each key and the signal it makes.
  let keys: [UInt8: Int32]

  init(keys: [UInt8: Int32]) { self.keys = keys }

  /// The keys of the terminal settings `settings`.
  init(settings: termios) {
    var keys: [UInt8: Int32] = [:]
    if settings.c_lflag & tcflag_t(ISIG) != 0 {
      var characters = settings.c_cc
      withUnsafeBytes(of: &characters) { bytes in
        // Suspend first, then quit, then interrupt: where two share a key, interrupt wins.
        for (index, signal) in [(Int(VSUSP), SIGTSTP), (Int(VQUIT), SIGQUIT), (Int(VINTR), SIGINT)]
        where index < bytes.count && bytes[index] != 0 {
          keys[bytes[index]] = signal
        }
      }
    }
    self.keys = keys
  }

  /// `bytes` cut into the bytes that are not signal keys, in order, and the signals of those that
  /// are, in order.
  func split(_ bytes: [UInt8]) -> (text: [UInt8], signals: [Int32]) {
    var text: [UInt8] = []
    var signals: [Int32] = []
    for byte in bytes {
      if let signal = keys[byte] { signals.append(signal) } else { text.append(byte) }
    }
    return (text, signals)
  }
}
