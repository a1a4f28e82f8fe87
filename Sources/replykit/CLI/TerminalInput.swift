#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keys a query of the terminal read while it waited for the answer, given back.
///
/// Guarantees: the keys go back into the terminal's input, in order, as if typed now (`TIOCSTI`:
/// the terminal's settings then make signals, echo and line editing of them), so typed-ahead
/// text reaches the shell or the program that reads next; where the system refuses that, the
/// first signal key among those not given back is still delivered as its signal, and the other
/// bytes are lost.
enum TerminalInput {
  /// Gives `typed` back to the terminal `descriptor`, whose settings make the signals of
  /// `signalKeys`; call it once the terminal's own settings are restored.
  static func giveBack(_ typed: [UInt8], signalKeys: SignalKeys, to descriptor: Int32) {
    var returned = 0
    for var byte in typed {
      guard ioctl(descriptor, UInt(TIOCSTI), &byte) == 0 else { break }
      returned += 1
    }
    if let first = signalKeys.split(Array(typed[returned...])).signals.first { raise(first) }
  }
}
