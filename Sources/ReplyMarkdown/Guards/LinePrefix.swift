/// The container markers at the start of one line (`>`, list markers, footnote definitions), read
/// the way cmark-gfm reads them as far as the guard needs: a marker counts only when at most three
/// columns (four after a marker) of whitespace come before it.
struct LinePrefix {
  enum MarkerKind {
    case quote
    case bullet
    /// An ordered list marker; `startsAtOne` when its number is 1 (only those interrupt paragraphs).
    case ordered(startsAtOne: Bool)
    case footnote
  }

  struct Marker {
    let kind: MarkerKind
    /// Where the marker starts.
    let position: Int
    /// Where a backslash makes it literal text.
    let escapeOffset: Int
  }

  var markers: [Marker] = []
  /// Where the content starts: at the whitespace after the last marker.
  var contentStart: Int
  /// The first non-whitespace byte of the content (`end` when the content is blank).
  var firstNonSpace: Int
  /// Columns of whitespace before `firstNonSpace`, counted from `contentStart`.
  var indent: Int

  var quoteDepth: Int { markers.reduce(0) { if case .quote = $1.kind { return $0 + 1 } else { return $0 } } }

  /// Reads the markers of the line `bytes[start..<end]`.
  init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, footnotes: Bool) {
    contentStart = start
    firstNonSpace = end
    indent = 0
    // The last byte of the line that is not `c`, space or tab, for c in "-*_" (thematic breaks),
    // computed once, when a bullet marker first needs it.
    var lastOther: [Int] = []
    let breakCharacters: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_")]
    var position = start
    var allowance = 3
    while true {
      let whitespaceStart = position
      var columns = 0
      while position < end && ASCII.isBlank(bytes[position]) {
        columns += bytes[position] == ASCII.tab ? 4 - columns % 4 : 1
        position += 1
      }
      contentStart = whitespaceStart
      firstNonSpace = position
      indent = columns
      guard position < end, columns <= allowance else { return }
      let byte = bytes[position]
      if byte == UInt8(ascii: ">") {
        markers.append(Marker(kind: .quote, position: position, escapeOffset: position))
        position += 1
        if position < end && bytes[position] == ASCII.space { position += 1 }
        allowance = 3
        continue
      }
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") {
        guard position + 1 == end || ASCII.isBlank(bytes[position + 1]) else { return }
        if lastOther.isEmpty { lastOther = Self.lastOther(breakCharacters, in: bytes, from: start, to: end) }
        if let slot = breakCharacters.firstIndex(of: byte), lastOther[slot] < position,
          Self.count(of: byte, in: bytes, from: position, to: end) >= 3
        {
          return  // a thematic break, not list markers
        }
        markers.append(Marker(kind: .bullet, position: position, escapeOffset: position))
        position += 1
        allowance = 4
        continue
      }
      if ASCII.isDigit(byte) {
        var digitsEnd = position
        while digitsEnd < end && ASCII.isDigit(bytes[digitsEnd]) && digitsEnd - position < 10 { digitsEnd += 1 }
        guard digitsEnd - position <= 9, digitsEnd < end,
          bytes[digitsEnd] == UInt8(ascii: ".") || bytes[digitsEnd] == UInt8(ascii: ")"),
          digitsEnd + 1 == end || ASCII.isBlank(bytes[digitsEnd + 1])
        else { return }
        let isOne =
          bytes[digitsEnd - 1] == UInt8(ascii: "1")
          && bytes[position..<(digitsEnd - 1)].allSatisfy { $0 == UInt8(ascii: "0") }
        markers.append(Marker(kind: .ordered(startsAtOne: isOne), position: position, escapeOffset: digitsEnd))
        position = digitsEnd + 1
        allowance = 4
        continue
      }
      if footnotes && byte == UInt8(ascii: "[") && position + 1 < end && bytes[position + 1] == UInt8(ascii: "^") {
        var close = position + 2
        while close < end && bytes[close] != UInt8(ascii: "]") && !ASCII.isSpace(bytes[close])
          && close - position < 1000
        {
          close += 1
        }
        guard close < end, bytes[close] == UInt8(ascii: "]"), close > position + 2, close + 1 < end,
          bytes[close + 1] == UInt8(ascii: ":")
        else { return }
        markers.append(Marker(kind: .footnote, position: position, escapeOffset: position))
        position = close + 2
        allowance = 4
        continue
      }
      return
    }
  }

  static func lastOther(_ characters: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> [Int]
  {
    var last = [Int](repeating: start - 1, count: characters.count)
    for index in start..<end where !ASCII.isBlank(bytes[index]) {
      for (slot, character) in characters.enumerated() where bytes[index] != character { last[slot] = index }
    }
    return last
  }

  static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
    var count = 0
    for index in start..<end where bytes[index] == byte {
      count += 1
      if count >= 3 { return count }
    }
    return count
  }
}
