import ChatEngine
import Foundation
import ReplyMarkdown

/// A chat thread as one self-contained web page that looks and behaves like the spec's
/// ChatThreadBlock: the person's turns on the right on the fill, replies as safe HTML, day
/// separators, code blocks with their language and a Copy button, and the action row of
/// finished replies.
///
/// Guarantees:
/// - Self-contained: one inline style sheet and one inline script; nothing is loaded from the
///   network. A `Content-Security-Policy` meta element allows exactly those two (by SHA-256) and
///   no other script, style, image, font, frame or connection.
/// - Safe: replies are ``HTMLRenderer``'s safe rendering (raw HTML omitted, dangerous URLs
///   dropped); the person's text is escaped; copy texts travel as JSON in a data block that
///   browsers never run. Nothing in a thread can execute in the reader's browser.
/// - Readable without JavaScript: day separators carry the date in ``timeZone`` and ``locale``;
///   with JavaScript they are recomputed from the stored instants in the reader's time zone and
///   language, reading Today, Yesterday or the date.
///
/// - Complexity: O(total text): each reply is parsed once and rendered to HTML and plain text.
/// - Thread safety: a value type; render from any thread.
public struct ThreadPage: Sendable {
  /// The thread, oldest first (normalise outside input with ``ChatMessage/normalized(_:)``;
  /// ``ChatArchive`` does).
  public var messages: [ChatMessage]
  /// The page title; `nil` uses the first line of the person's first turn, else "Conversation".
  public var title: String?
  /// The time zone of the printed day separators (for readers without JavaScript).
  public var timeZone: TimeZone
  /// The language of the printed day separators.
  public var locale: Locale
  /// The versions of the turns, when the page shows a thread with versions (see
  /// ``init(tree:title:timeZone:locale:includesOtherVersions:)``).
  var versions: _PageVersions?

  /// Creates a page for `messages`.
  public init(messages: [ChatMessage], title: String? = nil, timeZone: TimeZone = .current, locale: Locale = .current) {
    self.messages = messages
    self.title = title
    self.timeZone = timeZone
    self.locale = locale
  }

  /// Creates a page for the shown path of `tree`, with `Version 2 of 3` under each turn that has
  /// other versions; `includesOtherVersions` adds those versions, collapsed under the shown one.
  public init(
    tree: ChatThreadTree, title: String? = nil, timeZone: TimeZone = .current, locale: Locale = .current,
    includesOtherVersions: Bool = false
  ) {
    self.init(messages: tree.messages, title: title, timeZone: timeZone, locale: locale)
    if tree.hasVersions { versions = _PageVersions(tree: tree, includesOthers: includesOtherVersions) }
  }

  /// The page's `Content-Security-Policy`: no sources at all except the page's own style sheet
  /// and script, named by their SHA-256.
  public static let contentSecurityPolicy: String =
    "default-src 'none'; style-src \(_SHA256.cspSource(styleSheet)); "
    + "script-src \(_SHA256.cspSource(_PageScript.javascript)); img-src data:; base-uri 'none'; form-action 'none'"

  /// The page's one style sheet: the page's rules and those of the version marks.
  static let styleSheet = _PageStyle.css + _PageVersions.css

