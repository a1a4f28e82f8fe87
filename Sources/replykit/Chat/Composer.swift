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
  }

  /// Lays the text out with a `› ` prompt, wrapping by characters at `width - 2` columns.
  func layout(width: Int, maxLines: Int) -> Layout {
    let prompt = "› "
    let textWidth = max(width - 2, 1)
    var lines: [String] = [""]
    var lineWidth = 0
    var cursorRow = 0
    var cursorColumn = 0
    for (index, character) in characters.enumerated() {
      if index == cursor {
        cursorRow = lines.count - 1
        cursorColumn = lineWidth
      }
      if character == "\n" {
        lines.append("")
        lineWidth = 0
        continue
      }
      let shown = VisibleText.sanitize(String(character))
      let shownWidth = VisibleText.width(shown)
      if lineWidth + shownWidth > textWidth {
        lines.append("")
        lineWidth = 0
        if index == cursor {
          cursorRow = lines.count - 1
          cursorColumn = 0
        }
      }
      lines[lines.count - 1] += shown
      lineWidth += shownWidth
    }
    if cursor == characters.count {
      if lineWidth >= textWidth {
        lines.append("")
        lineWidth = 0
      }
      cursorRow = lines.count - 1
      cursorColumn = lineWidth
    }
    let visible = max(maxLines, 1)
    let first = max(0, min(cursorRow - visible + 1, lines.count - visible))
    let shown = lines[first..<min(lines.count, first + visible)].enumerated().map { offset, line in
      (first + offset == 0 ? prompt : "  ") + line
    }
    return Layout(lines: shown, cursorRow: cursorRow - first, cursorColumn: cursorColumn + 2)
  }
}
