/// How assistive technology reads one turn: one element with a label, the plain text and the state.
public struct ChatTurnAccessibility: Hashable, Sendable {
  /// "You" or "Assistant".
  public var label: String
  /// The plain text of the turn (markdown marks removed).
  public var value: String
  /// "Thinking", "Streaming", "Stopped" or "Failed: message"; `nil` when complete.
  public var state: String?

  /// Creates an element.
  public init(label: String, value: String, state: String?) {
    self.label = label
    self.value = value
    self.state = state
  }

  /// Reads `message` through `plainText`.
  public init(message: ChatMessage, plainText: (String) -> String) {
    label = message.role == .user ? "You" : "Assistant"
    value = message.role == .user ? message.text : plainText(message.text)
    state = Self.stateText(message)
  }

  /// The whole element as one sentence sequence: label, text, state.
  public var spokenText: String {
    [label, value, state].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ". ")
  }

  /// The words for a message's state, or `nil` for a complete one.
  public static func stateText(_ message: ChatMessage) -> String? {
    switch message.state {
    case .complete: return nil
    case .streaming: return message.text.isEmpty ? "Thinking" : "Streaming"
    case .stopped: return "Stopped"
    case .failed(let reason): return "Failed: \(reason)"
    }
  }
}
