import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport

/// What a reply stream produced.
struct Collected {
  var chunks: [String] = []
  var error: (any Error)?
  var text: String { chunks.joined() }
  var message: String? { (error as? any LocalizedError)?.errorDescription }
}

/// Reads `stream` to its end.
func collect(_ stream: AsyncThrowingStream<String, any Error>) async -> Collected {
  var result = Collected()
  do {
    for try await chunk in stream {
      result.chunks.append(chunk)
    }
  } catch {
    result.error = error
  }
  return result
}

/// A test key, long enough that the partial-echo redaction applies.
let testKey = "sk-test-ABCDEFGH1234567890secret"

/// An endpoint on the local server.
func endpoint(
  _ api: ModelAPI, _ server: LocalModelServer, system: String? = nil, timeouts: ModelTimeouts = ModelTimeouts()
) -> ModelEndpoint {
  ModelEndpoint(
    api: api, baseURL: api == .openai ? server.openAIBaseURL : server.anthropicBaseURL, model: "test-model",
    apiKey: ModelAPIKey(testKey), apiKeySource: api.defaultKeyVariable, systemPrompt: system, timeouts: timeouts)
}

/// A short history: a question, an answer, a follow-up.
func history() -> [ChatMessage] {
  let date = Date(timeIntervalSince1970: 1_700_000_000)
  return [
    ChatMessage(role: .user, text: "Hi", date: date),
    ChatMessage(role: .assistant, text: "Hello!", date: date),
    ChatMessage(role: .user, text: "Say something", date: date),
  ]
}
