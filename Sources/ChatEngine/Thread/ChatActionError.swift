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
    }
  }
}
