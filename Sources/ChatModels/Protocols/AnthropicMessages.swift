import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Anthropic Messages streaming: the request and the events.
///
/// Request: `POST {base}/v1/messages` with `{"model", "max_tokens", "system"?, "messages",
/// "stream": true}` and the headers `x-api-key` and `anthropic-version: 2023-06-01`. Events
/// (`event:` + `data:` pairs): `message_start`, `content_block_start`, `content_block_delta`
/// (text in `delta.text` of a `text_delta`), `content_block_stop`, `message_delta`,
/// `message_stop` (the end), `ping`, and `error` (`{"type": "error", "error": {…}}`). Unknown
/// event types are ignored, as Anthropic's versioning policy asks.
struct AnthropicMessages: ModelStreamDecoder {
  /// The `anthropic-version` header sent.
  static let version = "2023-06-01"
  /// `max_tokens` when the endpoint sets none.
  static let defaultMaxTokens = 4096

  /// The HTTP request for `conversation`. Leading assistant turns are left out: the API requires
  /// the first message to be the person's.
  static func request(_ endpoint: ModelEndpoint, conversation: [ModelTurn]) -> URLRequest {
    let turns = conversation.drop { $0.role == .assistant }
    let messages = turns.map { ["role": $0.role.rawValue, "content": $0.text] }
    var body: [String: Any] = [
      "model": endpoint.model, "messages": messages, "stream": true,
      "max_tokens": endpoint.maxTokens ?? defaultMaxTokens,
    ]
    if let system = endpoint.systemPrompt, !system.isEmpty { body["system"] = system }
    var request = URLRequest(url: endpoint.requestURL)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    request.setValue(version, forHTTPHeaderField: "anthropic-version")
    if let key = endpoint.apiKey { request.setValue(key.value, forHTTPHeaderField: "x-api-key") }
    request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    return request
  }

  /// The event types whose data is read; `message` is an event without an `event:` line, whose
  /// type is the data's `type`.
  private static let readEvents: Set<String> = [
    "message", "error", "message_stop", "content_block_delta", "content_block_start", "message_delta",
  ]

  var endedCleanly: Bool { false }

  private(set) var cutShort: ModelError?

  mutating func decode(_ event: ServerSentEvent) throws(ModelError) -> ModelStreamStep {
    // Only the events read are parsed: any other type (ping, message_delta, one added later) is
    // ignored whatever its data holds.
    guard Self.readEvents.contains(event.type) else { return .nothing }
    guard let object = _JSON.object(event.data) else {
      throw .malformedEvent(detail: "not JSON in a '\(event.type)' event: \(_JSON.sample(event.data))")
    }
    let type = event.type == "message" ? (object["type"] as? String ?? "message") : event.type
    switch type {
    case "error":
      throw .streamError(message: _JSON.errorMessage(object) ?? "unknown error")
    case "message_stop":
      return .done
    case "message_delta":
      switch (object["delta"] as? [String: Any])?["stop_reason"] as? String {
      case "max_tokens": cutShort = .cutShort(reason: .lengthLimit)
      case "refusal": cutShort = .cutShort(reason: .contentFilter)
      default: break
      }
      return .nothing
    case "content_block_delta":
      guard let delta = object["delta"] as? [String: Any] else {
        throw .malformedEvent(detail: "no 'delta' in \(_JSON.sample(event.data))")
      }
      guard delta["type"] as? String == "text_delta" else { return .nothing }
      guard let text = delta["text"] as? String else {
        throw .malformedEvent(detail: "a text_delta without 'text': \(_JSON.sample(event.data))")
      }
      return text.isEmpty ? .nothing : .text(text)
    case "content_block_start":
      if let block = object["content_block"] as? [String: Any], block["type"] as? String == "text",
        let text = block["text"] as? String, !text.isEmpty
      {
        return .text(text)
      }
      return .nothing
    default:
      return .nothing
    }
  }
}
