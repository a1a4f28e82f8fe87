import ChatEngine
import Foundation
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
///   columns widened, links whose definitions came last, a list that turned loose), except the
///   blocks the stream committed while more than its budget waited for a definition (the `.live`
///   policy): they were written with their references as they stood, and stay so.
/// - The live region shows the last lines of the tail that fit below the screen's top (one row
///   less than the screen's height), each on exactly one row: line wrap is off while they are
///   written, so a line wider than the terminal (`--width` larger than its columns, or characters
///   the terminal draws wider than the renderer counts) is cut at the right edge instead of
///   wrapping. Cursor movement therefore counts lines, and can never miss a row.
/// - A terminal made narrower re-wraps the rows it holds (tmux, VTE, kitty, iTerm2 and most
///   others do), so a tail line that filled the old width takes more than one row afterwards: the
///   next update counts the rows each drawn line takes at the new width and goes up by that many,
///   so the region is rewritten where it now stands and no line is left twice. A terminal that
///   cuts its rows instead keeps one row per line: xterm (`XTERM_VERSION` is set), the Linux
///   console and GNU screen (`TERM` `linux…` or `screen…` outside tmux) are counted so. A terminal
///   made shorter than the region pushes the region's top rows into its scrollback, where no
///   cursor movement reaches: those rows stay there. So do the rows a re-wrap adds where the
///   terminal keeps the cursor's row and moves the rows above it up (tmux does): a tail line that
///   re-wraps into four rows leaves its first three in the scrollback.
/// - Started on a row that holds text already (a prompt written without a line break), the
///   region's first row starts where that text ends (``originColumn``, asked of the terminal),
///   so the reply follows the text as `render`'s output does and never erases it.
/// - In the background of its terminal (Ctrl-Z, then `bg`) nothing is drawn: the lines
///   committed meanwhile are written, once each, with the first update in the foreground again
///   (`fg`) or at the end.
/// - Every update's bytes leave the terminal as they found it (line wrap on, synchronized output
///   off) and are written with SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked, so the signal that
///   ends the program arrives between updates, never inside one.
///
/// - Complexity: each update costs its newly committed lines plus at most a screen of tail lines,
///   never the lines written before.
struct TerminalRegion {
  /// The tail lines on the screen below the committed ones, one row each.
  private var drawn: [String] = []
  /// The terminal's size when they were drawn.
  private var drawnSize = (columns: 0, rows: 0)
  /// The column the region's first row starts at while nothing was committed: where the cursor
  /// was when the program started (after a prompt the line already holds, `printf 'A: '`), so
  /// that the first line follows that text as `render`'s output does instead of erasing it. 0
  /// once a line was committed (it ends that row). The region never takes the whole screen, so
  /// its first row stays on it.
  var originColumn = 0

