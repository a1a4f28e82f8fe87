/// One event of a `text/event-stream`.
public struct ServerSentEvent: Sendable, Hashable {
  /// The `event:` field, or `message` when there was none.
  public var type: String
  /// The `data:` lines, joined with line feeds.
  public var data: String

  /// Creates an event.
  public init(type: String = "message", data: String) {
    self.type = type
    self.data = data
  }
}
