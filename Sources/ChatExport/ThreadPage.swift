import ChatEngine
import Foundation
import ReplyMarkdown

/// A chat thread as one self-contained web page that looks and behaves like the spec's
/// ChatThreadBlock: the person's turns on the right on the fill, replies as safe HTML, day
/// separators, code blocks with their language and a Copy button, and an action row per turn;
/// plus what share pages offer: an anchor per message (`#m-<id>`, its time linking to it, Copy
/// link), Copy on every turn, "Copy as markdown" per reply, "Copy conversation" and "Download .md"
/// (the text of ``ThreadExport/markdown(_:timeZone:locale:)``, with who speaks and the states in
/// ``language``), and a header with the export date and the model.
///
/// Guarantees:
/// - Self-contained: one inline style sheet and one inline script; nothing is loaded from the
///   network. A `Content-Security-Policy` meta element allows exactly those two (by SHA-256) and
///   no other script, style, image, font, frame or connection (``contentSecurityPolicy``; with
///   ``highlighting`` the theme rules are part of the hashed style sheet).
/// - Safe: replies are ``HTMLRenderer``'s safe rendering (raw HTML omitted, dangerous URLs
///   dropped); a link whose URL was dropped is inert text with the URL shown, an image the policy
///   cannot load is a link to it with its alt text; the person's text is escaped; copy texts
///   travel as JSON in a data block that browsers never run. Nothing in a thread can execute in
///   the reader's browser.
/// - Scoped: every id a reply's HTML carries (footnotes) is prefixed with its message's anchor,
///   so replies never collide; the library's HTML itself stays cmark-gfm's.
/// - One language (``language``) for every word, the `lang` attribute and the dates the script
///   rebuilds; day separators and times are printed in ``timeZone`` for readers without
///   JavaScript and recomputed in the reader's time zone with it (Today, Yesterday or the date,
///   each in a `<time datetime>`; a later day keeps its date).
///
/// - Complexity: O(total text): each reply is parsed once and rendered to HTML and plain text.
/// - Thread safety: a value type; render from any thread.
public struct ThreadPage: Sendable {
  /// The thread, oldest first (normalise outside input with ``ChatMessage/normalized(_:)``;
  /// ``ChatArchive`` does).
  public var messages: [ChatMessage]
  /// The page title; `nil` uses the first line of the person's first turn, else the language's
  /// word for a conversation.
  public var title: String?
  /// The time zone of the printed day separators and times (for readers without JavaScript); UTC
  /// instead when a message's day there falls in a year outside 0001–9999.
  public var timeZone: TimeZone
  /// The locale of the printed dates; its language is used only when it is ``language``'s.
  public var locale: Locale
  /// The language of every word of the page (`lang`, labels, buttons, the dates the script
  /// rebuilds).
  public var language: PageLanguage
  /// When the page was made, shown in its header (as the nearest instant of the years 0001–9999
  /// in UTC when it is outside them, as a message's ``ChatMessage/date`` is kept).
  public var exportDate: Date
  /// The model the thread records, shown in the header when there is one.
  public var model: String?
  /// Highlighting of code blocks in light and dark, or nil for plain code (the library's HTML).
  public var highlighting: PageHighlighting?
  /// The versions of the turns, when the page shows a thread with versions (see
  /// ``init(tree:title:timeZone:locale:language:exportDate:model:highlighting:includesOtherVersions:)``).
  var versions: _PageVersions?

  /// Creates a page for `messages`; `language` defaults to the language of `locale` (English when
  /// the page has no words in it).
  public init(
    messages: [ChatMessage], title: String? = nil, timeZone: TimeZone = .current, locale: Locale = .current,
    language: PageLanguage? = nil, exportDate: Date = Date(), model: String? = nil,
    highlighting: PageHighlighting? = nil
  ) {
    self.messages = messages
    self.title = title
    self.timeZone = timeZone
    self.locale = locale
    self.language = language ?? PageLanguage(locale: locale)
    self.exportDate = exportDate
    self.model = model
    self.highlighting = highlighting
  }

