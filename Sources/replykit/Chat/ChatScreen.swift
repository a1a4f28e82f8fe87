import ChatEngine
import Foundation
import ReplyHighlight

/// The whole chat screen as lines: the thread window, the jump-to-latest marker, the composer
/// and the status line, at a terminal size.
///
/// The engine decides what shows (rows, marks, follow state); this type only lays it out and
/// keeps the reader's scroll anchor (the top row and line) while they are not following.
/// Guarantees: exactly ``rows`` lines, none wider than ``columns``; the cursor inside the composer.
@MainActor
final class ChatScreen {
  /// One drawn frame.
  struct Frame {
    var lines: [String]
    var cursor: (row: Int, column: Int)
    /// The number of top lines that show the thread (they may be scrolled as a block).
    var threadHeight: Int
  }

  private(set) var columns: Int
  private(set) var rows: Int
  /// The terminal's real size (``columns`` and ``rows`` are at least 20 x 6).
  private var terminalSize: (columns: Int, rows: Int)
  private(set) var renderer: TurnRenderer
  private let color: Bool
  /// The top of the window while not following: a row's identity and a line in it.
  private var anchor: (id: ChatRow.ID, line: Int)?
  /// What is being typed.
  var composer = Composer()
  /// A short message in the status line (Copied, Saved, an error), or `nil`.
  var notice: String?
  /// Whether the notice is an error (shown in the danger style).
  var noticeIsError = false
  /// Lines shown over the bottom of the thread until the next key (``/help``); taller than the
  /// thread area, they scroll (``scrollOverlay(by:)``).
  var overlay: [String]? {
    didSet { overlayTop = 0 }
  }
  /// The first overlay line shown while the overlay is taller than the thread area.
  private var overlayTop = 0
  /// A mark that stays at the start of the status line (`not saving`), or `nil`.
  var marker: String?
  /// What the composer is for when not a new message (editing one of yours), shown in the rule
  /// above it, or `nil`.
  var composerLabel: String?
  /// The reply whose lines are lowest in the window while the reader has scrolled up (commands
  /// without a number act on it), or `nil` while following the latest.
  private(set) var replyInView: UUID?
  /// What the reply numbers were computed from (the message count and the last id).
  private var numbered: (count: Int, last: UUID?, renderer: ObjectIdentifier)?
  /// The widest the thread is laid out (prose is hard to read wider).
  let readingWidth: Int
  /// What colours code in replies (nil: nothing).
  let highlighter: KSyntaxCodeHighlighter?

  /// Creates a screen of `columns` x `rows`; the thread is at most `readingWidth` wide.
  init(
    columns: Int, rows: Int, color: Bool, readingWidth: Int = 100,
    highlighter: KSyntaxCodeHighlighter? = ChatHighlighting.highlighter
  ) {
    self.columns = max(columns, 20)
    self.rows = max(rows, 6)
    terminalSize = (columns, rows)
    self.color = color
    self.readingWidth = max(readingWidth, 20)
    self.highlighter = highlighter
    renderer = TurnRenderer(width: min(self.columns, self.readingWidth), color: color, highlighter: highlighter)
  }

  /// Takes a new terminal size: the thread is laid out again at the new width.
  func resize(columns: Int, rows: Int) {
    let columns = max(columns, 20)
    if min(columns, readingWidth) != renderer.width {
      renderer = TurnRenderer(width: min(columns, readingWidth), color: color, highlighter: highlighter)
    }
    terminalSize = (columns, rows)
    self.columns = columns
    self.rows = max(rows, 6)
  }

  private var composerLayout: Composer.Layout {
    composer.layout(width: columns, maxLines: min(8, max(1, rows / 3)))
  }

  private func threadHeight(_ layout: Composer.Layout) -> Int {
    max(rows - layout.lines.count - 2, 1)
  }

  /// The current top of the window for `thread`, and the window.
  private func window(_ thread: ChatThread, height: Int) -> (ThreadWindow, ThreadPosition) {
    var window = ThreadWindow(rows: thread.rows, height: height, renderer: renderer)
    if !thread.follow.isFollowing, let anchor, let index = window.index(of: anchor.id) {
      let top = ThreadPosition(row: index, line: min(anchor.line, max(window.lines(index).count - 1, 0)))
      if window.linesBelow(top) >= height { return (window, top) }
    }
    return (window, window.bottomTop())
  }

