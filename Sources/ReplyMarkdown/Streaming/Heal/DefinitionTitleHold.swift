/// ``HealRule/definitionTitleAfterDefinition``: a last line that starts with `"`, `'` or `(` right
/// under a link definition with no title may be that definition's title, which shows nothing; it
/// is held until it ends, so the title never flashes as a paragraph (and is never grown as plain
/// words by ``PlainTextExtension``, whose closing quote would turn it into a title). The
/// definition's label may span lines (``DefinitionLabelOverLinesHold``).
enum DefinitionTitleHold {
  /// Where to cut `text`, whose incomplete last line starts at `lineStart`, or `nil` when the line
  /// cannot be a title still arriving.
  ///
  /// - Complexity: O(n) in the last two lines.
  static func cut(_ text: [UInt8], lineStart: Int, protectedLength: Int) -> Int? {
    guard lineStart > protectedLength, lineStart < text.count else { return nil }
    let content = LineHold(text[lineStart...]).content
    guard let first = content.first,
      first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == ASCII.openParenthesis
    else { return nil }
    let previous = SourceLines.lineStart(text, endingAt: lineStart, floor: protectedLength)
    guard previous < lineStart else { return nil }
    if endsUntitledDefinition(LineHold(text[previous..<lineStart]).content) { return lineStart }
    // A definition whose label spans lines, closed on the line before (`[Foo`, `bar]: /url`).
    guard
      let labelLine = DefinitionLabelOverLinesHold.labelStart(text, closingOnLineAt: previous, floor: protectedLength),
      endsUntitledDefinition(LineHold(text[labelLine..<lineStart]).content, spansLines: true)
    else { return nil }
    return lineStart
  }

  /// Whether `line` (its content after container markers) is `[label]: destination` and nothing
  /// more: a definition whose title may come on the next line. With `spansLines`, `line` is the
  /// lines of a label over lines and the line that closes it.
  static func endsUntitledDefinition(_ line: ArraySlice<UInt8>, spansLines: Bool = false) -> Bool {
    guard let afterColon = ReferenceLabels.definitionLabelEnd(in: line, spansLines: spansLines) else { return false }
    // The destination: one run of non-blank bytes (or `<…>`), then only blanks and the line end.
    let rest = line[afterColon...].drop(while: ASCII.isBlank)
    let destination = rest.prefix { !ASCII.isBlank($0) && $0 != ASCII.newline && $0 != ASCII.carriageReturn }
    guard !destination.isEmpty else { return false }
    return rest.dropFirst(destination.count).allSatisfy {
      ASCII.isBlank($0) || $0 == ASCII.newline || $0 == ASCII.carriageReturn
    }
  }
}
