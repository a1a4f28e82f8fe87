import ChatEngine
import Foundation
import ReplyHighlight
import ReplyMarkdown

/// Lays out the rows of a thread as terminal lines at one width, caching rendered replies.
///
/// Guarantees: no line is wider than ``width`` columns; text from the person and from replies
/// never brings a control character to the screen (replies go through ``ANSIRenderer``, the
/// person's turns and failure messages through ``VisibleText``). A finished reply's markdown is
/// rendered once per width and never again; a streaming reply is formatted incrementally
/// (``MarkdownStream``), so each new chunk re-renders only the open tail. Each row's lines end
/// with one blank line.
/// - Complexity: O(1) for a cached reply; O(new text + open block) per streamed update.
@MainActor
final class TurnRenderer {
  /// The width in columns.
  let width: Int
  /// The chrome's styles.
  let style: ChatStyle
  /// Whether action rows, Stop and Retry show (the interactive screen) or not (a printed transcript).
  let showsControls: Bool
  private let renderer: ANSIRenderer
  /// Renders finished replies: with controls, each code block's label names its number
  /// (`sh · code 2`), the M of `/copy N code M`.
  private let finishedRenderer: ANSIRenderer
  private var bodies: [UUID: (length: Int, streaming: Bool, lines: [String])] = [:]
  /// The incremental formatter of the reply streaming now, with how many bytes it was fed.
  private var live: (id: UUID, reply: LiveReply)?

  /// A streaming reply's ``MarkdownStream`` and its terminal-lines consumer.
  struct LiveReply {
    var stream = MarkdownStream()
    var consumer: MarkdownStreamANSIRenderer
    var fed = 0

    init(renderer: ANSIRenderer) {
      consumer = MarkdownStreamANSIRenderer(renderer: renderer)
    }
  }
  /// How many code blocks each finished reply has (for the `code 1–N` item of its action row).
  private var codeBlockCounts: [UUID: Int] = [:]
  /// The number shown for each reply (`#N`, counted from the first reply), set by the screen.
  var replyNumbers: [UUID: Int] = [:]
  /// How many times markdown was rendered (for the benchmark).
  private(set) var renderCount = 0
  /// How many replies have their rendered lines cached.
  var cachedReplies: Int { bodies.count }

  /// Creates a renderer for `width` columns; with colour on, code is coloured by `highlighter`
  /// (nil: not coloured).
  init(
    width: Int, color: Bool, showsControls: Bool = true,
    highlighter: KSyntaxCodeHighlighter? = ChatHighlighting.highlighter
  ) {
    self.width = max(width, ANSIOptions.minimumWidth)
    self.style = ChatStyle(color: color)
    self.showsControls = showsControls
    renderer = ANSIRenderer(
      options: ANSIOptions(
        width: max(self.width - 2, ANSIOptions.minimumWidth), color: color,
        highlighter: ChatHighlighting.chosen(highlighter, color: color),
        colorDepth: .of(environment: TerminalEnvironment.variables)))
    var finished = renderer
    finished.options.numbersCodeBlocks = showsControls
    finishedRenderer = finished
  }

  /// The lines of one row.
  func lines(for row: ChatRow) -> [String] {
    switch row {
    case .daySeparator(let section):
      return [daySeparator(section.title), ""]
    case .turn(let turn):
      return turn.message.role == .user ? userLines(turn.message.text, versions: turn.versions) : replyLines(turn)
    case .ghost(let ghost):
      let bar = style.secondary(String(repeating: "░", count: max(8, width / 3)))
      let lines = Array(repeating: bar, count: ghost.lineCount)
      return ghost.role == .user ? lines.map { VisibleText.spaces(width - width / 3 - 1) + $0 } + [""] : lines + [""]
    }
  }

  /// `──── Today ────`, centred.
  func daySeparator(_ title: String) -> String {
    let label = " \(VisibleText.fit(VisibleText.sanitize(title), width: width - 4)) "
    let side = max((width - VisibleText.width(label)) / 2, 0)
    let rule = String(repeating: "─", count: min(side, 12))
    return VisibleText.spaces(side - rule.count) + style.secondary(rule + label + rule)
  }

