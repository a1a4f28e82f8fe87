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
/// ``timeoutMilliseconds``; leaves the terminal's settings as it found them; gives keys typed
/// while it waits back to the terminal (``TerminalInput``); `nil` whenever unsure.
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
    var typed: [UInt8] = []
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    // Signal keys made their signals as they came (the query leaves signals on).
    defer { TerminalInput.restore(saved, on: descriptor, givingBack: typed, signalKeys: SignalKeys(keys: [:])) }
    guard
      let reply = TerminalInput.ask(
        [0x1B, 0x5B, 0x36, 0x6E], on: descriptor, waitMilliseconds: timeoutMilliseconds,
        until: { split($0).column != nil })
    else { return nil }
    let (column, other) = split(reply)
    typed = other
    return column
  }

  /// `bytes` read after the request cut into the column of the first cursor position report in
  /// them (counted from 0), and the other bytes in order: keys typed before or after it, and a
  /// report cut short.
  static func split(_ bytes: [UInt8]) -> (column: Int?, other: [UInt8]) {
    var start = 0
    while let escape = bytes[start...].firstIndex(of: 0x1B) {
      start = escape + 1
      // ESC [ digits ; digits R
      var index = escape + 1
      guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { continue }
      index += 1
      var fields: [Int] = [0]
      var digits = 0
      while index < bytes.count, fields.count <= 2 {
        let byte = bytes[index]
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 6 {
          fields[fields.count - 1] = fields[fields.count - 1] * 10 + Int(byte - UInt8(ascii: "0"))
          digits += 1
        } else if byte == UInt8(ascii: ";"), digits > 0, fields.count == 1 {
          fields.append(0)
          digits = 0
        } else {
          break
        }
        index += 1
      }
      guard index < bytes.count, bytes[index] == UInt8(ascii: "R"), fields.count == 2, digits > 0, fields[1] >= 1
      else { continue }
      return (fields[1] - 1, Array(bytes[..<escape] + bytes[(index + 1)...]))
    }
    return (nil, bytes)
  }
}
