import Foundation

/// One publish of a streaming reply's text: what was appended since the previous publish.
///
/// The reply's text is append-only while it streams, so feeding every `appended` in order to an
/// incremental formatter (a `MarkdownStream`) rebuilds exactly the published text, and a view
/// re-renders only the open tail. `isFinal` is set once, on the publish that ends the stream
/// (complete, stopped or failed); `appended` may then be empty.
public struct ReplyUpdate: Hashable, Sendable {
  /// The reply's message id.
  public var messageID: UUID
  /// The text appended since the previous publish of this reply.
  public var appended: String
  /// The publish count of this reply, from 1.
  public var revision: Int
  /// Whether the stream has ended (the message's state is terminal).
  public var isFinal: Bool

  /// Creates an update.
  public init(messageID: UUID, appended: String, revision: Int, isFinal: Bool) {
    self.messageID = messageID
    self.appended = appended
    self.revision = revision
    self.isFinal = isFinal
  }
}
