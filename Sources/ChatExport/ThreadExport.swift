import ChatEngine
import Foundation
import ReplyMarkdown

/// The thread as text: the engine's transcript, the turns alone as plain text, or a markdown
/// document. ``ThreadPage`` makes the web page.
///
/// Replies read as ``PlainTextRenderer`` reads them (the Copy and Share text).
///
/// - Complexity: O(total text).
/// - Thread safety: pure functions.
public enum ThreadExport {
  /// ``ChatTranscript``: day separators (Today, Yesterday or the date, as of `now`; a later day is
  /// its own section under its date; in UTC when a date would fall in a year outside 0001–9999
  /// in `timeZone`), then each
  /// turn as `You: ` / `Assistant: ` and its plain text, then its state when not complete.
  public static func transcript(
    _ messages: [ChatMessage], now: Date = Date(), timeZone: TimeZone = .current, locale: Locale = .current
  ) -> String {
    let sections = ChatDaySection.sections(
      for: messages[...], now: now, calendar: Calendar(identifier: .gregorian),
      timeZone: _InternetDate.displayZone(for: messages.lazy.map(\.date), in: timeZone), locale: locale, mode: .dated)
    return ChatTranscript.text(messages: messages, sections: sections, plainText: plainText)
  }

  /// The transcript of the shown path of `tree` (see ``transcript(_:now:timeZone:locale:)-([ChatMessage],_,_,_)``),
  /// with `Version 2 of 3` under each turn that has other versions.
  public static func transcript(
    _ tree: ChatThreadTree, now: Date = Date(), timeZone: TimeZone = .current, locale: Locale = .current
  ) -> String {
    let messages = tree.messages
    let sections = ChatDaySection.sections(
      for: messages[...], now: now, calendar: Calendar(identifier: .gregorian),
      timeZone: _InternetDate.displayZone(for: messages.lazy.map(\.date), in: timeZone), locale: locale, mode: .dated)
    return ChatTranscript.text(
      messages: messages, sections: sections, plainText: plainText, versions: { tree.versions(at: $0) })
  }

  /// The turns alone, without day separators: each as `You: ` / `Assistant: ` and its plain text,
  /// its state on the next line when not complete, turns separated by a blank line; no final
  /// newline.
  public static func plain(_ messages: [ChatMessage]) -> String {
    messages.map { message in
      let element = ChatTurnAccessibility(message: message, plainText: plainText)
      let head = element.value.isEmpty ? "\(element.label):" : "\(element.label): \(element.value)"
      return head + (element.state.map { "\n\($0)" } ?? "")
    }.joined(separator: "\n\n")
  }

  /// The thread as one markdown document: a `##` heading per day (the date in `timeZone` and
  /// `locale`; in UTC when a date would fall in a year outside 0001–9999 in `timeZone`), `**You**` and `**Assistant**` before each turn, the person's text quoted with its
  /// markdown marks escaped (so it reads as typed), each reply's markdown as written, and the
  /// state in italics when not complete.
  ///
  /// A reply that ends inside an unclosed code fence, or an unclosed raw HTML block that only its
  /// end marker ends (`<!--`, `<script>`, `<pre>`, `<?`, `<![CDATA[`), gets it closed, so it cannot
  /// swallow the turns after it.
  public static func markdown(_ messages: [ChatMessage], timeZone: TimeZone = .current, locale: Locale = .current)
    -> String
  {
    let sections = ChatDaySection.sections(
      for: messages[...], now: Date(), calendar: Calendar(identifier: .gregorian),
      timeZone: _InternetDate.displayZone(for: messages.lazy.map(\.date), in: timeZone), locale: locale,
      mode: .absolute)
    var blocks: [String] = []
    for section in sections {
      blocks.append(dayHeading(section.title))
      for index in section.range where messages.indices.contains(index) {
        blocks.append(contentsOf: markdownBlocks(messages[index]))
      }
    }
    return blocks.isEmpty ? "" : blocks.joined(separator: "\n\n") + "\n"
  }

  /// The heading of one day in ``markdown(_:timeZone:locale:)``.
  static func dayHeading(_ title: String) -> String {
    "## \(escapedMarkdown(title))"
  }

