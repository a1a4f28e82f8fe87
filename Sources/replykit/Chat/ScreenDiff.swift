/// Turns successive frames into the bytes that update a terminal from one to the next.
///
/// Guarantees: only rows that changed are written; when the thread area moved up by a few rows
/// (a following view while a reply grows) it is scrolled with a scroll region instead of being
/// redrawn; every update is wrapped in synchronized-output brackets (`ESC[?2026h` … `ESC[?2026l`)
/// so the terminal shows it at once; an unchanged frame writes nothing. Each row is cleared
/// before it is written, so a row's text never needs to be padded.
struct ScreenDiff {
  /// The rows on the terminal now; empty after ``invalidate()``.
  private(set) var previous: [String] = []
  private var previousCursor: (row: Int, column: Int)?
  private var needsClear = true

  /// Forgets the terminal's content (after a resize): the next frame clears and redraws all.
  mutating func invalidate() {
    previous = []
    previousCursor = nil
    needsClear = true
  }

  /// The bytes that show `lines` (one per terminal row) with the cursor at `cursor` (hidden
  /// when `nil`). `scrollRegion` is the number of top rows that may be scrolled as a block.
  mutating func update(lines: [String], cursor: (row: Int, column: Int)?, scrollRegion: Int) -> [UInt8] {
    let sameCursor = previousCursor?.row == cursor?.row && previousCursor?.column == cursor?.column
    if !needsClear, lines == previous, sameCursor { return [] }
    var output = "\u{1B}[?2026h\u{1B}[?25l"
    if needsClear || previous.count != lines.count {
      output += "\u{1B}[0m\u{1B}[2J"
      previous = Array(repeating: "", count: lines.count)
      needsClear = false
    }
    let region = min(scrollRegion, lines.count)
    if let shift = bestShift(lines, region: region) {
      output += "\u{1B}[1;\(region)r\u{1B}[0m\u{1B}[\(shift)S\u{1B}[r"
      previous.replaceSubrange(0..<region, with: previous[shift..<region] + Array(repeating: "", count: shift))
    }
    for row in lines.indices where lines[row] != previous[row] {
      output += "\u{1B}[\(row + 1);1H\u{1B}[0m\u{1B}[2K"
      output += lines[row]
      output += "\u{1B}[0m"
    }
    previous = lines
    if let cursor {
      output += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
    }
    previousCursor = cursor
    output += "\u{1B}[?2026l"
    return Array(output.utf8)
  }

  /// The upward shift of the top `region` rows that saves the most rewritten rows, if any saves
  /// at least a quarter of the region.
  private func bestShift(_ lines: [String], region: Int) -> Int? {
    guard region > 4, previous.count >= region else { return nil }
    var unchanged = 0
    for row in 0..<region where lines[row] == previous[row] && !lines[row].isEmpty { unchanged += 1 }
    var best: (shift: Int, matches: Int)?
    for shift in 1...min(8, region - 1) {
      var matches = 0
      for row in 0..<(region - shift) where lines[row] == previous[row + shift] && !lines[row].isEmpty {
        matches += 1
      }
      if matches > (best?.matches ?? 0) { best = (shift, matches) }
    }
    guard let best, best.matches > unchanged + region / 4 else { return nil }
    return best.shift
  }
}
