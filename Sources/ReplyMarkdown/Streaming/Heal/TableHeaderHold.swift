/// ``HealRule/tableHeaderUntilDelimiterRow``: a paragraph line with an unescaped pipe may be a
/// table header; it is held, with its delimiter row, until that row is complete, so a table never
/// flashes as a paragraph of pipes, or as a heading while its delimiter row is a run of `-` (the
/// one hold that reaches back a line). Inside a block quote or a list item the same: the
/// container's markers and indentation before a row do not count.
enum TableHeaderHold {
  /// Where to cut `text` (whose open leaf is `leaf`), or `nil` when nothing waits.
  static func cut(_ text: [UInt8], leaf: OpenLeaf, protectedLength: Int) -> Int? {
    // A paragraph, or a setext heading (a heading over lines) whose underline may be a delimiter
    // row still arriving.
    let isParagraph = leaf.kind == .paragraph
    guard isParagraph || leaf.kind == .heading else { return nil }
    let lineStart = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
    guard isParagraph || leaf.start < lineStart else { return nil }
    let lastLine = text[lineStart...]
    // A header row still arriving.
    var drop = isParagraph && mayBeHeaderRow(lastLine) ? lineStart : nil
    // A delimiter row still arriving (or not begun: an empty line, or only the container's
    // markers so far) under a line of the paragraph with a pipe: that line may be its header.
    if lineStart > protectedLength && leaf.start < lineStart && isDelimiterRowCandidate(rowText(lastLine)) {
      let previous = SourceLines.lineStart(text, endingAt: lineStart, floor: protectedLength)
      if hasUnescapedPipe(text[previous..<lineStart]) { drop = previous }
    }
    guard let drop, drop >= protectedLength else { return nil }
    return drop
  }

  /// `line` without the block quote markers and indentation it opens with (a row inside a quote
  /// or a list item is read after them).
  static func rowText(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.drop { $0 == ASCII.greaterThan || ASCII.isBlank($0) }
  }

  static func hasUnescapedPipe(_ line: ArraySlice<UInt8>) -> Bool {
    ASCII.containsUnescaped(line) { $0 == ASCII.pipe }
  }

  /// Whether the last line, still arriving, is held as a possible header row: it opens with a
  /// pipe, or holds one outside code spans. A pipe inside a code span still splits a row's cells,
  /// but a line of prose whose only pipes are code (`` `ls | grep x` ``, `` `string | null` ``)
  /// is hardly ever a header, and holding it hid the line until it ended: a whole paragraph
  /// written as one line, for seconds (a review of frames on generated replies: 93% of the lines
  /// held never became a table).
  static func mayBeHeaderRow(_ line: ArraySlice<UInt8>) -> Bool {
    if rowText(line).first == ASCII.pipe { return true }
    var index = line.startIndex
    while index < line.endIndex {
      let byte = line[index]
      if byte == ASCII.backslash {
        index += 2
      } else if byte == ASCII.pipe {
        return true
      } else if byte == ASCII.backtick {
        var runEnd = index
        while runEnd < line.endIndex && line[runEnd] == ASCII.backtick { runEnd += 1 }
        // The closing run of the same length; a code span still open reads to the line's end.
        guard let close = closingRun(in: line, from: runEnd, length: runEnd - index) else { return false }
        index = close
      } else {
        index += 1
      }
    }
    return false
  }

  /// Where the first run of exactly `length` backticks from `start` in `line` ends, or nil.
  private static func closingRun(in line: ArraySlice<UInt8>, from start: Int, length: Int) -> Int? {
    var index = start
    while index < line.endIndex {
      guard line[index] == ASCII.backtick else {
        index += 1
        continue
      }
      var runEnd = index
      while runEnd < line.endIndex && line[runEnd] == ASCII.backtick { runEnd += 1 }
      if runEnd - index == length { return runEnd }
      index = runEnd
    }
    return nil
  }

  /// Whether `line` could still be (the start of) a delimiter row: only pipes, `-`, `:` and blanks.
  static func isDelimiterRowCandidate(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == ASCII.pipe || $0 == ASCII.hyphen || $0 == ASCII.colon || ASCII.isBlank($0) }
  }
}
