import ChatEngine

/// A place in the laid-out thread: a row and a line within it.
struct ThreadPosition: Hashable, Sendable {
  var row: Int
  var line: Int
}

/// The thread's rows seen through a window of a fixed height, laid out lazily.
///
/// Guarantees: only rows between the window and the bottom (or the rows a scroll passes over)
/// are laid out; a row is laid out at most once per window. Positions are clamped, so a window
/// never starts above the first line or leaves empty space under the last one when the thread
/// is taller than the window.
/// - Complexity: O(rows on screen + rows scrolled over), not O(thread).
@MainActor
struct ThreadWindow {
  let rows: [ChatRow]
  let height: Int
  private let renderer: TurnRenderer
  private var memo: [Int: [String]] = [:]

  /// Creates a window of `height` lines over `rows`, laid out by `renderer`.
  init(rows: [ChatRow], height: Int, renderer: TurnRenderer) {
    self.rows = rows
    self.height = max(height, 1)
    self.renderer = renderer
  }

  /// The lines of row `index`.
  mutating func lines(_ index: Int) -> [String] {
    if let lines = memo[index] { return lines }
    let lines = renderer.lines(for: rows[index])
    memo[index] = lines
    return lines
  }

  /// The top of the window that shows the end of the thread.
  mutating func bottomTop() -> ThreadPosition {
    guard !rows.isEmpty else { return ThreadPosition(row: 0, line: 0) }
    return moveUp(ThreadPosition(row: rows.count - 1, line: lines(rows.count - 1).count), by: height)
  }

  /// `position` moved `count` lines up, stopping at the first line.
  mutating func moveUp(_ position: ThreadPosition, by count: Int) -> ThreadPosition {
    var row = position.row
    var line = position.line
    var remaining = count
    while remaining > 0 {
      if line >= remaining {
        line -= remaining
        remaining = 0
      } else {
        remaining -= line
        guard row > 0 else { return ThreadPosition(row: 0, line: 0) }
        row -= 1
        line = lines(row).count
      }
    }
    return ThreadPosition(row: row, line: line)
  }

  /// `position` moved `count` lines down; `nil` when that reaches the bottom window.
  mutating func moveDown(_ position: ThreadPosition, by count: Int) -> ThreadPosition? {
    var row = position.row
    var line = position.line + count
    while row < rows.count, line >= lines(row).count {
      line -= lines(row).count
      row += 1
    }
    guard row < rows.count else { return nil }
    let moved = ThreadPosition(row: row, line: line)
    return linesBelow(moved) > height ? moved : nil
  }

  /// How many lines there are from `position` to the end, counting at most `height + 1`.
  mutating func linesBelow(_ position: ThreadPosition) -> Int {
    var total = 0
    var row = position.row
    var line = position.line
    while row < rows.count, total <= height {
      total += max(lines(row).count - line, 0)
      line = 0
      row += 1
    }
    return total
  }

  /// The lines shown from `top`, exactly `height` of them (padded with empty lines).
  mutating func window(from top: ThreadPosition) -> [String] {
    var result: [String] = []
    result.reserveCapacity(height)
    var row = top.row
    var line = top.line
    while row < rows.count, result.count < height {
      let rowLines = lines(row)
      if line < rowLines.count {
        result += rowLines[line..<min(rowLines.count, line + height - result.count)]
      }
      line = 0
      row += 1
    }
    while result.count < height { result.append("") }
    return result
  }

  /// The index of the row with `id`, searching from the end (where anchors usually are).
  func index(of id: ChatRow.ID) -> Int? {
    rows.lastIndex { $0.id == id }
  }
}
