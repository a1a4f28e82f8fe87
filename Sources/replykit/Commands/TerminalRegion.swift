import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The live region at the bottom of a terminal: committed lines are written once above it; the
/// tail is redrawn in place (cursor up, changed rows rewritten, synchronized output), never
/// clearing the screen. Rows that scrolled out of view are never rewritten: the live region is
/// kept below the screen's height, and tail lines above it are written once, as they are then.
///
/// Cursor movement counts screen rows, not lines: a line wider than the terminal (`--width`
/// larger than its columns) wraps onto several rows.
///
/// - Complexity: each update costs its newly committed lines plus the tail, never the lines
///   written before.
struct TerminalRegion {
  /// Lines of the display already written for good (committed, or frozen above the live region).
  private var frozen = 0
  /// Committed lines so far (the display's lines before the tail).
  private var committed = 0
  /// The lines currently drawn below the frozen ones, and the screen rows they take.
  private var drawn: [String] = []
  private var drawnRows = 0

  /// The terminal's size in columns and rows (80 by 24 when it cannot be read).
  static var screenSize: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return (80, 24) }
    return (size.ws_col > 0 ? Int(size.ws_col) : 80, size.ws_row > 1 ? Int(size.ws_row) : 24)
  }

  /// Draws one update on the terminal.
  mutating func draw(newlyCommitted: [String], tail: [String], final: Bool) {
    let size = Self.screenSize
    StandardIO.write(
      draw(newlyCommitted: newlyCommitted, tail: tail, final: final, columns: size.columns, rows: size.rows))
  }

  /// The bytes that draw one update on a terminal of `columns` by `rows`.
  ///
  /// - Parameters:
  ///   - newlyCommitted: the lines committed by this update (what
  ///     `MarkdownStreamANSIRenderer.apply` returned); on the final update, every line that follows
  ///     those committed before.
  ///   - tail: the lines of the live tail (empty on the final update).
  mutating func draw(newlyCommitted: [String], tail: [String], final: Bool, columns: Int, rows: Int) -> String {
    // The display below the committed lines written before: what this update committed, then
    // the tail. Lines already frozen at its top are not drawn again.
    let lines = newlyCommitted + tail
    let wanted = Array(lines.dropFirst(frozen - committed))
    var same = 0
    while same < min(wanted.count, drawn.count) && wanted[same] == drawn[same] { same += 1 }
    var up = drawnRows
    for line in drawn[..<same] { up -= Self.layout(of: line, columns: columns).rows }
    var out = "\u{1B}[?2026h"
    if up > 0 { out += "\u{1B}[\(up)A" }
    out += "\r"
    var written = 0
    for line in wanted[same...] {
      let layout = Self.layout(of: line, columns: columns)
      written += layout.rows
      // The rest of the last row is cleared, unless the line fills it: the cursor then waits in
      // the last column, where clearing would erase the line's last character.
      out += line + (layout.fillsLastRow ? "\n" : "\u{1B}[K\n")
    }
    // Rows left over from a taller live region are cleared row by row: erasing the display from
    // the top-left corner would make some terminals (tmux's scroll-on-clear) push the screen
    // into the scrollback.
    let stale = up - written
    if stale > 0 { out += String(repeating: "\u{1B}[2K\n", count: stale) + "\u{1B}[\(stale)A" }
    out += "\u{1B}[?2026l"

    committed += newlyCommitted.count
    if final {
      frozen = committed + tail.count
      drawn = []
      drawnRows = 0
      return out
    }
    // Committed lines are frozen; so are the top tail lines that do not fit in the live region.
    let liveLimit = max(1, rows - 1)
    var firstLive = wanted.count
    var liveRows = 0
    let committedHere = max(0, committed - frozen)
    while firstLive > committedHere {
      let height = Self.layout(of: wanted[firstLive - 1], columns: columns).rows
      if liveRows + height > liveLimit { break }
      liveRows += height
      firstLive -= 1
    }
    frozen += firstLive
    drawn = Array(wanted[firstLive...])
    drawnRows = liveRows
    return out
  }

  /// The screen rows a line takes on a terminal `columns` wide (its display width without escape
  /// sequences, wrapped as terminals wrap: a wide character that does not fit in the last column
  /// moves to the next row; at least one row), and whether it fills its last row.
  static func layout(of line: String, columns: Int) -> (rows: Int, fillsLastRow: Bool) {
    let columns = max(1, columns)
    let text = visible(line)
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      let width = text.utf8.count
      return (max(1, (width + columns - 1) / columns), width > 0 && width % columns == 0)
    }
    var rows = 1
    var column = 0
    for character in text {
      let width = DisplayWidth.of(String(character))
      if column + width > columns {
        rows += 1
        column = 0
      }
      column += width
    }
    return (rows, column == columns)
  }

  /// A line without its escape sequences (CSI styles and OSC 8 hyperlinks, as the ANSI renderer
  /// writes them).
  static func visible(_ line: String) -> String {
    guard line.utf8.contains(0x1B) else { return line }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(line.utf8.count)
    let utf8 = Array(line.utf8)
    var index = 0
    while index < utf8.count {
      guard utf8[index] == 0x1B, index + 1 < utf8.count else {
        bytes.append(utf8[index])
        index += 1
        continue
      }
      let kind = utf8[index + 1]
      index += 2
      if kind == UInt8(ascii: "[") {
        // CSI: parameters and intermediates up to a final byte in 0x40...0x7E.
        while index < utf8.count && !(0x40...0x7E).contains(utf8[index]) { index += 1 }
        index += 1
      } else if kind == UInt8(ascii: "]") {
        // OSC: up to BEL or ESC \.
        while index < utf8.count && utf8[index] != 0x07 && utf8[index] != 0x1B { index += 1 }
        index += index < utf8.count && utf8[index] == 0x1B ? 2 : 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
