#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The live region at the bottom of a terminal: committed lines are written once above it; the
/// tail is redrawn in place (cursor up, changed rows rewritten, synchronized output), never
/// clearing the screen. Rows that scrolled out of view are never rewritten: when the display is
/// taller than the screen, only its bottom rows are live.
struct TerminalRegion {
  /// Rows of the display already written for good (committed, or scrolled out of view).
  private var frozen = 0
  /// The rows currently drawn below the frozen ones.
  private var drawn: [String] = []

  static var screenRows: Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 1 { return Int(size.ws_row) }
    return 24
  }

  mutating func draw(committed: [String], tail: [String], final: Bool) {
    let rows = committed + tail
    let liveLimit = max(1, Self.screenRows - 1)
    // Rows above the live window are written once, as they are now, and frozen.
    let firstLive = final ? frozen : max(frozen, min(committed.count, rows.count), rows.count - liveLimit)
    let wanted = Array(rows[min(frozen, rows.count)...])
    var same = 0
    while same < min(wanted.count, drawn.count) && wanted[same] == drawn[same] { same += 1 }
    var out = "\u{1B}[?2026h"
    let up = drawn.count - same
    if up > 0 { out += "\u{1B}[\(up)A" }
    out += "\r"
    for row in wanted[same...] { out += row + "\u{1B}[K\n" }
    if wanted.count < drawn.count { out += "\u{1B}[J" }
    out += "\u{1B}[?2026l"
    StandardIO.write(out)
    let newFrozen = max(frozen, min(firstLive, rows.count))
    drawn = Array(wanted.dropFirst(newFrozen - frozen))
    frozen = newFrozen
    if final {
      frozen = rows.count
      drawn = []
    }
  }
}
