import ChatEngine

/// One turn of the conversation as sent to a model.
public struct ModelTurn: Sendable, Hashable {
  /// Who wrote it.
  public var role: ChatMessage.Role
  /// What was written (markdown for replies).
  public var text: String

  /// Creates a turn.
  public init(role: ChatMessage.Role, text: String) {
    self.role = role
    self.text = text
  }

  /// The conversation to send for `history`: the thread as shown, user and assistant turns in
  /// order; stopped replies as far as they got; failed replies, streaming ones and turns with no
  /// visible text left out.
  ///
  /// - Complexity: O(n) in the messages.
  public static func conversation(from history: [ChatMessage]) -> [ModelTurn] {
    history.compactMap { message in
      switch message.state {
      case .failed, .streaming: return nil
      case .complete, .stopped: break
      }
      guard message.text.contains(where: { !$0.isWhitespace }) else { return nil }
      return ModelTurn(role: message.role, text: message.text)
    }
  }
}
