import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// OpenAI-compatible Chat Completions streaming: the request and the events.
///
/// Request: `POST {base}/chat/completions` with `{"model", "messages", "stream": true}` (a
/// `system` message first when there is a system prompt), `Authorization: Bearer KEY` when there
/// is a key. Events: `data: {json}` whose `choices[0].delta.content` (a string or text parts) and
/// `choices[0].delta.refusal` are text, then `data: [DONE]`;
/// `data: {"error": {…}}` is an error (`"error": null` is none).
struct OpenAIChatCompletions: ModelStreamDecoder {
  private(set) var sawFinishReason = false

  /// The HTTP request for `conversation`.
  static func request(_ endpoint: ModelEndpoint, conversation: [ModelTurn]) -> URLRequest {
    var messages: [[String: String]] = []
    if let system = endpoint.systemPrompt, !system.isEmpty {
      messages.append(["role": "system", "content": system])
    }
    for turn in conversation { messages.append(["role": turn.role.rawValue, "content": turn.text]) }
    var body: [String: Any] = ["model": endpoint.model, "messages": messages, "stream": true]
    if let maxTokens = endpoint.maxTokens { body["max_tokens"] = maxTokens }
    var request = URLRequest(url: endpoint.requestURL)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    if let key = endpoint.apiKey { request.setValue("Bearer \(key.value)", forHTTPHeaderField: "Authorization") }
    request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    return request
  }

  var endedCleanly: Bool { sawFinishReason }

  private(set) var cutShort: ModelError?

  mutating func decode(_ event: ServerSentEvent) throws(ModelError) -> ModelStreamStep {
    let data = event.data.trimmingCharacters(in: .whitespaces)
    if data == "[DONE]" { return .done }
    guard let object = _JSON.object(data) else {
      throw .malformedEvent(detail: "not JSON: \(_JSON.sample(data))")
    }
    // Some servers send `"error": null` in every chunk: only a value is an error.
    if let error = object["error"], !(error is NSNull) {
      throw .streamError(message: _JSON.errorMessage(object) ?? "unknown error")
    }
    guard let choices = object["choices"] as? [Any] else {
      throw .malformedEvent(detail: "no 'choices' in \(_JSON.sample(data))")
    }
    guard let choice = choices.first as? [String: Any] else { return .nothing }
    if let reason = choice["finish_reason"], !(reason is NSNull) {
      sawFinishReason = true
      switch reason as? String {
      case "length": cutShort = .cutShort(reason: .lengthLimit)
      case "content_filter": cutShort = .cutShort(reason: .contentFilter)
      default: break
      }
    }
    guard let delta = choice["delta"] as? [String: Any] else { return .nothing }
    let text =
      try Self.text(of: delta["content"], field: "content", data: data)
      + Self.text(of: delta["refusal"], field: "refusal", data: data)
    return text.isEmpty ? .nothing : .text(text)
  }

  /// The text of a delta's `content` or `refusal` (a model that declines says why there): a
  /// string, or an array of parts whose `text` strings are joined (servers that send content
  /// parts); absent or `null` holds none. Anything else (a number, an object) is a malformed
  /// event, never text dropped in silence.
  static func text(of value: Any?, field: String, data: String) throws(ModelError) -> String {
    switch value {
    case nil, is NSNull: return ""
    case let string as String: return string
    case let parts as [Any]:
      return parts.compactMap { part in
        (part as? String) ?? ((part as? [String: Any])?["text"] as? String)
      }.joined()
    default:
      throw .malformedEvent(detail: "a '\(field)' that is neither text nor text parts: \(_JSON.sample(data))")
    }
  }
}
