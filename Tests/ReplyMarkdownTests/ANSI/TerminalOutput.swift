@testable import ReplyMarkdown

/// Reads terminal output back: strips exactly the escape sequences the renderer emits and
/// measures what a terminal would show.
enum TerminalOutput {
  /// Removes the renderer's own sequences — SGR `ESC [ digits;… m` and OSC 8 `ESC ] 8 ; ; target
  /// ESC \` — and nothing else, so any other ESC byte survives for the caller to find.
  static func strippingOwnSequences(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x1B, index + 1 < bytes.count {
        if bytes[index + 1] == UInt8(ascii: "[") {
          var end = index + 2
          while end < bytes.count,
            (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9"))
              || bytes[end] == UInt8(ascii: ";")
          { end += 1 }
          if end < bytes.count, bytes[end] == UInt8(ascii: "m") {
            index = end + 1
            continue
          }
        } else if bytes[index + 1] == UInt8(ascii: "]"), index + 4 < bytes.count, bytes[index + 2] == UInt8(ascii: "8"),
          bytes[index + 3] == UInt8(ascii: ";"), bytes[index + 4] == UInt8(ascii: ";")
        {
          var end = index + 5
          while end < bytes.count, bytes[end] > 0x20, bytes[end] < 0x7F { end += 1 }
          if end + 1 < bytes.count, bytes[end] == 0x1B, bytes[end + 1] == UInt8(ascii: "\\") {
            index = end + 2
            continue
          }
        }
      }
      out.append(bytes[index])
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The problems of rendered output at `width`: lines too wide, trailing spaces.
  static func layoutProblems(_ rendered: String, width: Int) -> [String] {
    var problems: [String] = []
    for line in strippingOwnSequences(rendered).split(separator: "\n", omittingEmptySubsequences: false) {
      let columns = DisplayWidth.of(String(line))
      if columns > width { problems.append("\(columns) columns > \(width): \(line.debugDescription)") }
      if line.hasSuffix(" ") { problems.append("trailing space: \(line.debugDescription)") }
    }
    return problems
  }
}
