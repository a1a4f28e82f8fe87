/// The complete lines at the start of the open part when each is certainly one whole link
/// reference definition (`[label]: destination`, optionally a `"title"`), as models end a reply
/// with its sources.
///
/// Such lines stay open below ``MarkdownStream/definitionRunLimit`` (a delimiter row after them
/// could still make them a table's header and text), and until they close a parse of them finds
/// no block and a heal of them shows nothing. Knowing that without cmark-gfm, the stream skips
/// both: the open part of a list of sources then costs its new lines, not the whole list again on
/// every update.
///
/// A line is sure only in a narrow form cmark-gfm reads one way: at the margin, ASCII only, no
/// carriage return, a label of plain characters (no `[`, `]`, `\`, not starting with `^`), a
/// destination of URL characters (no `<`, `(`, `)`, `\`, brackets or blanks), then nothing or
/// blanks and a `"title"` on the same line (no `"` or `\` inside). The next line starts with `[`,
/// so no title continues a sure line. Anything else is left to the parse.
struct SureDefinitionLines: Sendable {
  /// The open part's start these lines were read from (-1: none read).
  private var start = -1
  /// Where the sure lines read so far end (a line start).
  private var end = 0
  /// Where the last sure line starts.
  private(set) var lastLineStart = 0
  /// Whether a complete line after `end` is not sure: nothing further is read until the open
  /// part moves.
  private var broken = false

  /// Whether every complete line of `source` from `openStart` to `completeEnd` is sure (true when
  /// there is none). Reads each line once while the open part stays at `openStart`.
  ///
  /// - Complexity: O(n) in the lines not read before.
  mutating func cover(_ source: [UInt8], from openStart: Int, to completeEnd: Int) -> Bool {
    if start != openStart {
      start = openStart
      end = openStart
      lastLineStart = openStart
      broken = false
    }
    guard !broken else { return false }
    while end < completeEnd {
      guard let lineEnd = source[end..<completeEnd].firstIndex(of: ASCII.newline),
        Self.isSure(source[end..<lineEnd])
      else {
        broken = true
        return false
      }
      lastLineStart = end
      end = lineEnd + 1
    }
    return true
  }

  /// Whether `line`, the incomplete last line after sure lines, is hidden whole from the display
  /// while it grows: it starts a label (``LineHold``'s definition rule), with no carriage return,
  /// and is at most ``partialLimit`` long (a longer one is left to the display schedule: read on
  /// every update, a line of 200 KB starting with `[` streamed in quadratic time; a review).
  static func isHiddenPartial(_ line: ArraySlice<UInt8>) -> Bool {
    guard let first = line.first else { return true }
    guard line.count <= partialLimit else { return false }
    return first == ASCII.openBracket && !line.contains(ASCII.carriageReturn) && LineHold(line).holds(.definitionLabel)
  }

  /// The longest incomplete last line ``isHiddenPartial(_:)`` reads (512 bytes: a source's line
  /// with a long URL and title).
  static let partialLimit = 512

  /// Whether `line` (without its line feed) is certainly one whole link reference definition.
  static func isSure(_ line: ArraySlice<UInt8>) -> Bool {
    var index = line.startIndex
    guard index < line.endIndex, line[index] == ASCII.openBracket else { return false }
    index += 1
    // The label: plain characters, not a footnote's, not only blanks.
    let labelStart = index
    var labelHasText = false
    while index < line.endIndex && line[index] != ASCII.closeBracket {
      let byte = line[index]
      guard isLabelByte(byte) else { return false }
      if byte != ASCII.space { labelHasText = true }
      index += 1
    }
    guard index < line.endIndex, labelHasText, index - labelStart <= 200, line[labelStart] != ASCII.caret else {
      return false
    }
    index += 1
    guard index < line.endIndex, line[index] == ASCII.colon else { return false }
    index += 1
    while index < line.endIndex && ASCII.isBlank(line[index]) { index += 1 }
    // The destination: URL characters, at least one.
    let destinationStart = index
    while index < line.endIndex && isDestinationByte(line[index]) { index += 1 }
    guard index > destinationStart else { return false }
    // Then the end, or blanks and maybe a title.
    let blanksStart = index
    while index < line.endIndex && ASCII.isBlank(line[index]) { index += 1 }
    guard index < line.endIndex else { return true }
    guard index > blanksStart, line[index] == ASCII.quote else { return false }
    index += 1
    while index < line.endIndex && line[index] != ASCII.quote {
      guard isTitleByte(line[index]) else { return false }
      index += 1
    }
    guard index < line.endIndex else { return false }
    index += 1
    while index < line.endIndex && ASCII.isBlank(line[index]) { index += 1 }
    return index == line.endIndex
  }

  /// Printable ASCII but a nested label's `[`, an escape, and what may start HTML, code or a table cell.
  private static func isLabelByte(_ byte: UInt8) -> Bool {
    guard byte >= 0x20 && byte < 0x7F else { return false }
    switch byte {
    case ASCII.openBracket, ASCII.backslash, ASCII.lessThan, ASCII.greaterThan, ASCII.pipe, ASCII.backtick: return false
    default: return true
    }
  }

  /// Letters, digits and the URL punctuation that cmark-gfm reads in a bare destination as it is.
  private static func isDestinationByte(_ byte: UInt8) -> Bool {
    if ASCII.isAlphanumeric(byte) { return true }
    switch byte {
    case ASCII.hyphen, ASCII.period, ASCII.underscore, ASCII.tilde, ASCII.colon, ASCII.slash, ASCII.question,
      ASCII.hash, UInt8(ascii: "@"), ASCII.exclamation, UInt8(ascii: "$"), ASCII.ampersand, ASCII.plus,
      UInt8(ascii: ","), UInt8(ascii: ";"), ASCII.equals, UInt8(ascii: "%"):
      return true
    default:
      return false
    }
  }

  /// Printable ASCII and tabs, but a quote (the title's end) or a backslash (an escape).
  private static func isTitleByte(_ byte: UInt8) -> Bool {
    (byte == ASCII.tab || (byte >= 0x20 && byte < 0x7F)) && byte != ASCII.quote && byte != ASCII.backslash
  }
}