  /// Scrolls by `delta` lines (negative is up) as the person asked: leaving the bottom stops
  /// following, reaching it resumes following (through the engine's follow state).
  func scroll(by delta: Int, in thread: ChatThread) {
    let height = threadHeight(composerLayout)
    var (window, top) = window(thread, height: height)
    guard !window.rows.isEmpty else { return }
    if delta < 0 {
      let moved = window.moveUp(top, by: -delta)
      guard moved != window.bottomTop() else { return }
      anchor = (window.rows[moved.row].id, moved.line)
      thread.scrolled(isAtBottom: false, isUserDriven: true)
    } else if delta > 0 {
      guard !thread.follow.isFollowing else { return }
      if let moved = window.moveDown(top, by: delta) {
        anchor = (window.rows[moved.row].id, moved.line)
      } else {
        anchor = nil
        thread.scrolled(isAtBottom: true, isUserDriven: true)
      }
    }
  }

  /// The lines of one page of the thread (for Page Up/Down).
  var pageSize: Int { max(threadHeight(composerLayout) - 2, 1) }

  /// Draws the screen for `thread`; below 20 x 6 just a request to enlarge the terminal (the
  /// thread keeps streaming and shows again when there is room).
  func frame(_ thread: ChatThread) -> Frame {
    let style = ChatStyle(color: color)
    if terminalSize.columns < 20 || terminalSize.rows < 6 {
      let width = max(terminalSize.columns, 1)
      var lines = Array(repeating: "", count: max(terminalSize.rows, 1))
      lines[0] = style.secondary(VisibleText.fit("Enlarge the terminal (20x6) · Ctrl-C quits", width: width))
      return Frame(lines: lines, cursor: (0, 0), threadHeight: lines.count)
    }
    let layout = composerLayout
    let height = threadHeight(layout)
    var lines: [String]
    if thread.messages.isEmpty && !thread.isLoading {
      lines = Array(repeating: "", count: height)
      let welcome = "Type a message below and press Enter. /help lists the commands."
      let fitted = VisibleText.fit(welcome, width: columns - 2)
      lines[height / 2] = VisibleText.spaces((columns - VisibleText.width(fitted)) / 2) + style.secondary(fitted)
    } else {
      numberReplies(thread)
      var (window, top) = window(thread, height: height)
      if !thread.follow.isFollowing {
        anchor = window.rows.indices.contains(top.row) ? (window.rows[top.row].id, top.line) : nil
        replyInView = Self.lastReply(in: &window, from: top, height: height)
      } else {
        anchor = nil
        replyInView = nil
      }
      lines = window.window(from: top)
      renderer.prune(keeping: thread.messages)
    }
    if let overlay {
      let shown = overlayLines(overlay, height: height, style: style)
      lines.replaceSubrange((height - shown.count)..<height, with: shown)
    } else if let block = noticeBlock(style: style) {
      // A notice too long for the status line shows whole, over the bottom of the thread.
      let shown = block.suffix(height)
      lines.replaceSubrange((height - shown.count)..<height, with: shown)
    }
    if thread.follow.showsJumpToLatest {
      let label = style.capsule("↓ \(thread.follow.jumpLabel)") + " " + style.secondary("End")
      let labelWidth = VisibleText.width(thread.follow.jumpLabel) + 8
      lines[height - 1] = VisibleText.spaces((columns - labelWidth) / 2) + label
    }
    if layout.totalLines > layout.lines.count || composerLabel != nil {
      // A long message or paste: say how much of it is out of sight; and what the composer edits.
      var parts: [String] = []
      if let composerLabel { parts.append(composerLabel) }
      if layout.totalLines > layout.lines.count {
        parts.append("\(layout.totalLines) lines · \(layout.hiddenAbove) above · \(layout.hiddenBelow) below")
      }
      let label = " " + parts.joined(separator: " · ") + " "
      let fitted = VisibleText.fit(label, width: max(columns - 4, 1))
      lines.append(
        style.secondary("──" + fitted + String(repeating: "─", count: max(columns - 2 - VisibleText.width(fitted), 0))))
    } else {
      lines.append(style.secondary(String(repeating: "─", count: columns)))
    }
    if composer.isEmpty {
      let placeholder = VisibleText.fit("Message (Enter sends, Ctrl-J new line, /help)", width: columns - 3)
      lines.append("› " + style.secondary(placeholder))
    } else {
      lines += layout.lines
    }
    lines.append(statusLine(thread, style: style))
    return Frame(
      lines: lines, cursor: (height + 1 + layout.cursorRow, min(layout.cursorColumn, columns - 1)),
      threadHeight: height)
  }

  /// Whether the overlay is taller than the thread area, so the scroll keys scroll it.
  var overlayScrolls: Bool {
    guard let overlay else { return false }
    return overlay.count > threadHeight(composerLayout)
  }

  /// Scrolls a tall overlay by `delta` lines (kept within it when drawn).
  func scrollOverlay(by delta: Int) {
    overlayTop = max(overlayTop + delta, 0)
  }

