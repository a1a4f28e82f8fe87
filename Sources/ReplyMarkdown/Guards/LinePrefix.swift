/// The container markers at the start of one line (`>`, list markers, footnote definitions), read
/// the way cmark-gfm reads them as far as the guard needs: a marker counts only when at most three
/// columns (four after a marker) of whitespace come before it.
///
/// Only what the guard uses of the markers is kept (how many, which kinds), so reading a line
/// allocates nothing; reading stops at the first marker past the nesting limit.
struct LinePrefix {
  /// The container markers kept (at most the nesting limit).
  var count = 0
  /// The `>` markers among them.
  var quoteDepth = 0
  /// Whether they include a bullet list marker.
  var hasBullet = false
  /// Whether they include an ordered list marker whose number is 1 (only those interrupt paragraphs).
  var hasOrderedOne = false
  /// Whether they include a footnote definition's `[^label]:` (it interrupts a paragraph: a run of
  /// definitions, one per line, is a paragraph each).
  var hasFootnote = false
  /// The first marker past the nesting limit: where it starts and where a backslash makes it
  /// literal text. The line's content then starts there, and later markers are not read.
  var excess: (position: Int, escapeOffset: Int)?
  /// Where the content starts: at the whitespace after the last marker.
  var contentStart: Int
  /// The first non-whitespace byte of the content (`end` when the content is blank).
  var firstNonSpace: Int
  /// Columns of whitespace before `firstNonSpace`, counted from `contentStart`.
  var indent: Int

  private enum MarkerKind {
    case quote
    case bullet
    case ordered(startsAtOne: Bool)
    case footnote
  }

  /// Keeps a marker, or notes it as the excess one. Returns `false` when reading has to stop.
  private mutating func add(_ kind: MarkerKind, position: Int, escapeOffset: Int, limit: Int) -> Bool {
    guard count < limit else {
      excess = (position, escapeOffset)
      contentStart = position
      firstNonSpace = position
      indent = 0
      return false
    }
    count += 1
    switch kind {
    case .quote: quoteDepth += 1
    case .bullet: hasBullet = true
    case .ordered(let startsAtOne): if startsAtOne { hasOrderedOne = true }
    case .footnote: hasFootnote = true
    }
    return true
  }

  /// Reads the markers of the line `bytes[start..<end]`, up to `limit` of them and the one after.
  /// With `containerMayBeOpen` false (no list item or footnote definition from earlier lines can
  /// take the line's indentation), a line indented four columns or more has no markers at all:
  /// what looks like them is indented code or paragraph text, and nothing is limited.
  @inline(__always) init(
    _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, footnotes: Bool, limit: Int,
    containerMayBeOpen: Bool = true
  ) {
    contentStart = start
    firstNonSpace = end
    indent = 0
    // Most lines start with text: no whitespace, and no marker.
    if start < end && !Self.mayBeginPrefix(bytes[start]) {
      firstNonSpace = start
      return
    }
    readMarkers(
      bytes, start: start, end: end, footnotes: footnotes, limit: limit, indentedMayNest: containerMayBeOpen)
  }

