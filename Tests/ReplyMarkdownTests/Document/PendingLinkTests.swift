import Foundation
import Testing

@testable import ReplyMarkdown

/// A pending link (its destination has not arrived) is a flag on the link: each renderer shows its
/// text, never clickable, never with a URL.
@Suite struct PendingLinkTests {
  /// `see <link>the docs</link> now`, the link pending or not.
  static func document(pending: Bool) -> MarkdownDocument {
    let link = MarkdownNode.LinkInfo(destination: pending ? "" : "https://example.org", title: "", isPending: pending)
    return MarkdownDocument(
      nodes: [
        MarkdownNode(kind: .document, subtreeEnd: 6, depth: 0),
        MarkdownNode(kind: .paragraph, subtreeEnd: 6, depth: 1),
        MarkdownNode(kind: .text("see "), subtreeEnd: 3, depth: 2),
        MarkdownNode(kind: .link(link), subtreeEnd: 5, depth: 2),
        MarkdownNode(kind: .text("the docs"), subtreeEnd: 5, depth: 3),
        MarkdownNode(kind: .text(" now"), subtreeEnd: 6, depth: 2),
      ], options: .github)
  }

  @Test func htmlWritesNoHref() {
    #expect(HTMLRenderer().render(Self.document(pending: true)) == "<p>see <a data-pending=\"\">the docs</a> now</p>\n")
  }

  @Test func plainAndTerminalShowTheTextAlone() {
    #expect(PlainTextRenderer().render(Self.document(pending: true)) == "see the docs now")
    let terminal = ANSIRenderer(options: ANSIOptions(width: 80, color: false, hyperlinks: true))
    #expect(terminal.renderLines(Self.document(pending: true)) == ["see the docs now"])
  }

  @Test func decodingJSONWithoutTheKeyGivesNotPending() throws {
    let old = Data(#"{"destination":"/u","title":"T"}"#.utf8)
    let info = try JSONDecoder().decode(MarkdownNode.LinkInfo.self, from: old)
    #expect(info == MarkdownNode.LinkInfo(destination: "/u", title: "T"))
    #expect(!info.isPending)
    let parsed = MarkdownNode.LinkInfo(destination: "/u", title: "T")
    #expect(String(decoding: try JSONEncoder().encode(parsed), as: UTF8.self).contains("isPending") == false)
    let pending = MarkdownNode.LinkInfo(destination: "", title: "", isPending: true)
    #expect(try JSONDecoder().decode(MarkdownNode.LinkInfo.self, from: JSONEncoder().encode(pending)) == pending)
    #expect(pending != MarkdownNode.LinkInfo(destination: "", title: ""))
  }
}
