/// ``HealRule/tableHeaderUntilDelimiterRow``: a paragraph line with an unescaped pipe may be a
/// table header; it is held, with its delimiter row, until that row is complete, so a table never
/// flashes as a paragraph of pipes (the one hold that reaches back a line).
enum TableHeaderHold {
  /// Where to cut `text` (whose open leaf is the paragraph `leaf`), or `nil` when nothing waits.
  static func cut(_ text: [UInt8], leaf: OpenLeaf, protectedLength: Int) -> Int? {
    guard leaf.kind == .paragraph else { return nil }
    let lineStart = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
    let lastLine = text[lineStart...]
    var drop: Int?
    if !lastLine.isEmpty && hasUnescapedPipe(lastLine) {
      // A header row still arriving, or its delimiter row with the header above it.
      drop = lineStart
      if isDelimiterRowCandidate(lastLine) && lineStart > protectedLength {
        let previous = SourceLines.lineStart(text, endingAt: lineStart, floor: protectedLength)
        if previous >= leaf.start && hasUnescapedPipe(text[previous..<lineStart]) { drop = previous }
      }
    } else if lastLine.isEmpty && lineStart > protectedLength {
      // A complete header line: its delimiter row has not started.
      let previous = SourceLines.lineStart(text, endingAt: lineStart, floor: protectedLength)
      if hasUnescapedPipe(text[previous..<lineStart]) { drop = previous }
    }
    guard let drop, drop >= protectedLength else { return nil }
    return drop
  }

  static func hasUnescapedPipe(_ line: ArraySlice<UInt8>) -> Bool {
    var escaped = false
    for byte in line {
      if escaped {
        escaped = false
      } else if byte == ASCII.backslash {
        escaped = true
      } else if byte == ASCII.pipe {
        return true
      }
    }
    return false
  }

  /// Whether `line` could still be (the start of) a delimiter row: only pipes, `-`, `:` and blanks.
  static func isDelimiterRowCandidate(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == ASCII.pipe || $0 == ASCII.hyphen || $0 == ASCII.colon || ASCII.isBlank($0) }
  }
}
