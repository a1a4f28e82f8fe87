/// Line arithmetic over UTF-8 markdown source, with CommonMark's three line endings
/// (`\n`, `\r\n`, `\r`).
enum SourceLines {
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")

  /// The offsets (into `bytes`, relative to `start`) at which each line begins; the first is 0.
  static func lineStarts(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) -> [Int] {
    let end = end ?? bytes.count
    var starts = [0]
    var index = start
    while index < end {
      let byte = bytes[index]
      if byte == newline {
        starts.append(index + 1 - start)
      } else if byte == carriageReturn {
        if index + 1 < end && bytes[index + 1] == newline { index += 1 }
        starts.append(index + 1 - start)
      }
      index += 1
    }
    return starts
  }

  /// The end of the last complete line in `bytes[start..<end]`: just past its terminator, or
  /// `start` when no line is complete. A final `\r` is not complete: a `\n` may follow it.
  static func completeEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
    var index = end
    while index > start {
      let byte = bytes[index - 1]
      if byte == newline { return index }
      if byte == carriageReturn && index < end { return index }
      index -= 1
    }
    return start
  }

  /// The start of the line that contains `offset` (the offset just past the previous terminator).
  static func lineStart(_ bytes: [UInt8], before offset: Int, floor: Int = 0) -> Int {
    var index = offset
    while index > floor {
      let byte = bytes[index - 1]
      if byte == newline || byte == carriageReturn { return index }
      index -= 1
    }
    return floor
  }

  /// The start of the line whose terminator ends just before `end` (a line start): a `\r\n`
  /// ends one line, not a line and an empty one, as ``lineStart(_:before:floor:)`` at `end - 1`
  /// would take it.
  static func lineStart(_ bytes: [UInt8], endingAt end: Int, floor: Int = 0) -> Int {
    var last = end - 1
    if last > floor, bytes[last] == newline, bytes[last - 1] == carriageReturn { last -= 1 }
    return lineStart(bytes, before: last, floor: floor)
  }

  /// Whether `bytes[range]` holds only spaces, tabs and line terminators.
  static func isBlank(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    for index in range {
      switch bytes[index] {
      case 0x20, 0x09, newline, carriageReturn: continue
      default: return false
      }
    }
    return true
  }

  /// Whether `bytes[range]`, complete lines, holds a blank line (only spaces and tabs).
  static func containsBlankLine(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    var blank = true
    var index = range.lowerBound
    while index < range.upperBound {
      switch bytes[index] {
      case newline, carriageReturn:
        if blank { return true }
        if bytes[index] == carriageReturn, index + 1 < range.upperBound, bytes[index + 1] == newline { index += 1 }
        blank = true
      case 0x20, 0x09:
        break
      default:
        blank = false
      }
      index += 1
    }
    return false
  }

  /// Whether `needle` occurs in `bytes[range]`.
  static func contains(_ bytes: [UInt8], _ range: Range<Int>, _ needle: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { contains(UnsafeBufferPointer(rebasing: $0[range]), needle) }
  }

  /// Whether `needle` occurs in `bytes`, found by `memchr` for its first byte.
  static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, bytes.count >= needle.count else { return false }
    var index = bytes.firstOffset(of: first, from: 0, to: bytes.count)
    while index + needle.count <= bytes.count {
      if UnsafeBufferPointer(rebasing: bytes[index..<(index + needle.count)]).elementsEqual(needle) { return true }
      index = bytes.firstOffset(of: first, from: index + 1, to: bytes.count)
    }
    return false
  }
}