  /// The blocks one turn adds to ``markdown(_:timeZone:locale:)``, in order (joined there by a
  /// blank line), with `labels` for who speaks and for the states.
  static func markdownBlocks(_ message: ChatMessage, labels: Labels = .english) -> [String] {
    switch message.role {
    case .user:
      // Every markdown line ending (LF, CR, CRLF) starts a quoted line: text after a lone CR
      // went out of the quote. A line followed by another in the same paragraph ends in a hard
      // break (`\`), so your lines stay lines, as on the page and in the plain text (a trial: a
      // shopping list came back as one line).
      let lines = escapedMarkdown(message.text)
        .split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      let quoted = lines.indices.map { index in
        let line = lines[index]
        guard !line.isEmpty else { return ">" }
        let breaks = index + 1 < lines.count && !lines[index + 1].allSatisfy(\.isWhitespace)
        return "> \(line)" + (breaks ? "\\" : "")
      }.joined(separator: "\n")
      return [speaker(labels.you), quoted]
    case .assistant:
      var blocks = [speaker(labels.assistant)]
      let reply = closingOpenHTMLBlock(closingOpenFence(trimmingNewlines(message.text)))
      if !reply.isEmpty { blocks.append(reply) }
      switch message.state {
      case .complete: break
      case .stopped: blocks.append("*\(escapedMarkdown(labels.stopped))*")
      case .streaming: blocks.append("*\(escapedMarkdown(labels.streaming))*")
      case .failed(let reason):
        let text = escapedMarkdown(labels.failed).replacingOccurrences(of: "%@", with: escapedMarkdown(reason))
        blocks.append("*\(text)*")
      }
      return blocks
    }
  }

  /// The bold line before a turn: `**You**`.
  static func speaker(_ label: String) -> String {
    "**\(escapedMarkdown(label))**"
  }

  /// `text` without the line breaks (`CharacterSet.newlines`) at its start and end; native, as
  /// Foundation's trimming bridges through `NSString` on Linux and dominated long exports.
  static func trimmingNewlines(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let isBreak = { (scalar: Unicode.Scalar) in
      (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
    guard let first = scalars.firstIndex(where: { !isBreak($0) }), let last = scalars.lastIndex(where: { !isBreak($0) })
    else { return "" }
    if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
    return String(scalars[first...last])
  }

  /// A reply's plain text, as Copy gives it.
  static func plainText(_ markdown: String) -> String {
    PlainTextRenderer().render(MarkdownDocument(markdown))
  }

  private static let markdownPunctuation = Set("\\`*_{}[]()<>#+-.!|~&".unicodeScalars)

  /// `text` with every ASCII punctuation mark that markdown could read as syntax backslash-escaped.
  static func escapedMarkdown(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if markdownPunctuation.contains(scalar) { output += "\\" }
      output.unicodeScalars.append(scalar)
    }
    return output
  }

  /// `reply` with the end marker of its last block added when that block is raw HTML that runs on
  /// past blank lines until its end marker (CommonMark's HTML blocks of kinds 1 to 5: `<!--` …
  /// `-->`, `<script>`, `<pre>`, `<style>`, `<textarea>` … their closing tag, `<?` … `?>`,
  /// `<!X` … `>`, `<![CDATA[` … `]]>`) and has not met it.
  static func closingOpenHTMLBlock(_ reply: String) -> String {
    let probe = MarkdownDocument(reply + "\n\nx")
    var lastBlock: Int?
    for index in probe.topLevelBlocks { lastBlock = index }
    // The probe's `x` inside the block: the block is still open.
    guard let last = lastBlock, case .htmlBlock(let html) = probe.nodes[last].kind,
      html.hasSuffix("\nx\n")
        || html.hasSuffix("\nx")
    else { return reply }
    let opening = html.drop { $0 == " " }.lowercased()
    let marker: String
    if opening.hasPrefix("<!--") {
      marker = "-->"
    } else if opening.hasPrefix("<?") {
      marker = "?>"
    } else if opening.hasPrefix("<![cdata[") {
      marker = "]]>"
    } else if opening.hasPrefix("<!") {
      marker = ">"
    } else if let tag = ["script", "pre", "style", "textarea"].first(where: { opening.hasPrefix("<" + $0) }) {
      marker = "</\(tag)>"
    } else {
      return reply
    }
    return reply + "\n" + marker
  }

  /// `reply` with a closing fence added when its last block is a fenced code block left open.
  ///
  /// Open means that a line appended after the reply would still be code; the closing fence
  /// repeats the opening fence's characters (cmark lines are 1-based).
  static func closingOpenFence(_ reply: String) -> String {
    let probe = MarkdownDocument(reply + "\n\nx")
    var lastBlock: Int?
    for index in probe.topLevelBlocks { lastBlock = index }
    guard let last = lastBlock, case .codeBlock(let info) = probe.nodes[last].kind, info.isFenced,
      let line = probe.nodes[last].range?.start.line
    else { return reply }
    let lines = reply.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count else { return reply }
    let opening = lines[line - 1].drop { $0 == " " || $0 == ">" }
    guard let mark = opening.first, mark == "`" || mark == "~" else { return reply }
    return reply + "\n" + String(opening.prefix { $0 == mark })
  }
}
