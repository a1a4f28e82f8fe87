/// Breaks text into lines no wider than a number of columns, by display width per grapheme
/// cluster.
///
/// Prose breaks at spaces (which are dropped at the break) and on either side of East Asian wide
/// clusters; a word wider than the line is split between grapheme clusters, so nothing is ever
/// truncated and no cluster (emoji ZWJ sequence, flag, skin tone, combining mark) is ever split.
/// A newline byte forces a break. Lines never start or end with spaces.
///
/// - Complexity: O(n) in the UTF-8 length.
/// - Thread safety: pure functions.
enum LineBreaker {
  /// One laid-out line: its bytes and its display width.
  struct Line: Equatable {
    var range: Range<Int>
    var width: Int
  }

  /// Breaks prose into lines of at most `width` columns (`width` must be at least 2).
  static func wrap(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> [Line] {
    var lines: [Line] = []
    wrap(bytes, width: width, appendingTo: &lines)
    return lines
  }

  /// Breaks prose as ``wrap(_:width:)`` does, appending the lines to `lines` (so that a caller
  /// wrapping many pieces reuses one buffer).
  static func wrap(_ bytes: UnsafeBufferPointer<UInt8>, width: Int, appendingTo lines: inout [Line]) {
    var breaker = Builder(bytes: bytes, width: max(width, 2), lines: lines)
    lines = []
    defer { lines = breaker.lines }
    var scanner = GraphemeScanner(bytes)
    let end = bytes.count
    var index = 0
    var wordStart = -1
    var wordEnd = 0
    var wordWidth = 0
    // Whether a break may follow the word so far (it ends with a wide cluster).
    var breakAfterWord = false
    while index < end {
      // A run of printable ASCII other than space (most of a word) goes into the word whole, a
      // column a byte, except a last byte that a following non-ASCII scalar may join.
      let first = bytes[index]
      if first > 0x20 && first < 0x7F {
        let stop = asciiRunEnd(bytes, from: index)
        if stop > index {
          // Never wide; a break comes before it only after a wide cluster.
          if wordStart >= 0 && breakAfterWord && !noBreakBefore(UInt32(first)) {
            breaker.place(wordStart, wordEnd, wordWidth)
            wordStart = -1
          }
          if wordStart < 0 {
            wordStart = index
            wordWidth = 0
          }
          wordEnd = stop
          wordWidth += stop - index
          breakAfterWord = false
          index = stop
          continue
        }
      }
      // Other lone ASCII clusters (spaces, newlines) are taken here, without the scanner.
      if GraphemeScanner.isLoneASCII(bytes, at: index, end: end) {
        let byte = bytes[index]
        index += 1
        if byte == 0x20 || byte == 0x0A {
          if wordStart >= 0 {
            breaker.place(wordStart, wordEnd, wordWidth)
            wordStart = -1
          }
          if byte == 0x0A { breaker.forceBreak(at: index) }
          continue
        }
        // Never wide; a break comes before it only after a wide cluster.
        if wordStart >= 0 && breakAfterWord && !noBreakBefore(UInt32(byte)) {
          breaker.place(wordStart, wordEnd, wordWidth)
          wordStart = -1
        }
        if wordStart < 0 {
          wordStart = index - 1
          wordWidth = 0
        }
        wordEnd = index
        wordWidth += DisplayWidth.scalarWidth(UInt32(byte))
        breakAfterWord = false
        continue
      }
      scanner.skipLoneASCII(to: index)
      guard let cluster = scanner.next() else { break }
      index = cluster.end
      let byte = bytes[cluster.start]
      // A space that a mark or selector joins (` ` + U+FE0F is two columns) is no break.
      if (byte == 0x20 && cluster.end == cluster.start + 1) || byte == 0x0A {
        if wordStart >= 0 {
          breaker.place(wordStart, wordEnd, wordWidth)
          wordStart = -1
        }
        if byte == 0x0A { breaker.forceBreak(at: cluster.end) }
        continue
      }
      let wide = cluster.width == 2
      if wordStart >= 0 && (wide || breakAfterWord) && !noBreakBefore(cluster.first) {
        breaker.place(wordStart, wordEnd, wordWidth)
        wordStart = -1
      }
      if wordStart < 0 {
        wordStart = cluster.start
        wordWidth = 0
      }
      wordEnd = cluster.end
      wordWidth += cluster.width
      breakAfterWord = wide && !noBreakAfter(cluster.first)
    }
    if wordStart >= 0 { breaker.place(wordStart, wordEnd, wordWidth) }
    breaker.finishLine()
  }

  /// Whether a line may not start with this scalar: closing punctuation, CJK small kana and
  /// iteration marks (kinsoku), so `、` never starts a line.
  static func noBreakBefore(_ scalar: UInt32) -> Bool {
    if scalar > 0x7D && scalar < 0x3001 { return false }
    switch scalar {
    case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: return true
    case 0x3001, 0x3002, 0x3005, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301C,
      0x30FB, 0x30FC, 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF5E:
      return true
    case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x30A1, 0x30A3, 0x30A5,
      0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6:
      return true
    default: return false
    }
  }

  /// Whether a line may not end with this scalar: CJK opening brackets.
  static func noBreakAfter(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0xFF08, 0xFF3B, 0xFF5B: return true
    default: return false
    }
  }

