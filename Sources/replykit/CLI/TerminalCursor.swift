#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the terminal's cursor is, asked with a cursor position report (`ESC [ 6 n`, answered
/// `ESC [ row ; column R`) on the controlling terminal.
///
/// Guarantees: asks only in the terminal's foreground, and not when the program reads standard
/// input from the terminal (its keys are the reply's text then, not to be read here); waits at most
/// ``timeoutMilliseconds``; leaves the terminal's settings as it found them; `nil` whenever
/// unsure.
enum TerminalCursor {
  /// How long to wait for the terminal's answer: every terminal that draws a live region answers
  /// at once, so the wait is the round trip to it, and an answer later than this would arrive
  /// with echo back on and show as text (over SSH, a round trip of 120 ms is common).
  static let timeoutMilliseconds: Int32 = 400

  /// The column the cursor is in, counted from 0 (`nil` when the terminal cannot be asked or
  /// does not answer in time); `readsStandardInput`: whether the program reads its input from
  /// standard input.
  static func column(readsStandardInput: Bool) -> Int? {
    guard !(readsStandardInput && isatty(STDIN_FILENO) == 1) else { return nil }
    let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard TerminalBackground.isForeground(descriptor) else { return nil }
    var saved = termios()
    guard tcgetattr(descriptor, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    defer { _ = tcsetattr(descriptor, TCSANOW, &saved) }
    let request: [UInt8] = [0x1B, 0x5B, 0x36, 0x6E]
    guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else { return nil }
    var reply: [UInt8] = []
    var byte: UInt8 = 0
    while reply.count < 64 {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, timeoutMilliseconds) == 1, read(descriptor, &byte, 1) == 1 else { return nil }
      reply.append(byte)
      if byte == UInt8(ascii: "R") { break }
    }
    return parse(reply)
  }

  /// The column (from 0) in a cursor position report ending `reply`; nil when it holds none.
  static func parse(_ reply: [UInt8]) -> Int? {
    guard let escape = reply.lastIndex(of: 0x1B), reply.last == UInt8(ascii: "R") else { return nil }
    let body = reply[(escape + 1)...].dropLast()
    guard body.first == UInt8(ascii: "[") else { return nil }
    let fields = body.dropFirst().split(separator: UInt8(ascii: ";"))
    guard fields.count == 2, let column = Int(String(decoding: fields[1], as: UTF8.self)), column >= 1,
      Int(String(decoding: fields[0], as: UTF8.self)) != nil
    else { return nil }
    return column - 1
  }
}
