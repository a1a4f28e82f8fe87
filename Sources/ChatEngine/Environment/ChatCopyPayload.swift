/// What Copy puts on the clipboard: plain text first, richer flavours for destinations that take them.
public struct ChatCopyPayload: Hashable, Sendable {
  /// The plain text (the reply without markdown marks, or a code block's code).
  public var plainText: String
  /// The markdown source, when a whole reply is copied.
  public var markdown: String?
  /// The HTML rendering, when a whole reply is copied.
  public var html: String?

  /// Creates a payload.
  public init(plainText: String, markdown: String? = nil, html: String? = nil) {
    self.plainText = plainText
    self.markdown = markdown
    self.html = html
  }
}
