import Foundation

/// What a view draws for one turn: the message and which of its controls and marks show.
///
/// Computed by ``ChatThread/turn(at:)`` without parsing markdown, in O(1).
public struct ChatTurn: Identifiable, Hashable, Sendable {
  /// The controls under a finished (complete or stopped) reply.
  public struct Actions: Hashable, Sendable {
    /// Whether "Copied" shows in place of Copy.
    public var isCopied: Bool
    /// Whether Regenerate shows (the latest reply only).
    public var canRegenerate: Bool
    /// Whether the thumbs show (a feedback handler exists).
    public var showsThumbs: Bool
    /// The selected thumb, if any.
    public var feedback: ChatMessage.Feedback?
  }

  /// The message.
  public var message: ChatMessage
  /// "Thinking": the reply streams and no chunk has been published yet.
  public var isThinking: Bool
  /// Whether Stop shows (the reply streams).
  public var showsStop: Bool
  /// The action row of a finished reply, or `nil`.
  public var actions: Actions?
  /// The failure message shown in place, for a failed reply.
  public var failure: String?
  /// Whether Retry shows (a failed reply that is the latest message).
  public var canRetry: Bool
  /// Whether the Stopped mark shows.
  public var isStopped: Bool
  /// The index of the code block that shows "Copied", if any.
  public var copiedCodeBlock: Int?
  /// The turn's versions when it has more than one (a view shows `‹ 2/3 ›`), else `nil`.
  public var versions: ChatVersions?

  /// The message's id.
  public var id: UUID { message.id }

  /// Derives a turn's view state from its message and the thread around it.
  ///
  /// - Parameters:
  ///   - isLatest: whether the message is the last of the thread.
  ///   - copied: what shows "Copied" in the thread.
  ///   - showsThumbs: whether the thread has a feedback handler.
  ///   - versions: the turn's versions, when it has more than one.
  public init(
    message: ChatMessage, isLatest: Bool, copied: ChatThread.CopyTarget?, showsThumbs: Bool,
    versions: ChatVersions? = nil
  ) {
    self.message = message
    self.versions = versions
    let isReply = message.role == .assistant
    isThinking = isReply && message.state == .streaming && message.text.isEmpty
    showsStop = isReply && message.state == .streaming
    isStopped = isReply && message.state == .stopped
    if isReply, message.state == .complete || message.state == .stopped {
      actions = Actions(
        isCopied: copied == .reply(message.id), canRegenerate: isLatest, showsThumbs: showsThumbs,
        feedback: message.feedback)
    } else {
      actions = nil
    }
    if isReply, case .failed(let reason) = message.state {
      failure = reason
      canRetry = isLatest
    } else {
      failure = nil
      canRetry = false
    }
    if case .codeBlock(let id, let block) = copied, id == message.id {
      copiedCodeBlock = block
    } else {
      copiedCodeBlock = nil
    }
  }
}
