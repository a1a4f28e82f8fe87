#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keys a query of the terminal read while it waited for the answer, given back.
///
/// Guarantees: the terminal's settings are restored, and the keys go back into its input, in
/// order, as if typed now (`TIOCSTI`, with echo off while they go back: keys typed before the
/// query were echoed when typed, and none shows twice), so typed-ahead text reaches the shell or
/// the program that reads next. Bytes the terminal sent rather than the user typed (an answer to
/// a query, complete or cut short) are never given back. An interrupt, quit or suspend key among
/// them is delivered as its signal once the settings are restored; as the terminal does, the keys
/// typed before it are dropped (unless the settings say `noflsh`). Where the system refuses
/// `TIOCSTI` the other keys are lost.
enum TerminalInput {
  /// Restores `saved` on the terminal `descriptor`, giving back `typed` (read while a query
  /// waited, its answer taken out) under the rules above; `signalKeys`: the keys that were read
  /// as bytes because the query had signals off.
  static func restore(_ saved: termios, on descriptor: Int32, givingBack typed: [UInt8], signalKeys: SignalKeys) {
    var settings = saved
    var text = withoutTerminalAnswers(typed)
    var signal: Int32?
    if let last = text.lastIndex(where: { signalKeys.keys[$0] != nil }) {
      signal = signalKeys.keys[text[last]]
      let flushes = saved.c_lflag & tcflag_t(NOFLSH) == 0
      text = signalKeys.split(flushes ? Array(text[(last + 1)...]) : text).text
    }
    if !text.isEmpty {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
      if tcsetattr(descriptor, TCSANOW, &quiet) == 0 {
        for var byte in text where ioctl(descriptor, UInt(TIOCSTI), &byte) != 0 { break }
      }
    }
    _ = tcsetattr(descriptor, TCSANOW, &settings)
    if let signal { raise(signal) }
  }

  /// `bytes` without what a terminal sends and a user never types: operating system commands
  /// (`ESC ]` … BEL or `ESC \`, such as a late answer to a background colour query) and cursor
  /// position reports (`ESC [` digits `;` digits `R`), whole or cut short at the end. Keys such
  /// as the arrows (`ESC [ A`) stay.
  static func withoutTerminalAnswers(_ bytes: [UInt8]) -> [UInt8] {
    var kept: [UInt8] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == 0x1B else {
        kept.append(bytes[index])
        index += 1
        continue
      }
      let next = index + 1 < bytes.count ? bytes[index + 1] : nil
      if next == nil { break }  // A lone ESC at the end: a sequence cut short.
      if next == UInt8(ascii: "]") {
        var end = index + 2
        while end < bytes.count, bytes[end] != 0x07,
          !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == 0x5C)
        {
          end += 1
        }
        index = end >= bytes.count ? bytes.count : end + (bytes[end] == 0x07 ? 1 : 2)
        continue
      }
      if next == UInt8(ascii: "[") {
        var end = index + 2
        while end < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) || bytes[end] == UInt8(ascii: ";")
        {
          end += 1
        }
        if end >= bytes.count { break }  // A report cut short at the end.
        if bytes[end] == UInt8(ascii: "R"), end > index + 2 {
          index = end + 1
          continue
        }
      }
      kept.append(bytes[index])
      index += 1
    }
    return kept
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
