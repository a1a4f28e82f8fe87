import Foundation

/// The multi-line message being typed: text with a cursor, and its layout at a width.
///
/// Guarantees: the cursor is always a valid position in ``text``; ``layout(width:maxLines:)``
/// returns lines no wider than the width, with controls shown as symbols, and the screen place of
/// the cursor (kept visible when the text has more lines than fit).
struct Composer {
  /// The text typed so far, by grapheme cluster.
  private(set) var characters: [Character] = []
  /// The cursor, as an index into ``characters`` (0...count).
  private(set) var cursor = 0

  /// The text typed so far.
  var text: String { String(characters) }
  /// Whether nothing is typed.
  var isEmpty: Bool { characters.isEmpty }

  /// Inserts `text` at the cursor (a `\r\n` or `\r` in pasted text counts as a new line).
  mutating func insert(_ text: String) {
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    let new = Array(normalized)
    characters.insert(contentsOf: new, at: cursor)
    cursor += new.count
  }

  /// Deletes the character before the cursor.
  mutating func backspace() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  /// Deletes the character at the cursor.
  mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Moves the cursor by `offset` characters, within the text.
  mutating func move(by offset: Int) {
    cursor = min(max(cursor + offset, 0), characters.count)
  }

  /// Moves the cursor to the start (`toEnd == false`) or end of its line.
  mutating func moveToLineEdge(toEnd: Bool) {
    if toEnd {
      while cursor < characters.count, characters[cursor] != "\n" { cursor += 1 }
    } else {
      while cursor > 0, characters[cursor - 1] != "\n" { cursor -= 1 }
    }
  }

  /// Empties the composer and returns what it held.
  mutating func take() -> String {
    let result = text
    characters = []
    cursor = 0
    return result
  }

  /// The composer drawn at `width` columns (prompt included) in at most `maxLines` lines.
  struct Layout {
    var lines: [String]
    /// The cursor's row among `lines` and its column.
    var cursorRow: Int
    var cursorColumn: Int
    /// How many lines of the text are above and below the ones shown.
    var hiddenAbove = 0
    var hiddenBelow = 0
    /// How many lines the whole text takes.
    var totalLines = 1
  }

  /// The text cut into screen lines of at most `width` columns: ranges of ``characters``
  /// (without the line break). A line breaks after the last space that fits, inside a word only
  /// when the word alone is wider than the line.
  /// - Complexity: O(n) in the characters.
  func visualLines(width: Int) -> [Range<Int>] {
    let width = max(width, 1)
    var result: [Range<Int>] = []
    var start = 0
    var lineWidth = 0
    var lastBreak: Int?
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character == "\n" {
        result.append(start..<index)
        start = index + 1
        lineWidth = 0
        lastBreak = nil
        index += 1
        continue
      }
      let characterWidth = Self.drawnWidth(character)
      if lineWidth + characterWidth > width, index > start {
        let end = lastBreak ?? index
        result.append(start..<end)
        start = end
        lastBreak = nil
        lineWidth = characters[start..<index].reduce(0) { $0 + Self.drawnWidth($1) }
        continue
      }
      lineWidth += characterWidth
      if character == " " { lastBreak = index + 1 }
      index += 1
    }
    result.append(start..<characters.count)
    return result
  }

  /// The columns `character` takes as drawn (controls as symbols): printable ASCII without making
  /// a string of it, since a paste of megabytes is laid out again at every key.
  @inline(__always) private static func drawnWidth(_ character: Character) -> Int {
    if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
    return VisibleText.width(VisibleText.sanitize(String(character)))
  }

  /// The screen line and column of the cursor among `lines`.
  private func cursorPlace(in lines: [Range<Int>]) -> (row: Int, column: Int) {
    for (row, range) in lines.enumerated() {
      let isLast = row == lines.count - 1 || lines[row + 1].lowerBound > range.upperBound
      if range.contains(cursor) || (cursor == range.upperBound && isLast) {
        let column = characters[range.lowerBound..<cursor].reduce(0) { $0 + Self.drawnWidth($1) }
        return (row, column)
      }
    }
    return (lines.count - 1, 0)
  }

  /// Moves the cursor one screen line up (`by: -1`) or down (`by: 1`) at the same column, as
  /// laid out at `width` columns (prompt included); `false`, changing nothing, on the first or
  /// last line.
  mutating func moveVertically(by direction: Int, width: Int) -> Bool {
    let lines = visualLines(width: max(width - 2, 1))
    let place = cursorPlace(in: lines)
    let target = place.row + direction
    guard lines.indices.contains(target) else { return false }
    let range = lines[target]
    var column = 0
    var index = range.lowerBound
    while index < range.upperBound {
      let characterWidth = Self.drawnWidth(characters[index])
      if column + characterWidth > place.column { break }
      column += characterWidth
      index += 1
    }
    cursor = index
    return true
  }

  /// Replaces the whole text, with the cursor at its end.
  mutating func replace(with text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// Lays the text out with a `› ` prompt, word-wrapped at `width - 2` columns, showing the
  /// `maxLines` lines around the cursor.
  func layout(width: Int, maxLines: Int) -> Layout {
    let prompt = "› "
    let ranges = visualLines(width: max(width - 2, 1))
    var place = cursorPlace(in: ranges)
    // A cursor past a full line shows at the start of an empty line after it.
    var blankRow: Int?
    if place.column >= max(width - 2, 1) {
      blankRow = place.row + 1
      place = (place.row + 1, 0)
    }
    let total = ranges.count + (blankRow == nil ? 0 : 1)
    let visible = max(maxLines, 1)
    let first = max(0, min(place.row - visible + 1, total - visible))
    let last = min(total, first + visible)
    // Only the lines shown are made into strings.
    let shown = (first..<last).map { row -> String in
      let line: String
      if let blankRow, row >= blankRow {
        line = row == blankRow ? "" : Self.drawn(characters[ranges[row - 1]])
      } else {
        line = Self.drawn(characters[ranges[row]])
      }
      return (row == 0 ? prompt : "  ") + line
    }
    return Layout(
      lines: shown, cursorRow: place.row - first, cursorColumn: place.column + 2, hiddenAbove: first,
      hiddenBelow: total - last, totalLines: total)
  }

  /// `characters` as drawn: controls as symbols.
  private static func drawn(_ characters: ArraySlice<Character>) -> String {
    characters.map { VisibleText.sanitize(String($0)) }.joined()
  }
}
