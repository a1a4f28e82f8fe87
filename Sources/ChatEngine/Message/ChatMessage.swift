import Foundation

/// One turn of a chat thread: the person's message or the assistant's reply.
///
/// A value type: copying a message never copies its text (strings are copy-on-write). The `id`
/// is what the thread, views and persistence key on; a regenerated or retried reply gets a new one.
public struct ChatMessage: Identifiable, Hashable, Sendable {
  /// Who wrote a turn.
  public enum Role: String, Hashable, Sendable, CaseIterable {
    /// The person using the app.
    case user
    /// The model's reply.
    case assistant
  }

  /// Where a turn is in its life.
  ///
  /// `streaming` is the only non-terminal state; a thread holds at most one streaming reply,
  /// and it is the last message.
  public enum State: Hashable, Sendable {
    /// Finished normally (every user turn is complete).
    case complete
    /// Chunks are still arriving.
    case streaming
    /// The person pressed Stop; the text holds exactly the chunks received before.
    case stopped
    /// The stream threw (a `CancellationError` from the model included) or ended empty; the payload
    /// is what the person reads and what is saved. The error itself stays with the thread for this
    /// session (``ChatThread/failureError(for:)``).
    case failed(String)

    /// Whether the state can still change (only `streaming` can).
    public var isTerminal: Bool { self != .streaming }
  }

  /// A rating of a reply.
  public enum Feedback: String, Hashable, Sendable, CaseIterable {
    /// Thumbs up.
    case good
    /// Thumbs down.
    case bad
  }

  /// The message shown when a reply ends without text or with an error that has no description.
  public static let defaultFailureMessage = "The reply didn't finish. Try again."

  /// The stable identity of the turn.
  public var id: UUID
  /// Who wrote it.
  public var role: Role
  /// The text; markdown for replies. Append-only while the reply streams.
  public var text: String
  /// When the turn was written (a reply: when it started).
  ///
  /// Always an instant of the years 0001–9999 in UTC, to the millisecond, as a thread file holds
  /// it (so a saved thread loads back equal to itself) and every export prints it: a date set
  /// outside those years is kept as the nearest instant inside them, and a date that is not a
  /// number as 1970-01-01T00:00:00Z.
  public var date: Date {
    get { storedDate }
    set { storedDate = _InternetDate.kept(newValue) }
  }
  private var storedDate: Date
  /// Where the turn is in its life.
  public var state: State
  /// The rating of a reply, or `nil`.
  public var feedback: Feedback?
  /// Fields of the thread file this message came from that ReplyKit does not read; saving writes
  /// them back (see ``ChatArchiveFields``).
  public var archiveFields: ChatArchiveFields

  /// Creates a message.
  public init(
    id: UUID = UUID(), role: Role, text: String, date: Date, state: State = .complete, feedback: Feedback? = nil,
    archiveFields: ChatArchiveFields = ChatArchiveFields()
  ) {
    self.archiveFields = archiveFields
    self.id = id
    self.role = role
    self.text = text
    self.storedDate = _InternetDate.kept(date)
    self.state = state
    self.feedback = feedback
  }
}