  /// Splits one line of code into pieces of at most `width` columns, between grapheme clusters,
  /// keeping every byte (spaces included).
  static func chop(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> [Line] {
    let width = max(width, 2)
    var lines: [Line] = []
    if ByteWords.isASCII(bytes) {
      // ASCII (controls are already replaced): one column per byte.
      var start = 0
      repeat {
        let end = min(start + width, bytes.count)
        lines.append(Line(range: start..<end, width: end - start))
        start = end
      } while start < bytes.count
      return lines
    }
    var scanner = GraphemeScanner(bytes)
    var start = 0
    var current = 0
    while let cluster = scanner.next() {
      if current + cluster.width > width && cluster.start > start {
        lines.append(Line(range: start..<cluster.start, width: current))
        start = cluster.start
        current = 0
      }
      current += cluster.width
    }
    lines.append(Line(range: start..<bytes.count, width: current))
    return lines
  }

  /// The widest line when only newlines break (the natural width), and the widest word.
  /// The end of the run of printable ASCII other than space that starts at `index` (`index`
  /// itself when there is none): a column a byte, never wide. A last byte that a following
  /// non-ASCII scalar may join to its cluster is left out.
  @inline(__always) static func asciiRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
    let end = bytes.count
    guard index < end, bytes[index] > 0x20, bytes[index] < 0x7F else { return index }
    var stop = index + 1
    while stop < end, bytes[stop] > 0x20, bytes[stop] < 0x7F { stop += 1 }
    if stop < end && bytes[stop] >= 0x80 { stop -= 1 }
    return stop
  }

  static func measure(_ bytes: UnsafeBufferPointer<UInt8>) -> (natural: Int, longestWord: Int) {
    var scanner = GraphemeScanner(bytes)
    var natural = 0
    var line = 0
    var word = 0
    var longest = 0
    let end = bytes.count
    var index = 0
    while index < end {
      // A run of printable ASCII other than space, as in ``wrap(_:width:appendingTo:)``.
      let first = bytes[index]
      if first > 0x20 && first < 0x7F {
        let stop = asciiRunEnd(bytes, from: index)
        if stop > index {
          line += stop - index
          word += stop - index
          longest = max(longest, word)
          index = stop
          continue
        }
      }
      scanner.skipLoneASCII(to: index)
      guard let cluster = scanner.next() else { break }
      index = cluster.end
      let byte = bytes[cluster.start]
      if byte == 0x0A {
        natural = max(natural, line)
        line = 0
        word = 0
        continue
      }
      line += cluster.width
      if byte == 0x20 || cluster.width == 2 {
        word = cluster.width == 2 ? 2 : 0
      } else {
        word += cluster.width
      }
      longest = max(longest, word)
    }
    return (max(natural, line), longest)
  }

  /// The greedy line filler behind ``wrap(_:width:)``.
  private struct Builder {
    let bytes: UnsafeBufferPointer<UInt8>
    let width: Int
    /// The lines so far, after those the buffer held already.
    var lines: [Line]
    var lineStart = -1
    var lineEnd = 0
    var lineWidth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, width: Int, lines: [Line]) {
      self.bytes = bytes
      self.width = width
      self.lines = lines
    }

    /// Places a word (or a wide cluster) whose bytes are `start..<end`.
    mutating func place(_ start: Int, _ end: Int, _ wordWidth: Int) {
      if lineStart >= 0 {
        let gap = spaces(lineEnd, start)
        if lineWidth + gap + wordWidth <= width {
          lineEnd = end
          lineWidth += gap + wordWidth
          return
        }
        finishLine()
      }
      if wordWidth <= width {
        lineStart = start
        lineEnd = end
        lineWidth = wordWidth
        return
      }
      // Wider than a whole line: split between clusters.
      var scanner = GraphemeScanner(bytes, from: start, to: end)
      lineStart = start
      lineEnd = start
      lineWidth = 0
      while let cluster = scanner.next() {
        if lineWidth + cluster.width > width && lineEnd > lineStart {
          finishLine()
          lineStart = cluster.start
        }
        lineEnd = cluster.end
        lineWidth += cluster.width
      }
    }

    /// The width of the spaces between two words (both bytes ranges hold only spaces between).
    private func spaces(_ from: Int, _ to: Int) -> Int {
      var count = 0
      for index in from..<to where bytes[index] == 0x20 { count += 1 }
      return count
    }

    mutating func forceBreak(at position: Int) {
      if lineStart < 0 {
        lines.append(Line(range: position..<position, width: 0))
      } else {
        finishLine()
      }
    }

    mutating func finishLine() {
      guard lineStart >= 0 else { return }
      lines.append(Line(range: lineStart..<lineEnd, width: lineWidth))
      lineStart = -1
      lineWidth = 0
    }
  }
}
