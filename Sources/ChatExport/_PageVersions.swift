import ChatEngine
import ReplyMarkdown

/// The page's marks for turns with other versions, kept apart from the page's own markup.
///
/// Under a turn with other versions: `Version 2 of 3`. With every version asked for
/// (`replykit export --all-versions`), also a collapsed `<details>` holding each other version
/// with the turns that follow it on its branch (as that branch was last shown), rendered as
/// safe as the shown turns: the person's text escaped, replies through ``HTMLRenderer``'s safe
/// rendering. The versions inside are not `article.turn`s, so the script's day separators and
/// Copy and Share buttons see only the shown path.
struct _PageVersions: Sendable {
  /// The thread with every version.
  var tree: ChatThreadTree
  /// Whether the other versions themselves are included (collapsed), not only the mark.
  var includesOthers: Bool

  /// The rules for the marks and the collapsed versions.
  static let css = """
    .versions { margin-top: 0.25rem; font-size: var(--type-footnote-size); color: var(--text-secondary); }
    .turn-you { flex-wrap: wrap; }
    .turn-you .versions { flex-basis: 100%; text-align: right; }
    .versions .state { margin: 0; }
    .versions details { margin-top: 0.25rem; text-align: left; }
    .versions summary { cursor: pointer; }
    .version { margin: 0.5rem 0 0; padding-left: 0.75rem; border-left: 2px solid var(--fill); color: var(--text-primary); }
    .version-title { margin: 0 0 0.5rem; font-size: 1em; font-weight: 600; }
    .version-you { display: flex; justify-content: flex-end; margin-bottom: 0.5rem; }
    .version-assistant { margin-bottom: 0.5rem; }

    """

  /// The markup to put at the end of the turn at `index` of the shown path, in the page's
  /// `words`: empty for a turn with one version. The code of the code blocks of the other
  /// versions' replies is appended to `code` (their Copy buttons' `data-code` go on from its
  /// count).
  ///
  /// - Complexity: O(1) without the other versions; O(their text) with them.
  func markup(at index: Int, words: _PageWords, code: inout [String]) -> String {
    guard let versions = tree.versions(at: index) else { return "" }
    let mark = _HTMLEscape.text(words.version(versions.number, of: versions.count))
    var html = "<div class=\"versions\"><p class=\"state versions-mark\">\(mark)</p>"
    if includesOthers {
      let others = _HTMLEscape.text(words.otherVersions(versions.count - 1))
      html += "<details><summary>\(others)</summary>"
      for (position, id) in versions.ids.enumerated() where position != versions.shownIndex {
        guard let branch = tree.branch(from: id) else { continue }
        let title = _HTMLEscape.text(words.version(position + 1, of: versions.count))
        html += "<section class=\"version\" aria-label=\"\(title)\"><h3 class=\"version-title\">\(title)</h3>"
        for (offset, message) in branch.enumerated() {
          html += Self.turn(message, words: words, code: &code)
          // A turn further down this branch with versions of its own: which one this branch shows.
          if offset > 0, let nested = tree.versions(after: branch[offset - 1].id, showing: message.id) {
            let nestedMark = _HTMLEscape.text(words.version(nested.number, of: nested.count))
            html += "<p class=\"state versions-mark\">\(nestedMark)</p>"
          }
        }
        html += "</section>"
      }
      html += "</details>"
    }
    return html + "</div>"
  }

  /// One turn of another version, without actions, in the page's `words`; the code of its code
  /// blocks is appended to `code`.
  static func turn(_ message: ChatMessage, words: _PageWords, code: inout [String]) -> String {
    switch message.role {
    case .user:
      return "<div class=\"version-you\" aria-label=\"\(_HTMLEscape.text(words.you))\">"
        + "<div class=\"bubble\">\(_HTMLEscape.text(message.text))</div></div>"
    case .assistant:
      var html =
        "<div class=\"version-assistant\" aria-label=\"\(_HTMLEscape.text(words.assistant))\"><div class=\"reply\">"
      // As the shown replies are: ids scoped to the message, disarmed links as text, images the
      // policy cannot load as links, code copied from the data block.
      let document = MarkdownDocument(message.text)
      let context = _ReplyHTML.Context(
        anchor: _TurnHTML.anchor(message), disarmed: _ReplyHTML.disarmedDestinations(in: document),
        words: words, firstCode: code.count)
      let reply = _ReplyHTML.rewriteWithCode(HTMLRenderer().render(document), context: context)
      html += reply.html
      code += reply.code
      html += "</div>"
      switch message.state {
      case .complete: break
      case .stopped: html += "<p class=\"state\">\(_HTMLEscape.text(words.stopped))</p>"
      // A saved page never streams: the reply stopped where the file was written.
      case .streaming: html += "<p class=\"state\">\(_HTMLEscape.text(words.didNotFinish))</p>"
      case .failed(let reason): html += "<p class=\"state state-failed\">\(_HTMLEscape.text(reason))</p>"
      }
      return html + "</div>"
    }
  }
}
