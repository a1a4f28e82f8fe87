import Foundation
import ReplyMarkdown

/// The streaming reply as the engine renders it: its `MarkdownStream` and the HTML a
/// `MarkdownStreamHTMLRenderer` builds from it, fed with every publish of the reply's text.
///
/// Read it from ``ChatThread/streamingReply``. The stream holds exactly the published text (the
/// message's ``ChatMessage/text``), parsed as GitHub-flavoured markdown like the rest of the
/// engine; the HTML is the committed blocks followed by the healed open
/// tail, so no raw markers flash.
public struct ChatStreamingReply: Sendable {
  /// The id of the streaming reply.
  public let messageID: UUID
  /// The incremental parser, fed with the published text.
  public private(set) var stream: MarkdownStream
  /// The HTML consumer of ``stream``.
  public private(set) var renderer: MarkdownStreamHTMLRenderer
  /// How the last publish changed ``html`` (keep a prefix, append the rest); `nil` before the
  /// first publish.
  public private(set) var lastEdit: MarkdownStreamHTMLRenderer.Edit?

  /// Starts the rendering of reply `messageID` with `renderer`.
  init(messageID: UUID, renderer: HTMLRenderer) {
    self.messageID = messageID
    self.stream = MarkdownStream()
    self.renderer = MarkdownStreamHTMLRenderer(renderer: renderer)
  }

  /// The current HTML of the reply.
  ///
  /// - Complexity: O(n) in the HTML's length (it is built from the renderer's bytes).
  public var html: String { renderer.html }

  /// Feeds one publish.
  ///
  /// - Complexity: what ``MarkdownStream/feed(_:)`` costs: the open block and a bounded lookback.
  mutating func feed(_ appended: String) {
    lastEdit = renderer.apply(stream.feed(appended))
  }
}