  /// The whole page as HTML5 text.
  public func render() -> String {
    let sections = ChatDaySection.sections(
      for: messages[...], now: Date(), calendar: Calendar(identifier: .gregorian), timeZone: timeZone,
      locale: locale, mode: .absolute)
    // Every title is a date: the printed separator must stay true whenever the page is read; the
    // script replaces it with Today or Yesterday.
    var sectionStarts: [Int: ChatDaySection] = [:]
    for section in sections { sectionStarts[section.range.lowerBound] = section }

    var turns: [_PageData.Turn?] = []
    turns.reserveCapacity(messages.count)
    var body = ""
    body.reserveCapacity(messages.reduce(0) { $0 + $1.text.utf8.count } * 2 + 4096)
    for (index, message) in messages.enumerated() {
      if let section = sectionStarts[index] {
        body += "<h2 class=\"day\"><time datetime=\"\(_InternetDate.dayText(section.day, timeZone: timeZone))\">"
        body += _HTMLEscape.text(section.title)
        body += "</time></h2>\n"
      }
      let instant = Int64((message.date.timeIntervalSince1970 * 1000).rounded())
      switch message.role {
      case .user:
        turns.append(nil)
        body += "<article class=\"turn turn-you\" aria-label=\"You\" data-i=\"\(index)\" data-t=\"\(instant)\">"
        body += "<div class=\"bubble\">\(_HTMLEscape.text(message.text))</div>"
        body += versions?.markup(at: index) ?? ""
        body += "</article>\n"
      case .assistant:
        let document = MarkdownDocument(message.text)
        let plain = PlainTextRenderer().render(document)
        let codeCount = document.nodes.reduce(into: 0) { count, node in
          if case .codeBlock = node.kind { count += 1 }
        }
        turns.append(_PageData.Turn(plain: plain))
        body +=
          "<article class=\"turn turn-assistant\" aria-label=\"Assistant\" data-i=\"\(index)\" data-t=\"\(instant)\">"
        body += "<div class=\"reply\">"
        body += _ReplyHTML.framingCodeBlocks(HTMLRenderer().render(document), codeCount: codeCount)
        body += "</div>"
        body += Self.stateAndActions(message)
        body += versions?.markup(at: index) ?? ""
        body += "</article>\n"
      }
    }

    let script = _PageScript.javascript
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta name="generator" content="ReplyKit">
      <title>\(_HTMLEscape.text(resolvedTitle))</title>
      <style>\(Self.styleSheet)</style>
      </head>
      <body>
      \(_Glyphs.symbols)
      <div class="page">
      <header class="page-head"><h1>\(_HTMLEscape.text(resolvedTitle))</h1><p>\(Self.countText(messages.count))</p></header>
      <main class="thread" aria-label="Conversation">

      """
    page.reserveCapacity(body.utf8.count + 40_000)
    page += body
    page += """
      <div id="latest"></div>
      </main>
      </div>
      <button class="jump" type="button" hidden>Jump to latest</button>
      <div id="rk-live" class="sr-only" aria-live="polite"></div>
      <script type="application/json" id="rk-data">\(_PageData(turns: turns).scriptText())</script>
      <script>\(script)</script>
      </body>
      </html>

      """
    return page
  }

  /// The title shown in the tab and the heading.
  var resolvedTitle: String {
    if let title, !title.isEmpty { return title }
    guard let first = messages.first(where: { $0.role == .user }) else { return "Conversation" }
    let line = first.text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    guard !line.isEmpty else { return "Conversation" }
    return line.count > 80 ? String(line.prefix(79)) + "…" : line
  }

  private static func countText(_ count: Int) -> String {
    count == 1 ? "1 message" : "\(count) messages"
  }

  /// The state line (Stopped, or the failure in danger) and, for finished replies, the action
  /// row: Copy and Share (shown once the script runs) and the stored thumbs, read-only.
  private static func stateAndActions(_ message: ChatMessage) -> String {
    var html = ""
    switch message.state {
    case .failed(let reason):
      return
        "<p class=\"state state-failed\" role=\"status\">\(_Glyphs.use(.warning))<span>\(_HTMLEscape.text(reason))</span></p>"
    case .streaming:
      // Loaded threads never stream (normalisation fails such a reply); shown as the engine reads it.
      return "<p class=\"state\">\(message.text.isEmpty ? "Thinking" : "Streaming")</p>"
    case .stopped:
      html += "<p class=\"state\">Stopped</p>"
    case .complete:
      break
    }
    html += "<div class=\"actions\" role=\"group\" aria-label=\"Actions\">"
    html +=
      "<button class=\"act\" type=\"button\" data-action=\"copy\" hidden>\(_Glyphs.use(.copy))<span class=\"act-label\">Copy</span></button>"
    html +=
      "<button class=\"act\" type=\"button\" data-action=\"share\" hidden>\(_Glyphs.use(.share))<span class=\"act-label\">Share</span></button>"
    let good = message.feedback == .good
    let bad = message.feedback == .bad
    html +=
      "<span class=\"act thumb\(good ? " is-chosen" : "")\" role=\"img\" aria-label=\"\(good ? "Rated good" : "Good")\">\(_Glyphs.use(.thumbUp))</span>"
    html +=
      "<span class=\"act thumb\(bad ? " is-chosen" : "")\" role=\"img\" aria-label=\"\(bad ? "Rated bad" : "Bad")\">\(_Glyphs.use(.thumbDown))</span>"
    html += "</div>"
    return html
  }
}
