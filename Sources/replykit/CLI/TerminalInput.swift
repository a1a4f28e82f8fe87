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

  /// Writes `request` to the terminal `descriptor` (in a mode without echo) and reads what comes
  /// back until `isAnswered` holds for it, `waitMilliseconds` pass with nothing new, or
  /// ``maximumRead`` bytes came (keys typed meanwhile among them); nil when the request could not
  /// be written.
  static func ask(
    _ request: [UInt8], on descriptor: Int32, waitMilliseconds: Int32, until isAnswered: ([UInt8]) -> Bool
  ) -> [UInt8]? {
    guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else { return nil }
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while reply.count < maximumRead {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, waitMilliseconds) == 1 else { break }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      reply += buffer[0..<count]
      if isAnswered(reply) { break }
    }
    return reply
  }

  /// The most a query reads while waiting for its answer (keys typed meanwhile included).
  static let maximumRead = 1 << 16
}
