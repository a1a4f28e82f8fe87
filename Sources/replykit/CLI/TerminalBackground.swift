#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the terminal's background is dark: asked with an OSC 11 query on the controlling
/// terminal (a short wait, only when standard input and output are terminals), else from
/// `COLORFGBG`, else dark.
enum TerminalBackground {
  /// How long to wait for the terminal's answer.
  static let timeoutMilliseconds: Int32 = 120

  static func isDark(environment: [String: String], asking: Bool = true) -> Bool {
    if asking, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, let answer = query() { return answer }
    if let colors = environment["COLORFGBG"], let last = colors.split(separator: ";").last, let bg = Int(last) {
      // rxvt's convention: 0–6 and 8 are dark backgrounds, 7 and 9–15 light.
      return !(bg == 7 || (9...15).contains(bg))
    }
    return true
  }

  /// The terminal's answer to OSC 11 (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST), as
  /// dark or light; nil when it does not answer in time.
  private static func query() -> Bool? {
    let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var saved = termios()
    guard tcgetattr(descriptor, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    defer { _ = tcsetattr(descriptor, TCSANOW, &saved) }
    let request: [UInt8] = [0x1B, 0x5D] + Array("11;?".utf8) + [0x1B, 0x5C]
    guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else { return nil }
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while reply.count < 128 {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, timeoutMilliseconds) == 1 else { break }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      reply += buffer[0..<count]
      if reply.last == 0x07 || reply.suffix(2) == [0x1B, 0x5C] { break }
    }
    return parse(reply)
  }

  /// Dark or light from an OSC 11 answer; nil when it is not one.
  static func parse(_ reply: [UInt8]) -> Bool? {
    let text = String(decoding: reply, as: UTF8.self)
    guard let start = text.range(of: "rgb:") else { return nil }
    let channels = text[start.upperBound...].prefix { $0.isHexDigit || $0 == "/" }.split(separator: "/")
    guard channels.count == 3 else { return nil }
    var values: [Double] = []
    for channel in channels {
      guard let value = UInt32(channel.prefix(4), radix: 16) else { return nil }
      let maximum = Double((1 << (4 * min(channel.count, 4))) - 1)
      values.append(Double(value) / maximum)
    }
    return 0.2126 * values[0] + 0.7152 * values[1] + 0.0722 * values[2] < 0.5
  }
}
