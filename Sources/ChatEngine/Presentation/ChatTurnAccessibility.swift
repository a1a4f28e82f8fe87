/// How assistive technology reads one turn: one element with a label, the plain text and the state.
public struct ChatTurnAccessibility: Hashable, Sendable {
  /// "You" or "Assistant".
  public var label: String
  /// The plain text of the turn (markdown marks removed).
  public var value: String
  /// "Thinking", "Streaming", "Stopped" or "Failed: message"; `nil` when complete.
  public var state: String?
  /// "Version 2 of 3" when the turn has other versions, else `nil`.
  public var versions: String?

  /// Creates an element.
  public init(label: String, value: String, state: String?, versions: String? = nil) {
    self.label = label
    self.value = value
    self.state = state
    self.versions = versions
  }

  /// Reads `message` through `plainText`; `versions` are the turn's, when it has more than one.
  public init(message: ChatMessage, plainText: (String) -> String, versions: ChatVersions? = nil) {
    label = message.role == .user ? "You" : "Assistant"
    value = message.role == .user ? message.text : plainText(message.text)
    state = Self.stateText(message)
    self.versions = versions?.text
  }

  /// The whole element as one sentence sequence: label, text, state, versions.
  public var spokenText: String {
    [label, value, state, versions].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ". ")
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
