import Foundation

/// One message in the archive shape: read from and written to a ``_JSONValue`` tree, with the
/// checks that make load errors name the place.
enum _ArchiveMessage {
  /// The fields ReplyKit reads; every other member of a message is kept in
  /// ``ChatMessage/archiveFields``.
  static let knownKeys: Set<String> = ["id", "role", "text", "date", "state", "error", "feedback"]

  /// Reads the message at `path` (`messages[3]`).
  static func read(_ value: _JSONValue, path: String) throws(ChatArchiveError) -> ChatMessage {
    guard case .object(let members) = value else {
      throw .invalid(path: path, problem: "expected an object, found \(value.kindName)")
    }
    func required(_ key: String) throws(ChatArchiveError) -> String {
      guard let field = value[key] else { throw .invalid(path: "\(path).\(key)", problem: "missing") }
      return try string(field, path: "\(path).\(key)")
    }
    func optional(_ key: String) throws(ChatArchiveError) -> String? {
      guard let field = value[key], field != .null else { return nil }
      return try string(field, path: "\(path).\(key)")
    }
    guard let id = UUID(uuidString: try required("id")) else {
      throw .invalid(path: "\(path).id", problem: "expected a UUID")
    }
    guard let role = ChatMessage.Role(rawValue: try required("role")) else {
      throw .invalid(path: "\(path).role", problem: "expected \"user\" or \"assistant\"")
    }
    let text = try required("text")
    let dateText = try required("date")
    let date: Date
    switch _InternetDate.parseChecked(dateText) {
    case .success(let parsed): date = parsed
    case .failure(let problem): throw .invalid(path: "\(path).date", problem: problem.message)
    }
    let stateText = try required("state")
    let state: ChatMessage.State
    switch stateText {
    case "complete": state = .complete
    case "streaming": state = .streaming
    case "stopped": state = .stopped
    case "failed": state = .failed(try optional("error") ?? ChatMessage.defaultFailureMessage)
    default:
      throw .invalid(
        path: "\(path).state", problem: "expected \"complete\", \"streaming\", \"stopped\" or \"failed\"")
    }
    var feedback: ChatMessage.Feedback?
    if let feedbackText = try optional("feedback") {
      guard let parsed = ChatMessage.Feedback(rawValue: feedbackText) else {
        throw .invalid(path: "\(path).feedback", problem: "expected \"good\", \"bad\" or null")
      }
      feedback = parsed
    }
    // An `error` on a message that did not fail is not ours to read: it is kept as it was.
    let failed = if case .failed = state { true } else { false }
    let extra = members.filter { !knownKeys.contains($0.key) || ($0.key == "error" && !failed) }
    return ChatMessage(
      id: id, role: role, text: text, date: date, state: state, feedback: feedback,
      archiveFields: ChatArchiveFields(members: extra))
  }

  private static func string(_ value: _JSONValue, path: String) throws(ChatArchiveError) -> String {
    switch value {
    case .string(let text): return text
    case .null: throw .invalid(path: path, problem: "expected a string, found null")
    default: throw .invalid(path: path, problem: "expected a string")
    }
  }

  /// The message as a JSON object: its fields and its kept unknown fields, keys sorted.
  static func value(_ message: ChatMessage, date: String) -> _JSONValue {
    var members = [
      _JSONMember(key: "id", value: .string(message.id.uuidString)),
      _JSONMember(key: "role", value: .string(message.role.rawValue)),
      _JSONMember(key: "text", value: .string(message.text)),
      _JSONMember(key: "date", value: .string(date)),
      _JSONMember(key: "feedback", value: message.feedback.map { .string($0.rawValue) } ?? .null),
    ]
    switch message.state {
    case .complete: members.append(_JSONMember(key: "state", value: .string("complete")))
    case .streaming: members.append(_JSONMember(key: "state", value: .string("streaming")))
    case .stopped: members.append(_JSONMember(key: "state", value: .string("stopped")))
    case .failed(let reason):
      members.append(_JSONMember(key: "state", value: .string("failed")))
      members.append(_JSONMember(key: "error", value: .string(reason)))
    }
    let failed = if case .failed = message.state { true } else { false }
    members += message.archiveFields.members.filter { !knownKeys.contains($0.key) || ($0.key == "error" && !failed) }
    return .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
  }
}