  /// The person's turn: wrapped to three quarters of the width, right-aligned on the fill; under
  /// it, right-aligned, `‹ 2/3 ›` when it has other versions.
  func userLines(_ text: String, versions: ChatVersions? = nil) -> [String] {
    let textWidth = max(min(width * 3 / 4, width - 4) - 2, 8)
    let wrapped = VisibleText.wrap(VisibleText.sanitize(text.trimmingCharacters(in: .newlines)), width: textWidth)
    let bubbleWidth = (wrapped.map(VisibleText.width).max() ?? 0) + 2
    let indent = VisibleText.spaces(width - bubbleWidth - 1)
    // Without colour there is no fill to pad out, and lines never end in spaces.
    var lines = wrapped.map { line in
      style.color
        ? indent + style.fill(" " + line + VisibleText.spaces(bubbleWidth - 2 - VisibleText.width(line)) + " ")
        : indent + " " + line
    }
    if let versions, showsControls {
      let label = Self.versionLabel(versions)
      lines.append(VisibleText.spaces(max(width - VisibleText.width(label) - 1, 0)) + style.secondary(label))
    }
    lines.append("")
    return lines
  }

  /// `‹ 2/3 ›`: which version of a turn shows (`/prev`, `/next`, `/version N` switch).
  static func versionLabel(_ versions: ChatVersions) -> String {
    "‹ \(versions.number)/\(versions.count) ›"
  }

  /// The rendered markdown of a reply, from the cache when its text and state have not changed.
  ///
  /// A streaming reply goes through ``MarkdownStream``: only the new text is fed, committed
  /// blocks are rendered once, and just the open tail is rendered again. A finished reply is
  /// rendered whole once (the stream's committed lines equal that render, so nothing jumps, but
  /// for the code block labels, which take their numbers once the reply has finished).
  func body(of message: ChatMessage) -> [String] {
    let length = message.text.utf8.count
    let streaming = message.state == .streaming
    if let cached = bodies[message.id], cached.length == length, cached.streaming == streaming {
      return cached.lines
    }
    renderCount += 1
    let raw: [String]
    if streaming {
      var entry = (live?.id == message.id ? live?.reply : nil) ?? LiveReply(renderer: renderer)
      if entry.fed < length {
        let update = entry.stream.feed(bytes: message.text.utf8.dropFirst(entry.fed))
        entry.consumer.apply(update)
        entry.fed = length
      }
      live = (message.id, entry)
      raw = entry.consumer.committedLines + entry.consumer.tailLines
    } else {
      if live?.id == message.id { live = nil }
      let document = MarkdownDocument(message.text)
      raw = finishedRenderer.renderLines(document)
      codeBlockCounts[message.id] = PlainTextRenderer.codeBlocks(in: document).count
    }
    let lines = raw.map { $0.isEmpty ? $0 : " " + $0 }
    bodies[message.id] = (length, streaming, lines)
    return lines
  }

  /// Drops cached replies that are no longer in the thread (regenerated, retried, replaced),
  /// once there are more than a few of them, so the check stays off the per-frame path.
  func prune(keeping messages: [ChatMessage]) {
    guard bodies.count > messages.count + 32 else { return }
    let ids = Set(messages.map(\.id))
    bodies = bodies.filter { ids.contains($0.key) }
    codeBlockCounts = codeBlockCounts.filter { ids.contains($0.key) }
  }

  /// A reply: its markdown (or Thinking), then its marks and controls.
  func replyLines(_ turn: ChatTurn) -> [String] {
    var lines = turn.isThinking ? [" " + style.mark("Thinking…")] : body(of: turn.message)
    while lines.last?.isEmpty == true { lines.removeLast() }
    lines += marks(turn)
    lines.append("")
    return lines
  }

