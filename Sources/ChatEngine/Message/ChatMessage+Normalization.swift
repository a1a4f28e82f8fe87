import Foundation

extension ChatMessage {
  /// Makes a thread from outside (a file, an app) safe to show.
  ///
  /// Guarantees: ids are unique (the first message with an id wins); user turns are complete and
  /// unrated; a streaming reply (nothing streams into a loaded thread) becomes failed with
  /// ``defaultFailureMessage``; an empty failure message becomes that message too.
  ///
  /// - Complexity: O(n).
  public static func normalized(_ messages: [ChatMessage]) -> [ChatMessage] {
    var seen = Set<UUID>()
    seen.reserveCapacity(messages.count)
    var result: [ChatMessage] = []
    result.reserveCapacity(messages.count)
    for message in messages where seen.insert(message.id).inserted {
      result.append(normalizedAlone(message))
    }
    return result
  }

  /// One message made safe to show: a user turn complete and unrated, a streaming reply failed
  /// with ``defaultFailureMessage``, an empty failure message replaced by that message.
  static func normalizedAlone(_ message: ChatMessage) -> ChatMessage {
    var message = message
    switch (message.role, message.state) {
    case (.user, _):
      message.state = .complete
      message.feedback = nil
    case (.assistant, .streaming):
      message.state = .failed(defaultFailureMessage)
    case (.assistant, .failed(let reason)) where reason.isEmpty:
      message.state = .failed(defaultFailureMessage)
    case (.assistant, _):
      break
    }
    return message
  }
}