  /// Creates a page for the shown path of `tree`, with `Version 2 of 3` under each turn that has
  /// other versions; `includesOtherVersions` adds those versions, collapsed under the shown one.
  public init(
    tree: ChatThreadTree, title: String? = nil, timeZone: TimeZone = .current, locale: Locale = .current,
    language: PageLanguage? = nil, exportDate: Date = Date(), model: String? = nil,
    highlighting: PageHighlighting? = nil, includesOtherVersions: Bool = false
  ) {
    self.init(
      messages: tree.messages, title: title, timeZone: timeZone, locale: locale, language: language,
      exportDate: exportDate, model: model, highlighting: highlighting)
    if tree.hasVersions { versions = _PageVersions(tree: tree, includesOthers: includesOtherVersions) }
  }

  /// The `Content-Security-Policy` of a page without highlighting: no sources at all except the
  /// page's own style sheet and script, named by their SHA-256.
  public static let contentSecurityPolicy: String = policy(style: baseStyleSheet)

  /// The style sheet of a page without highlighting: the page's rules and those of the version
  /// marks.
  static let baseStyleSheet = _PageStyle.css + _PageVersions.css

  /// This page's `Content-Security-Policy`: as ``contentSecurityPolicy``, with the hash of this
  /// page's style sheet (which holds the highlighting rules, when there are any).
  public var contentSecurityPolicy: String {
    highlighting == nil ? Self.contentSecurityPolicy : Self.policy(style: styleSheet)
  }

  /// The page's one style sheet: the page's rules and, with highlighting, the themes' rules.
  var styleSheet: String {
    Self.baseStyleSheet + (highlighting.map { "\n" + $0.stylesheet } ?? "")
  }

  private static func policy(style: String) -> String {
    "default-src 'none'; style-src \(_SHA256.cspSource(style)); "
      + "script-src \(_SHA256.cspSource(_PageScript.javascript)); img-src data:; base-uri 'none'; form-action 'none'"
  }