  /// The lines under a reply's text: Stop, Stopped, the failure and Retry, or the action row.
  func marks(_ turn: ChatTurn) -> [String] {
    var lines: [String] = []
    if turn.showsStop, showsControls {
      lines.append(" " + style.capsule("■ Stop") + " " + style.secondary("Esc"))
    }
    if turn.isStopped { lines.append(" " + style.mark("Stopped")) }
    let number = replyNumbers[turn.message.id].map { "#\($0)" }
    if let failure = turn.failure {
      let text = VisibleText.wrap("✗ " + VisibleText.sanitize(failure), width: width - 2)
      lines += text.map { " " + style.danger($0) }
      // A failed reply keeps its number, so the numbers on screen have no gaps.
      if showsControls, turn.canRetry || number != nil {
        let retry = turn.canRetry ? style.primary("↻ Retry") + " " + style.secondary("/retry") : nil
        lines.append(
          " " + [number.map(style.secondary), retry].compactMap { $0 }.joined(separator: style.secondary(" · ")))
      }
    }
    // An empty reply has nothing to copy, rate or share: only Regenerate, when it applies.
    let isEmpty = !turn.message.text.contains(where: { !$0.isWhitespace })
    let versions = turn.versions.map(Self.versionLabel)
    if let actions = turn.actions, showsControls {
      if !isEmpty {
        lines.append(
          actionRow(actions, number: number, codeBlocks: codeBlockCounts[turn.message.id] ?? 0, versions: versions))
      } else {
        let items = [versions, number, actions.canRegenerate ? "Regenerate" : nil].compactMap { $0 }
        if !items.isEmpty { lines.append(" " + style.secondary(items.joined(separator: " · "))) }
      }
    } else if let versions, showsControls {
      // Streaming or failed: no action row, but the versions still show.
      lines.append(" " + style.secondary(versions))
    }
    return lines
  }

  /// `‹ 2/3 › · #N · Copy · Regenerate · ▲ Good · ▼ Bad · Share`, with the chosen thumb and
  /// "Copied" in primary. Items that do not fit the width are left out from the end.
  func actionRow(_ actions: ChatTurn.Actions, number: String? = nil, codeBlocks: Int = 0, versions: String? = nil)
    -> String
  {
    var items: [(label: String, chosen: Bool)] = versions.map { [($0, false)] } ?? []
    if let number { items.append((number, false)) }
    items.append((actions.isCopied ? "✓ Copied" : "Copy", actions.isCopied))
    if actions.canRegenerate { items.append(("Regenerate", false)) }
    if actions.showsThumbs {
      // The chosen rating reads as text too, so it shows without colour.
      items.append((actions.feedback == .good ? "▲ Rated good" : "▲ Good", actions.feedback == .good))
      items.append((actions.feedback == .bad ? "▼ Rated bad" : "▼ Bad", actions.feedback == .bad))
    }
    items.append(("Share", false))
    // Code blocks count from the top: `/copy N code M`.
    if codeBlocks > 0 { items.append((codeBlocks == 1 ? "code 1" : "code 1–\(codeBlocks)", false)) }
    while items.count > 1, items.map({ VisibleText.width($0.label) + 3 }).reduce(0, +) > width { items.removeLast() }
    let shown = items.map { $0.chosen ? style.primary($0.label) : style.secondary($0.label) }
    return " " + shown.joined(separator: style.secondary(" · "))
  }
}

/// The chat's code highlighting: GitHub Dark, or GitHub Light when the background is light.
enum ChatHighlighting {
  /// The default from `COLORFGBG` alone: the terminal is not asked, since once the chat reads keys
  /// an OSC 11 answer would reach the composer.
  static let highlighter = KSyntaxCodeHighlighter(
    dark: TerminalBackground.isDark(environment: TerminalEnvironment.variables, asking: false))

  /// The default at start-up, before the chat reads keys: the terminal is asked for its
  /// background (OSC 11) when standard input and output are terminals, else `COLORFGBG` decides.
  static func atStartUp(environment: [String: String]) -> KSyntaxCodeHighlighter {
    KSyntaxCodeHighlighter(dark: TerminalBackground.isDark(environment: environment))
  }

  /// What colours code: the highlighter with colour on, nothing otherwise.
  static func chosen(_ highlighter: KSyntaxCodeHighlighter?, color: Bool) -> any CodeHighlighter {
    guard color, let highlighter else { return PlainCodeHighlighter() }
    return highlighter
  }
}
