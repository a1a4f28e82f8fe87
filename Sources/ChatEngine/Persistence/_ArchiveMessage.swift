import Foundation

/// One message in the archive shape, with the checks that make load errors name the place.
struct _ArchiveMessage: Codable {
  var message: ChatMessage
  /// The date as written (used when encoding).
  var dateText: String

  enum CodingKeys: String, CodingKey {
    case id, role, text, date, state, error, feedback
  }

  init(_ message: ChatMessage, date: String) {
    self.message = message
    self.dateText = date
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let idText = try container.decode(String.self, forKey: .id)
    guard let id = UUID(uuidString: idText) else {
      throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "expected a UUID")
    }
    let roleText = try container.decode(String.self, forKey: .role)
    guard let role = ChatMessage.Role(rawValue: roleText) else {
      throw DecodingError.dataCorruptedError(
        forKey: .role, in: container, debugDescription: "expected \"user\" or \"assistant\"")
    }
    let text = try container.decode(String.self, forKey: .text)
    dateText = try container.decode(String.self, forKey: .date)
    guard let date = _InternetDate.parse(dateText) else {
      throw DecodingError.dataCorruptedError(
        forKey: .date, in: container, debugDescription: "expected an ISO 8601 date with offset")
    }
    let stateText = try container.decode(String.self, forKey: .state)
    let error = try container.decodeIfPresent(String.self, forKey: .error)
    let state: ChatMessage.State
    switch stateText {
    case "complete": state = .complete
    case "streaming": state = .streaming
    case "stopped": state = .stopped
    case "failed": state = .failed(error ?? ChatMessage.defaultFailureMessage)
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .state, in: container,
        debugDescription: "expected \"complete\", \"streaming\", \"stopped\" or \"failed\"")
    }
    var feedback: ChatMessage.Feedback?
    if let feedbackText = try container.decodeIfPresent(String.self, forKey: .feedback) {
      guard let value = ChatMessage.Feedback(rawValue: feedbackText) else {
        throw DecodingError.dataCorruptedError(
          forKey: .feedback, in: container, debugDescription: "expected \"good\", \"bad\" or null")
      }
      feedback = value
    }
    message = ChatMessage(id: id, role: role, text: text, date: date, state: state, feedback: feedback)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(message.id.uuidString, forKey: .id)
    try container.encode(message.role.rawValue, forKey: .role)
    try container.encode(message.text, forKey: .text)
    try container.encode(dateText, forKey: .date)
    switch message.state {
    case .complete: try container.encode("complete", forKey: .state)
    case .streaming: try container.encode("streaming", forKey: .state)
    case .stopped: try container.encode("stopped", forKey: .state)
    case .failed(let reason):
      try container.encode("failed", forKey: .state)
      try container.encode(reason, forKey: .error)
    }
    if let feedback = message.feedback {
      try container.encode(feedback.rawValue, forKey: .feedback)
    } else {
      try container.encodeNil(forKey: .feedback)
    }
  }
}
