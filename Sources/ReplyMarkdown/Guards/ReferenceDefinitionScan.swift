/// Finds the longest reference definition (`[label]: destination "title"`) of a document: what a
/// single reference link may copy into the output. Definitions whose destination or title goes on
/// past their first line are charged up to the next blank line.
///
/// - Complexity: O(n).
struct ReferenceDefinitionScan {
  let bytes: [UInt8]
  let footnotes: Bool

  func longestDefinition() -> Int {
    var longest = 0
    var start = 0
    let count = bytes.count
    // The end of the paragraph that the last multi-line definition ran to, reused by later ones.
    var knownParagraphEnd = -1
    while start < count {
      var end = start
      while end < count && bytes[end] != ASCII.newline && bytes[end] != ASCII.carriageReturn { end += 1 }
      if let singleLine = definitionIsSingleLine(start: start, end: end) {
        if singleLine {
          longest = max(longest, end - start)
        } else {
          if knownParagraphEnd < end { knownParagraphEnd = paragraphEnd(after: end) }
          longest = max(longest, knownParagraphEnd - start)
        }
      }
      start = Self.nextLine(after: end, in: bytes)
    }
    return longest
  }

  /// `nil` when the line does not start a definition; else whether the definition fits on it.
  func definitionIsSingleLine(start: Int, end: Int) -> Bool? {
    var position = start
    while position < end && (ASCII.isBlank(bytes[position]) || bytes[position] == UInt8(ascii: ">")) { position += 1 }
    guard position < end, bytes[position] == UInt8(ascii: "[") else { return nil }
    if footnotes && position + 1 < end && bytes[position + 1] == UInt8(ascii: "^") { return nil }
    var close = position + 1
    while close < end && bytes[close] != UInt8(ascii: "]") {
      close += bytes[close] == ASCII.backslash ? 2 : 1
    }
    guard close + 1 < end, bytes[close + 1] == UInt8(ascii: ":") else {
      return close >= end ? false : nil  // a label may go on over lines
    }
    var rest = close + 2
    while rest < end && ASCII.isBlank(bytes[rest]) { rest += 1 }
    if rest == end { return false }
    // Destination.
    if bytes[rest] == UInt8(ascii: "<") {
      while rest < end && bytes[rest] != UInt8(ascii: ">") { rest += 1 }
      rest += 1
    } else {
      while rest < end && !ASCII.isBlank(bytes[rest]) { rest += 1 }
    }
    while rest < end && ASCII.isBlank(bytes[rest]) { rest += 1 }
    guard rest < end else { return false }  // a title may follow on the next line
    let opener = bytes[rest]
    let closer: UInt8
    switch opener {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): closer = opener
    case UInt8(ascii: "("): closer = UInt8(ascii: ")")
    default: return true
    }
    var index = rest + 1
    while index < end {
      if bytes[index] == ASCII.backslash {
        index += 2
        continue
      }
      if bytes[index] == closer { return true }
      index += 1
    }
    return false
  }

  /// The start of the line after the line ending at `end` (`\r\n` is one line ending).
  static func nextLine(after end: Int, in bytes: [UInt8]) -> Int {
    if end + 1 < bytes.count && bytes[end] == ASCII.carriageReturn && bytes[end + 1] == ASCII.newline { return end + 2 }
    return end + 1
  }

  /// The offset of the first blank line after `offset` (or the end of the input).
  func paragraphEnd(after offset: Int) -> Int {
    var start = offset + 1
    let count = bytes.count
    while start < count {
      var end = start
      var blank = true
      while end < count && bytes[end] != ASCII.newline && bytes[end] != ASCII.carriageReturn {
        if !ASCII.isSpace(bytes[end]) && bytes[end] != UInt8(ascii: ">") { blank = false }
        end += 1
      }
      if blank { return start }
      start = Self.nextLine(after: end, in: bytes)
    }
    return count
  }
}
