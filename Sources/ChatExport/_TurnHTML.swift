import ChatEngine
import Foundation

/// The markup of one turn of the page: an `<article>` with the message's anchor (`m-<id>`), its
/// text, its state, and a row with the message's time (a link to the anchor), Copy link, Copy
/// and, on replies, "Copy as markdown", Share and the stored rating as text.
///
/// Buttons are written `hidden` and shown by the script, so a reader without script never sees
/// a button that does nothing.
struct _TurnHTML {
  var words: _PageWords
  /// Prints each turn's time for readers without script (the script rewrites it in the reader's
  /// time zone).
  var timeFormatter: DateFormatter
  var timeZone: TimeZone

  /// The anchor of a message: `m-` and its id in lower case.
  static func anchor(_ message: ChatMessage) -> String {
    "m-" + message.id.uuidString.lowercased()
  }

  /// The index of the first turn that appears with motion when the page opens (the last few;
  /// the rest are still: animating thousands of turns costs more than it shows).
  var recentFrom = 0

  /// The opening tag of a turn's article.
  func open(_ message: ChatMessage, index: Int) -> String {
    let (kind, label) = message.role == .user ? ("you", words.you) : ("assistant", words.assistant)
    let instant = Int64((message.date.timeIntervalSince1970 * 1000).rounded())
    return
      "<article class=\"turn turn-\(kind)\" id=\"\(Self.anchor(message))\" aria-label=\"\(_HTMLEscape.text(label))\""
      + " data-i=\"\(index)\" data-t=\"\(instant)\"\(index >= recentFrom ? " data-recent" : "")>"
  }

  /// The person's turn: the text, escaped, in its bubble; then the row, then `versions` (the
  /// turn's version marks, ``_PageVersions``).
  func user(_ message: ChatMessage, index: Int, versions: String = "") -> String {
    open(message, index: index) + "<div class=\"bubble\">\(_HTMLEscape.text(message.text))</div>"
      + "<div class=\"meta\">\(stamp(message))\(button(.link, "link", words.copyLink))"
      + "\(button(.copy, "copy", words.copy))</div>\(versions)</article>\n"
  }

  /// A reply: its page HTML (``_ReplyHTML``), the state line, the row, then `versions` (the
  /// turn's version marks). A reply with text has Copy whatever its state; a failed reply
  /// without text has only its time.
  func assistant(_ message: ChatMessage, index: Int, replyHTML: String, versions: String = "") -> String {
    var html = open(message, index: index) + "<div class=\"reply\">" + replyHTML + "</div>"
    switch message.state {
    case .complete: break
    case .stopped: html += "<p class=\"state\">\(_HTMLEscape.text(words.stopped))</p>"
    case .failed(let reason):
      html +=
        "<p class=\"state state-failed\" role=\"status\">\(_Glyphs.use(.warning))<span>\(_HTMLEscape.text(failureText(reason)))</span></p>"
    case .streaming:
      // A saved page never streams: the reply stopped where the file was written.
      html +=
        "<p class=\"state state-failed\" role=\"status\">\(_Glyphs.use(.warning))<span>\(_HTMLEscape.text(words.didNotFinish))</span></p>"
    }
    html += "<div class=\"actions\" role=\"group\" aria-label=\"\(_HTMLEscape.text(words.actions))\">"
    if message.text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
      html += button(.copy, "copy", words.copy)
      html += button(.markdown, "markdown", words.copyMarkdown)
      html += button(.share, "share", words.share)
    }
    html += button(.link, "link", words.copyLink)
    html += stamp(message)
    switch message.feedback {
    case .good: html += "<span class=\"rating\">\(_Glyphs.use(.thumbUp))\(_HTMLEscape.text(words.ratedGood))</span>"
    case .bad: html += "<span class=\"rating\">\(_Glyphs.use(.thumbDown))\(_HTMLEscape.text(words.ratedBad))</span>"
    case nil: break
    }
    return html + "</div>\(versions)</article>\n"
  }

  /// What a failed reply says on a page, where nobody can retry: the engine's "didn't finish"
  /// message and a closing "Try again." are left out.
  func failureText(_ reason: String) -> String {
    if reason == ChatMessage.defaultFailureMessage { return words.didNotFinish }
    var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
    for suffix in ["Try again.", "Please try again."] where text.hasSuffix(suffix) {
      text = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
    }
    return text.isEmpty ? words.didNotFinish : text
  }

  /// The message's time, linking to its anchor; shown on hover and focus.
  private func stamp(_ message: ChatMessage) -> String {
    "<a class=\"stamp\" href=\"#\(Self.anchor(message))\"><time datetime=\"\(_InternetDate.format(message.date, timeZone: timeZone))\">"
      + "\(_HTMLEscape.text(timeFormatter.string(from: message.date)))</time></a>"
  }

  private func button(_ glyph: _Glyphs.Name, _ action: String, _ label: String) -> String {
    let label = _HTMLEscape.text(label)
    return "<button class=\"act\" type=\"button\" data-action=\"\(action)\" title=\"\(label)\" hidden>"
      + "\(_Glyphs.use(glyph))<span class=\"act-label\">\(label)</span></button>"
  }
}