  /// Whether the terminal re-wraps its rows when it gets narrower (see the guarantees).
  /// Read once: the environment does not change under a running program.
  static let terminalRewraps: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if environment["TMUX"] != nil { return true }
    if environment["XTERM_VERSION"] != nil { return false }
    let term = environment["TERM"] ?? ""
    return !(term.hasPrefix("linux") || term.hasPrefix("screen"))
  }()

  /// Lines committed while the program ran in the background, not written yet.
  private var waitingCommitted: [String] = []

  /// Whether the program runs in the background of the terminal it writes to (another process
  /// group is its foreground); `false` when that cannot be told.
  static var inBackground: Bool {
    let group = tcgetpgrp(STDOUT_FILENO)
    return group >= 0 && group != getpgrp()
  }

  /// The terminal's size in columns and rows (80 by 24 when it cannot be read).
  static var screenSize: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return (80, 24) }
    // A terminal one row high shows no tail (its one row is the cursor's), not a 24-row guess.
    return (size.ws_col > 0 ? Int(size.ws_col) : 80, size.ws_row > 0 ? Int(size.ws_row) : 24)
  }

  /// Draws one update on the terminal.
  mutating func draw(newlyCommitted: [String], tail: [String], final: Bool) {
    waitingCommitted += newlyCommitted
    // Continued in the background (Ctrl-Z, then `bg`), a redraw would go up over the shell's
    // prompt: updates wait for the foreground (`fg`) or the end.
    guard final || !Self.inBackground else { return }
    let size = Self.screenSize
    let bytes = draw(
      newlyCommitted: waitingCommitted, tail: tail, final: final, rows: size.rows, columns: size.columns,
      rewraps: Self.terminalRewraps)
    waitingCommitted = []
    Self.write(bytes)
  }

  /// Writes `bytes` with the ending signals blocked, so that none arrives inside an update.
  private static func write(_ bytes: String) {
    let signalMask = EndingSignals.block()
    StandardIO.write(bytes)
    EndingSignals.restore(signalMask)
  }

  /// The bytes that draw one update on a terminal `rows` high and `columns` wide.
  ///
  /// - Parameters:
  ///   - newlyCommitted: the lines committed by this update (what
  ///     `MarkdownStreamANSIRenderer.apply` returned); on the final update, every line that follows
  ///     those committed before.
  ///   - tail: the lines of the live tail (empty on the final update).
  mutating func draw(
    newlyCommitted: [String], tail: [String], final: Bool, rows: Int, columns: Int, rewraps: Bool = true
  ) -> String {
    let shown = final ? [] : Array(tail.suffix(max(0, rows - 1)))
    let resized = !drawn.isEmpty && (columns != drawnSize.columns || rows != drawnSize.rows)
    let occupied = occupiedRows(rows: rows, columns: columns, rewraps: rewraps)
    // Without a commit or a resize, rows that stay the same are kept; else the region is rewritten
    // from its top.
    var same = 0
    if newlyCommitted.isEmpty && !resized {
      while same < min(shown.count, drawn.count) && shown[same] == drawn[same] { same += 1 }
    }
    drawnSize = (columns, rows)
    if newlyCommitted.isEmpty && !resized && same == shown.count && same == drawn.count { return "" }
    var out = Self.begin
    let up = occupied - same
    if up > 0 { out += "\u{1B}[\(up)A" }
    out += "\r"
    // The first row is written from the origin column on, and erased from there.
    var row = same
    func toOrigin() -> String { row == 0 && originColumn > 0 ? "\u{1B}[\(originColumn)C" : "" }
    func eraseRow() -> String {
      defer { row += 1 }
      return row == 0 && originColumn > 0 ? "\u{1B}[K" : "\u{1B}[2K"
    }
    out += toOrigin()
    if !newlyCommitted.isEmpty {
      // A committed line may wrap onto rows the region used: they are cleared first, so no
      // tail text is left beside it. The cursor row below the region exists, so this never scrolls.
      if up > 0 {
        for _ in 0..<up { out += eraseRow() + "\n" }
        row = same
        out += "\u{1B}[\(up)A" + toOrigin()
      }
      for line in newlyCommitted { out += line + "\n" }
      originColumn = 0
      row = 1
    }
    out += Self.wrapOff
    for line in shown[same...] { out += eraseRow() + line + "\n" }
    // Rows left over from a taller region are cleared row by row: erasing the display from the
    // top-left corner would make some terminals (tmux's scroll-on-clear) push the screen into
    // the scrollback.
    let stale = newlyCommitted.isEmpty ? occupied - shown.count : 0
    if stale > 0 {
      // (On the first row, nothing was written since the cursor went to the origin column.)
      for _ in 0..<stale { out += eraseRow() + "\n" }
      out += "\u{1B}[\(stale)A"
    }
    out += Self.end
    drawn = shown
    return out
  }

  /// The rows the drawn lines take now: one each, unless a narrower terminal re-wrapped them; at
  /// most the rows above the cursor (a shorter terminal pushed the rest into its scrollback).
  private func occupiedRows(rows: Int, columns: Int, rewraps: Bool) -> Int {
    var occupied = drawn.count
    if !drawn.isEmpty && rewraps && columns != drawnSize.columns {
      occupied = Self.rows(taking: drawn, drawnAt: drawnSize.columns, columns: columns)
    }
    return min(occupied, max(0, rows - 1))
  }

  /// Clears the live region before the program stops (Ctrl-Z): the cursor is left at the
  /// region's top, where the shell writes next, and the next update draws a new region from
  /// wherever the cursor is then.
  mutating func clear() {
    let size = Self.screenSize
    Self.write(clear(rows: size.rows, columns: size.columns, rewraps: Self.terminalRewraps))
  }

  /// The bytes that clear the live region on a terminal `rows` high and `columns` wide, row by
  /// row (see ``draw(newlyCommitted:tail:final:rows:columns:rewraps:)`` on why not the display).
  mutating func clear(rows: Int, columns: Int, rewraps: Bool = true) -> String {
    let occupied = occupiedRows(rows: rows, columns: columns, rewraps: rewraps)
    drawn = []
    let origin = originColumn > 0 ? "\u{1B}[\(originColumn)C" : ""
    // The cursor's row, below the region, holds what the terminal echoed (`^Z`); with no region it
    // is the first row, erased from its origin on.
    guard occupied > 0 else { return Self.begin + "\r" + origin + "\u{1B}[K" + Self.end }
    let first = originColumn > 0 ? "\u{1B}[K\n" : "\u{1B}[2K\n"
    return Self.begin + "\r\u{1B}[2K\u{1B}[\(occupied)A\r" + origin + first
      + String(repeating: "\u{1B}[2K\n", count: occupied - 1) + "\u{1B}[\(occupied)A\r" + origin + Self.end
  }

  /// How many rows `lines`, drawn one per row with line wrap off on a terminal `drawnAt` columns
  /// wide (so cut at its right edge), take once the terminal re-wraps them at `columns`.
  static func rows(taking lines: [String], drawnAt drawnColumns: Int, columns: Int) -> Int {
    guard columns > 0 else { return lines.count }
    var total = 0
    for line in lines {
      let cells = min(visibleWidth(line), max(drawnColumns, 1))
      total += max(1, (cells + columns - 1) / columns)
    }
    return total
  }

  /// The columns a line of terminal text takes: its text without the escape sequences the
  /// renderer writes (CSI styles, OSC 8 hyperlinks).
  static func visibleWidth(_ line: String) -> Int {
    guard line.utf8.contains(0x1B) else { return DisplayWidth.of(line) }
    var text = String.UnicodeScalarView()
    var scalars = line.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\u{1B}" else {
        text.append(scalar)
        continue
      }
      switch scalars.next() {
      case "["?:
        // Parameters and intermediates up to a final byte.
        while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
      case "]"?:
        // Up to BEL or ESC \.
        while let next = scalars.next() {
          if next == "\u{07}" { break }
          if next == "\u{1B}" {
            _ = scalars.next()
            break
          }
        }
      default:
        break
      }
    }
    return DisplayWidth.of(String(text))
  }

  /// Opens an update: synchronized output, so the terminal shows it whole.
  static let begin = "\u{1B}[?2026h"
  /// Turns line wrap off, for the tail lines.
  static let wrapOff = "\u{1B}[?7l"
  /// Closes an update: line wrap on, synchronized output off.
  static let end = "\u{1B}[?7h\u{1B}[?2026l"
}
