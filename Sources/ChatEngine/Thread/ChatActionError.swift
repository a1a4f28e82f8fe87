import Foundation

/// Why a ``ChatThread`` action did nothing: every action that can be refused throws one of these,
/// and a refused action never changes the thread.
///
/// The cases say what the person (or the app) can do next: wait for the reply to finish, act on
/// the latest reply, type something.
public enum ChatActionError: Error, Hashable, Sendable, LocalizedError {
  /// ``ChatThread/send(_:)`` got text that is empty or only white space.
  case emptyMessage
  /// No message in the thread has this id.
  case noSuchMessage(UUID)
  /// The message is the person's turn, not a reply.
  case notAReply(UUID)
  /// The reply is streaming or failed; Copy, Share, Regenerate and the thumbs need a complete or
  /// stopped reply.
  case replyNotFinished(UUID)
  /// Regenerate and Retry act only on the latest message.
  case notLatest(UUID)
  /// Retry acts only on a failed reply.
  case replyNotFailed(UUID)
  /// The reply has `count` code blocks, and the index asked for is not one of them.
  case noSuchCodeBlock(UUID, index: Int, count: Int)
  /// The thread has no `onFeedback` handler, so the thumbs are hidden.
  case feedbackNotOffered
  /// The message is a version that does not show; actions act on the shown versions (switch to
  /// it with ``ChatThread/showVersion(_:)`` first).
  case notShown(UUID)
  /// Only the person's own turns can be edited.
  case notAUserTurn(UUID)
  /// The turn has `count` versions, and `number` (from 1) is not one of them.
  case noSuchVersion(UUID, number: Int, count: Int)

  /// A sentence for the person, in the terms of the chat.
  public var errorDescription: String? {
    switch self {
    case .emptyMessage: return "Type a message first."
    case .noSuchMessage: return "That message is no longer in the thread."
    case .notAReply: return "That is your message, not a reply."
    case .replyNotFinished: return "The reply has not finished."
    case .notLatest: return "Only the latest reply can be asked again."
    case .replyNotFailed: return "The reply did not fail."
    case .noSuchCodeBlock(_, let index, let count):
      return count == 0
        ? "The reply has no code blocks."
        : "The reply has no code block \(index + 1); it has \(count)."
    case .feedbackNotOffered: return "Ratings are not recorded in this thread."
    case .notShown: return "That version is not shown; switch to it first."
    case .notAUserTurn: return "Only your own messages can be edited."
    case .noSuchVersion(_, let number, let count):
      if count <= 1 { return "That turn has only one version." }
      if number < 1 { return "That is the first version." }
      return "There is no version \(number); the turn has \(count)."
    }
  }
}