  /// Whether a line that starts with `byte` may have whitespace or a marker at its start.
  @inline(__always) static func mayBeginPrefix(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x3E, 0x2D, 0x2A, 0x2B, 0x30...0x39, 0x5B: return true  // space tab > - * + digits [
    default: return false
    }
  }

  private mutating func readMarkers(
    _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, footnotes: Bool, limit: Int, indentedMayNest: Bool
  ) {
    // The last byte of the line that is not `-` (or `*`), space or tab (thematic breaks), computed
    // once, when a bullet marker first needs it.
    var lastOtherKnown = false
    var lastOtherThanDash = start - 1
    var lastOtherThanStar = start - 1
    var position = start
    var allowance = 3
    // A tab reaches the next multiple of four columns, counted from the line's start: the column
    // of `position` is `position - start + tabExtra`.
    var tabExtra = 0
    // The columns of the tab at `position`, which moves the columns after it on.
    func tabWidth(at position: Int) -> Int {
      let width = 4 - (position - start + tabExtra) % 4
      tabExtra += width - 1
      return width
    }
    // Columns of a tab after `>` that its optional space left over (cmark-gfm splits the tab).
    var carried = 0
    while true {
      let whitespaceStart = position
      var columns = carried
      carried = 0
      while position < end && ASCII.isBlank(bytes[position]) {
        columns += bytes[position] == ASCII.tab ? tabWidth(at: position) : 1
        position += 1
      }
      contentStart = whitespaceStart
      firstNonSpace = position
      indent = columns
      guard position < end else { return }
      guard columns <= allowance else {
        // Indentation at the line's start may belong to list items opened on earlier lines, which
        // the guard does not follow: the markers after it still nest that deep in cmark-gfm.
        if whitespaceStart == start && indentedMayNest {
          limitIndentedMarkers(bytes, from: position, end: end, footnotes: footnotes, limit: limit, indent: columns)
        }
        return
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: ">") {
        guard add(.quote, position: position, escapeOffset: position, limit: limit) else { return }
        position += 1
        if position < end && bytes[position] == ASCII.space {
          position += 1
        } else if position < end && bytes[position] == ASCII.tab {
          // One column of the tab is the optional space; the rest indents what follows.
          carried = tabWidth(at: position) - 1
          position += 1
        }
        allowance = 3
        continue
      }
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") {
        guard position + 1 == end || ASCII.isBlank(bytes[position + 1]) else { return }
        if byte != UInt8(ascii: "+") {
          if !lastOtherKnown {
            lastOtherThanDash = Self.lastIndex(notBlankOr: UInt8(ascii: "-"), in: bytes, from: start, to: end)
            lastOtherThanStar = Self.lastIndex(notBlankOr: UInt8(ascii: "*"), in: bytes, from: start, to: end)
            lastOtherKnown = true
          }
          if (byte == UInt8(ascii: "-") ? lastOtherThanDash : lastOtherThanStar) < position,
            Self.count(of: byte, in: bytes, from: position, to: end) >= 3
          {
            return  // a thematic break, not list markers
          }
        }
        guard add(.bullet, position: position, escapeOffset: position, limit: limit) else { return }
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
        guard add(.ordered(startsAtOne: isOne), position: position, escapeOffset: digitsEnd, limit: limit) else {
          return
        }
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
        guard add(.footnote, position: position, escapeOffset: position, limit: limit) else { return }
        position = close + 2
        allowance = 4
        continue
      }
      return
    }
  }

  /// Counts the markers of a line indented `indent` columns (four or more), starting at its first
  /// non-blank byte, and notes the first one that may nest past `limit` as ``excess``. The line
  /// keeps its indentation and no markers: inside list items opened on earlier lines they are
  /// container markers, elsewhere (indented code, paragraph text) they are not, and only the
  /// nesting is limited either way.
  ///
  /// The indentation itself may continue list items opened on earlier lines, at least two columns
  /// each (`- `), so up to `indent / 2` levels come before the line's own markers: without that
  /// count, lines indented ever deeper add `limit` levels each.
  private mutating func limitIndentedMarkers(
    _ bytes: UnsafeBufferPointer<UInt8>, from position: Int, end: Int, footnotes: Bool, limit: Int, indent: Int
  ) {
    let left = limit - min(limit, indent / 2)
    excess = LinePrefix(bytes, start: position, end: end, footnotes: footnotes, limit: left).excess
  }

  /// The last index in `start..<end` of a byte that is neither `byte` nor blank, or `start - 1`;
  /// looked for from the end, where it usually is.
  static func lastIndex(notBlankOr byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Int
  {
    var index = end - 1
    while index >= start && (bytes[index] == byte || ASCII.isBlank(bytes[index])) { index -= 1 }
    return index
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
