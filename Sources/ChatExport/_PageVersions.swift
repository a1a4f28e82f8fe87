import ChatEngine
import Foundation
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
    if includesOthers { html += others(versions, words: words, code: &code) }
    return html + "</div>"
  }

  /// What remains to write of the other versions: text, the collapsed versions of a turn, one
  /// version (its title and branch), or the turns of a branch from `offset` on.
  private enum Work {
    case text(String)
    case others(ChatVersions)
    case version(position: Int, count: Int, id: UUID)
    case branch([ChatMessage], offset: Int)
  }

  /// The collapsed other versions of `versions`, each with its branch; a turn further down a
  /// branch with versions of its own shows which one the branch shows and, collapsed under it,
  /// its other versions, to any depth. Written from a work list, not by recursion, so a chain of
  /// thousands of nested versions cannot exhaust the stack.
  private func others(_ versions: ChatVersions, words: _PageWords, code: inout [String]) -> String {
    var html = ""
    var work: [Work] = [.others(versions)]
    while let next = work.popLast() {
      switch next {
      case .text(let text):
        html += text
      case .others(let versions):
        html += "<details><summary>\(_HTMLEscape.text(words.otherVersions(versions.count - 1)))</summary>"
        work.append(.text("</details>"))
        for (position, id) in versions.ids.enumerated().reversed() where position != versions.shownIndex {
          work.append(.version(position: position, count: versions.count, id: id))
        }
      case .version(let position, let count, let id):
        guard let branch = tree.branch(from: id) else { continue }
        let title = _HTMLEscape.text(words.version(position + 1, of: count))
        html += "<section class=\"version\" aria-label=\"\(title)\"><h3 class=\"version-title\">\(title)</h3>"
        work.append(.text("</section>"))
        work.append(.branch(branch, offset: 0))
      case .branch(let branch, let offset):
        guard offset < branch.count else { continue }
        let message = branch[offset]
        html += Self.turn(message, words: words, code: &code)
        work.append(.branch(branch, offset: offset + 1))
        // A turn further down this branch with versions of its own: which one this branch shows,
        // and the others.
        if offset > 0, let nested = tree.versions(after: branch[offset - 1].id, showing: message.id) {
          html +=
            "<p class=\"state versions-mark\">\(_HTMLEscape.text(words.version(nested.number, of: nested.count)))</p>"
          work.append(.others(nested))
        }
      }
    }
    return html
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