  /// The whole page as HTML5 text.
  public func render() -> String {
    let words = language.words
    let dateLocale = language.locale(preferring: locale)
    // The page prints every date with a year 0001–9999: in UTC when one would not be in `timeZone`.
    let timeZone = _InternetDate.displayZone(for: messages.lazy.map(\.date), in: timeZone)
    let sections = ChatDaySection.sections(
      for: messages[...], now: Date(), calendar: Calendar(identifier: .gregorian), timeZone: timeZone,
      locale: dateLocale, mode: .absolute)
    // Every title is a date: the printed separator must stay true whenever the page is read; the
    // script replaces it with Today or Yesterday.
    var sectionStarts: [Int: ChatDaySection] = [:]
    for section in sections { sectionStarts[section.range.lowerBound] = section }

    let timeFormatter = DateFormatter()
    timeFormatter.calendar = Calendar(identifier: .gregorian)
    timeFormatter.locale = dateLocale
    timeFormatter.timeZone = timeZone
    timeFormatter.setLocalizedDateFormatFromTemplate("jmm")
    var turnHTML = _TurnHTML(words: words, timeFormatter: timeFormatter, timeZone: timeZone)
    turnHTML.recentFrom = max(0, messages.count - Self.recentTurns)
    let renderer = HTMLRenderer(highlighter: highlighting?.highlighter)

    let labels = words.markdownLabels
    let assistantHeading = ThreadExport.speaker(labels.assistant)
    var turns: [_PageData.Turn] = []
    turns.reserveCapacity(messages.count)
    var code: [String] = []
    var body = ""
    body.reserveCapacity(messages.reduce(0) { $0 + $1.text.utf8.count } * 2 + 4096)
    for (index, message) in messages.enumerated() {
      if index % Self.chunkSize == 0 {
        body += index == 0 ? "<div class=\"chunk\">\n" : "</div>\n<div class=\"chunk\">\n"
      }
      if let section = sectionStarts[index] {
        body += "<h2 class=\"day\"><time datetime=\"\(_InternetDate.dayText(section.day, timeZone: timeZone))\">"
        body += _HTMLEscape.text(section.title)
        body += "</time></h2>\n"
      }
      let conversation = ThreadExport.markdownBlocks(message, labels: labels).joined(separator: "\n\n")
      switch message.role {
      case .user:
        turns.append(_PageData.Turn(p: message.text, m: nil, c: conversation))
        let marks = versions?.markup(at: index, words: words, code: &code) ?? ""
        body += turnHTML.user(message, index: index, versions: marks)
      case .assistant:
        let document = MarkdownDocument(message.text)
        let plain = PlainTextRenderer().render(document)
        let derived = conversation == assistantHeading + "\n\n" + message.text
        turns.append(_PageData.Turn(p: plain, m: message.text, c: derived ? nil : conversation))
        let context = _ReplyHTML.Context(
          anchor: _TurnHTML.anchor(message), disarmed: _ReplyHTML.disarmedDestinations(in: document), words: words,
          firstCode: code.count)
        let reply = _ReplyHTML.rewriteWithCode(renderer.render(document), context: context)
        code += reply.code
        let marks = versions?.markup(at: index, words: words, code: &code) ?? ""
        body += turnHTML.assistant(message, index: index, replyHTML: reply.html, versions: marks)
      }
    }
    if messages.isEmpty {
      body += "<p class=\"empty\">\(_HTMLEscape.text(words.noMessages))</p>\n"
    } else {
      body += "</div>\n"
    }

    let data = _PageData(
      words: _PageData.Words(copied: words.copied, assistant: assistantHeading), file: downloadName,
      days: sections.map { _PageData.Day(i: $0.range.lowerBound, h: ThreadExport.dayHeading($0.title)) },
      turns: turns, code: code)
    // The title also shows in the browser's own frame: no control or bidirectional override there.
    let title = _HTMLEscape.text(TerminalSafeText.visible(resolvedTitle))
    var page = """
      <!DOCTYPE html>
      <html lang="\(language.code)">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta name="generator" content="ReplyKit">
      <title>\(title)</title>
      <style>\(styleSheet)</style>
      </head>
      <body>
      \(_Glyphs.symbols)
      <div class="page">
      \(_PageHeader(words: words, locale: dateLocale, timeZone: timeZone).html(
        title: title, count: messages.count, exportDate: _InternetDate.printable(exportDate), model: model))
      <main class="thread" aria-label="\(_HTMLEscape.text(words.conversation))">

      """
    page.reserveCapacity(body.utf8.count + 40_000)
    page += body
    page += """
      <div id="latest"></div>
      </main>
      </div>
      <button class="jump" type="button" hidden>\(_HTMLEscape.text(words.jumpToLatest))</button>
      <div id="rk-live" class="sr-only" aria-live="polite"></div>
      <script type="application/json" id="rk-data">\(data.scriptText())</script>
      <script>\(_PageScript.javascript)</script>
      </body>
      </html>

      """
    return _HTMLEscape.withoutControls(page)
  }

  /// Turns per chunk: the browser skips laying out chunks away from the view
  /// (`content-visibility: auto`), and checks per frame which chunks came near, so a long thread
  /// costs per frame what its chunks cost (10,000 turns: 200 chunks), not what its turns do.
  static let chunkSize = 50

  /// How many turns at the end appear with motion when the page opens.
  static let recentTurns = 3

  /// The title shown in the tab and the heading.
  var resolvedTitle: String {
    if let title, !title.isEmpty { return title }
    let fallback = language.words.conversation
    guard let first = messages.first(where: { $0.role == .user }) else { return fallback }
    let line = first.text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    guard !line.isEmpty else { return fallback }
    return line.count > 80 ? String(line.prefix(79)) + "…" : line
  }

  /// The file name "Download .md" offers: the title's letters and digits, words joined by `-`,
  /// at most 60 characters, then `.md`.
  var downloadName: String {
    var name = ""
    var pendingDash = false
    for character in resolvedTitle.lowercased() {
      if character.isLetter || character.isNumber {
        if pendingDash && !name.isEmpty { name.append("-") }
        pendingDash = false
        name.append(character)
        if name.count >= 60 { break }
      } else {
        pendingDash = true
      }
    }
    return (name.isEmpty ? "conversation" : name) + ".md"
  }
}
