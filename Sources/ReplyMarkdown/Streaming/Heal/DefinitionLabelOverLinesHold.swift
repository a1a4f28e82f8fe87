/// ``HealRule/definitionLabelOverLines``: a link definition whose label spans lines (`[Foo`,
/// `bar]: /url "title"`) shows nothing while its last line arrives, as one whose label fits on
/// a line does (``HealRule/definitionLabel``). Once the incomplete last line closes a label that
/// an earlier line of the paragraph opened, with `]:` or a `]` still alone at the end, the lines
/// from the label's `[` are held; without this, the definition showed as a paragraph (`foo bar:
/// /url "t`) while its title arrived, between frames that show nothing.
///
/// The label must open a paragraph's line that may start a definition: the first of the open
/// part, or one after a blank line or after a one-line definition. A label still open (`[Foo`,
/// `bar`) is not held: it may as well be a link's text over lines, which shows as a pending link.
enum DefinitionLabelOverLinesHold {
  /// The longest label cmark-gfm reads, in bytes, and its `[`.
  static let maximumLabelBytes = ReferenceLabels.maximumLength + 1

  /// Where to cut `text`, whose incomplete last line starts at `lineStart`, or `nil` when that line
  /// closes no label opened on an earlier line.
  ///
  /// - Complexity: O(n) in the label's lines and the line before them, at most about 1 KB.
  static func cut(_ text: [UInt8], lineStart: Int, protectedLength: Int) -> Int? {
    guard lineStart > protectedLength, lineStart < text.count else { return nil }
    // The last line up to its first bracket: a `]` followed by `:` or by nothing yet.
    var index = lineStart
    while index < text.count, text[index] != ASCII.openBracket, text[index] != ASCII.closeBracket {
      if text[index] == ASCII.backslash { index += 1 }
      index += 1
    }
    guard index < text.count, text[index] == ASCII.closeBracket,
      index + 1 == text.count || text[index + 1] == ASCII.colon
    else { return nil }
    return labelStart(text, closingOnLineAt: lineStart, floor: protectedLength)
  }

  /// The start of the earlier line whose `[` opens the label that the line starting at `lineStart`
  /// closes (that line's bytes before its first `]` hold no bracket), when that line may start a
  /// definition; `nil` otherwise.
  ///
  /// - Complexity: O(n) in the lines between, read once, within ``maximumLabelBytes``.
  static func labelStart(_ text: [UInt8], closingOnLineAt lineStart: Int, floor: Int) -> Int? {
    var line = lineStart
    var labelBytes = 0
    // A line of the label with a quote or list marker, where the label's first line has none,
    // starts a block of its own (`[Foo`, `- bar]: /u` is a paragraph and a list item).
    var markedLine = LineHold(text[lineStart...]).hasContainerMarker
    while true {
      let previous = SourceLines.lineStart(text, endingAt: line, floor: floor)
      guard previous < line else { return nil }
      labelBytes += line - previous
      guard labelBytes <= maximumLabelBytes else { return nil }
      let read = LineHold(text[previous..<line])
      let content = read.content
      // A blank line ends the paragraph: no label reaches over it.
      guard content.contains(where: { !ASCII.isBlank($0) && !InlineHealScanner.isLineEnd($0) }) else { return nil }
      let opens = content.first == ASCII.openBracket
      guard !containsBracket(content.dropFirst(opens ? 1 : 0)) else { return nil }
      if opens {
        guard read.hasContainerMarker || !markedLine else { return nil }
        return mayStartDefinition(text, lineAt: previous, floor: floor) ? previous : nil
      }
      markedLine = markedLine || read.hasContainerMarker
      line = previous
    }
  }

  /// Whether the line starting at `start` may start a link definition: it is the first of the
  /// text after `floor`, or comes after a blank line or a one-line definition.
  static func mayStartDefinition(_ text: [UInt8], lineAt start: Int, floor: Int) -> Bool {
    let previous = SourceLines.lineStart(text, endingAt: start, floor: floor)
    guard previous < start else { return true }
    let content = LineHold(text[previous..<start]).content
    return !content.contains { !ASCII.isBlank($0) && !InlineHealScanner.isLineEnd($0) }
      || ReferenceLabels.definitionLabelEnd(in: content) != nil
  }

  /// Whether `bytes` hold an unescaped `[` or `]`.
  static func containsBracket(_ bytes: ArraySlice<UInt8>) -> Bool {
    ASCII.containsUnescaped(bytes) { $0 == ASCII.openBracket || $0 == ASCII.closeBracket }
  }
}
