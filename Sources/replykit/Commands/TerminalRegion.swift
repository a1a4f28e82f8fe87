import ChatEngine
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The live region at the bottom of a terminal: committed lines are written once above it, and
/// the tail is redrawn in place below them after every update (cursor up, changed rows rewritten,
/// synchronized output), never clearing the screen.
///
/// Guarantees:
/// - Only committed lines reach the scrollback, each written once, wrapped by the terminal as
///   `render`'s output is. Nothing of the tail is ever frozen: when the stream ends, the screen
///   holds what `replykit render` writes, whatever the tail looked like on the way (a table whose
///   columns widened, links whose definitions came last, a list that turned loose).
/// - The live region shows the last lines of the tail that fit below the screen's top (one row
///   less than the screen's height), each on exactly one row: line wrap is off while they are
///   written, so a line wider than the terminal (`--width` larger than its columns, or characters
///   the terminal draws wider than the renderer counts) is cut at the right edge instead of
///   wrapping. Cursor movement therefore counts lines, and can never miss a row.
/// - Every update's bytes leave the terminal as they found it (line wrap on, synchronized output
///   off) and are written with SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked, so the signal that
///   ends the program arrives between updates, never inside one.
///
/// - Complexity: each update costs its newly committed lines plus at most a screen of tail lines,
///   never the lines written before.
struct TerminalRegion {
  /// The tail lines on the screen below the committed ones, one row each.
  private var drawn: [String] = []

  /// The terminal's size in columns and rows (80 by 24 when it cannot be read).
  static var screenSize: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return (80, 24) }
    return (size.ws_col > 0 ? Int(size.ws_col) : 80, size.ws_row > 1 ? Int(size.ws_row) : 24)
  }

  /// Draws one update on the terminal.
  mutating func draw(newlyCommitted: [String], tail: [String], final: Bool) {
    let bytes = draw(newlyCommitted: newlyCommitted, tail: tail, final: final, rows: Self.screenSize.rows)
    let signalMask = EndingSignals.block()
    StandardIO.write(bytes)
    EndingSignals.restore(signalMask)
  }

  /// The bytes that draw one update on a terminal `rows` high.
  ///
  /// - Parameters:
  ///   - newlyCommitted: the lines committed by this update (what
  ///     `MarkdownStreamANSIRenderer.apply` returned); on the final update, every line that follows
  ///     those committed before.
  ///   - tail: the lines of the live tail (empty on the final update).
  mutating func draw(newlyCommitted: [String], tail: [String], final: Bool, rows: Int) -> String {
    let shown = final ? [] : Array(tail.suffix(max(0, rows - 1)))
    // Without a commit, rows that stay the same are kept; a commit rewrites the region from its top.
    var same = 0
    if newlyCommitted.isEmpty {
      while same < min(shown.count, drawn.count) && shown[same] == drawn[same] { same += 1 }
    }
    if newlyCommitted.isEmpty && same == shown.count && same == drawn.count { return "" }
    var out = Self.begin
    let up = drawn.count - same
    if up > 0 { out += "\u{1B}[\(up)A" }
    out += "\r"
    if !newlyCommitted.isEmpty {
      // A committed line may wrap onto rows the region used: they are cleared first, so no
      // tail text is left beside it. The cursor row below the region exists, so this never scrolls.
      if up > 0 { out += String(repeating: "\u{1B}[2K\n", count: up) + "\u{1B}[\(up)A" }
      for line in newlyCommitted { out += line + "\n" }
    }
    out += Self.wrapOff
    for line in shown[same...] { out += "\u{1B}[2K" + line + "\n" }
    // Rows left over from a taller region are cleared row by row: erasing the display from the
    // top-left corner would make some terminals (tmux's scroll-on-clear) push the screen into
    // the scrollback.
    let stale = newlyCommitted.isEmpty ? drawn.count - shown.count : 0
    if stale > 0 { out += String(repeating: "\u{1B}[2K\n", count: stale) + "\u{1B}[\(stale)A" }
    out += Self.end
    drawn = shown
    return out
  }

  /// Opens an update: synchronized output, so the terminal shows it whole.
  static let begin = "\u{1B}[?2026h"
  /// Turns line wrap off, for the tail lines.
  static let wrapOff = "\u{1B}[?7l"
  /// Closes an update: line wrap on, synchronized output off.
  static let end = "\u{1B}[?7h\u{1B}[?2026l"
}