  /// The overlay lines that fit `height`: all of them, or a page of them and a line saying
  /// where the page is and how to move.
  private func overlayLines(_ overlay: [String], height: Int, style: ChatStyle) -> [String] {
    guard overlay.count > height else { return overlay }
    let page = height - 1
    guard page >= 1 else { return Array(overlay.prefix(height)) }
    overlayTop = min(overlayTop, overlay.count - page)
    let end = overlayTop + page
    let place = "\(overlayTop + 1)–\(end) of \(overlay.count) · PgUp/PgDn scroll · other keys close"
    return Array(overlay[overlayTop..<end]) + [style.secondary(VisibleText.fit(place, width: columns - 1))]
  }

  /// The status line's marker (`[not saving] `), as text, and the width left after it.
  private var markText: (text: String, width: Int) {
    let mark = marker.map { "[\(VisibleText.fit($0, width: columns / 2))] " } ?? ""
    return (mark, columns - 1 - VisibleText.width(mark))
  }

  /// The notice as one line, as the status line shows it.
  private var noticeText: String? {
    notice.map { VisibleText.sanitize($0).replacingNewlines() }
  }

  /// A notice wider than the status line, wrapped (at most 6 lines), or `nil`.
  private func noticeBlock(style: ChatStyle) -> [String]? {
    guard let text = noticeText, VisibleText.width(text) > markText.width else { return nil }
    let wrapped = VisibleText.wrap(text, width: columns - 2).prefix(6)
    return wrapped.map { " " + (noticeIsError ? style.danger($0) : style.primary($0)) }
  }

  /// The bottom line: the marker, then a notice that fits, "Copied", or the keys that apply now.
  private func statusLine(_ thread: ChatThread, style: ChatStyle) -> String {
    let (mark, width) = markText
    let shownMark = mark.isEmpty ? "" : style.danger(mark)
    if let text = noticeText, VisibleText.width(text) <= width {
      return shownMark + (noticeIsError ? style.danger(text) : style.primary(text))
    }
    switch thread.copied {
    case .reply: return shownMark + style.primary("Copied")
    case .codeBlock(_, let block): return shownMark + style.primary("Copied code block \(block + 1)")
    case nil: break
    }
    // Scrolled up, commands without a number act on the reply in view: say which.
    let inView = replyInView.flatMap { renderer.replyNumbers[$0] }.map { "acting on #\($0)" }
    return shownMark + style.secondary(Self.hints(streaming: thread.isStreaming, width: width, inView: inView))
  }

  /// Gives the renderer the reply numbers, again only when the thread's structure changed.
  private func numberReplies(_ thread: ChatThread) {
    let key = (thread.messages.count, thread.messages.last?.id, ObjectIdentifier(renderer))
    if let numbered, numbered.count == key.0, numbered.last == key.1, numbered.renderer == key.2 { return }
    numbered = key
    var numbers: [UUID: Int] = [:]
    for message in thread.messages where message.role == .assistant { numbers[message.id] = numbers.count + 1 }
    renderer.replyNumbers = numbers
  }

  /// The last reply with a line in the window that starts at `top`.
  private static func lastReply(in window: inout ThreadWindow, from top: ThreadPosition, height: Int) -> UUID? {
    var shown = 0
    var row = top.row
    var found: UUID?
    while row < window.rows.count, shown < height {
      if case .turn(let turn) = window.rows[row], turn.message.role == .assistant { found = turn.message.id }
      shown += window.lines(row).count - (row == top.row ? top.line : 0)
      row += 1
    }
    return found
  }

  /// The key hints that fit `width`: the essential ones first, the rest while they fit, so
  /// "Ctrl-C quits" and "/help" show at any width.
  /// `inView` (the reply commands act on) comes first of the rest, when given.
  static func hints(streaming: Bool, width: Int, inView: String? = nil) -> String {
    var all: [(text: String, essential: Bool)] =
      streaming
      ? [
        ("Esc stops", true), ("PgUp/PgDn scroll", false), ("End latest", false), ("/help", true),
        ("Ctrl-C quits", true),
      ]
      : [
        ("Enter sends", false), ("Alt-Enter or Ctrl-J new line", false), ("PgUp/PgDn scroll", false), ("/help", true),
        ("Ctrl-C quits", true),
      ]
    if let inView { all.insert((inView, false), at: 0) }
    var kept = all.map(\.essential)
    func text() -> String { zip(all, kept).filter(\.1).map(\.0.text).joined(separator: " · ") }
    for index in all.indices where !all[index].essential {
      kept[index] = true
      if VisibleText.width(text()) > width { kept[index] = false }
    }
    return VisibleText.fit(text(), width: width)
  }
}

extension String {
  /// The string with each line break shown as a space (for one-line status text).
  func replacingNewlines() -> String {
    String(map { $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }
}
