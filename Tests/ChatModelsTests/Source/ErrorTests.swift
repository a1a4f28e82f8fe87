import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// Every failure says what happened, in place, with Retry, and never shows the key.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ErrorTests {
  /// A JSON error body that echoes the key, as some servers do.
  private static func errorBody(_ message: String, type: String) -> String {
    "{\"error\":{\"message\":\"\(message) (key \(testKey))\",\"type\":\"\(type)\"}}"
  }

  private static func response(_ status: Int, _ body: String, headers: [(String, String)] = []) -> [LocalModelServer
    .Step]
  {
    [.head(status: status, headers: [("Content-Type", "application/json")] + headers), .text(body), .end]
  }

  /// Runs one reply against `script` in a thread, saving it; returns the reply and the saved JSON.
  @MainActor
  private func reply(
    _ api: ModelAPI, _ script: [LocalModelServer.Step], timeouts: ModelTimeouts = ModelTimeouts(),
    port: UInt16? = nil
  ) async throws -> (message: ChatMessage, saved: String) {
    let server = try LocalModelServer([script])
    var endpoint = endpoint(api, server, timeouts: timeouts)
    if let port {
      endpoint.baseURL = try #require(URL(string: "http://127.0.0.1:\(port)/v1"))
    }
    let thread = ChatThread(messages: history(), reply: ModelReplySource(endpoint: endpoint).reply)
    try await waitUntil(seconds: 10) { !thread.isStreaming }
    let message = try #require(thread.messages.last)
    let saved = String(decoding: ChatArchive.encode(thread.messages), as: UTF8.self)
    for text in [saved, "\(message)", failure(message) ?? ""] {
      #expect(!text.contains(testKey), "the key leaked: \(text)")
      #expect(!text.contains("ABCDEFGH"), "part of the key leaked: \(text)")
    }
    return (message, saved)
  }

  private func failure(_ message: ChatMessage) -> String? {
    if case .failed(let text) = message.state { return text }
    return nil
  }

  @MainActor @Test func unauthorizedNamesTheVariableNotTheKey() async throws {
    let (message, _) = try await reply(
      .openai, Self.response(401, Self.errorBody("Incorrect API key", type: "invalid_request_error")))
    let text = try #require(failure(message))
    #expect(text.hasPrefix("The server refused the API key (401): check the key in $OPENAI_API_KEY."))
    #expect(text.contains("Incorrect API key"))
  }

  @MainActor @Test func notFoundNamesTheModel() async throws {
    let body = "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: test-model\"}}"
    let (message, _) = try await reply(.anthropic, Self.response(404, body))
    let text = try #require(failure(message))
    #expect(text.hasPrefix("Not found (404): is the model 'test-model' available at http://127.0.0.1:"))
    #expect(text.contains("model: test-model (not_found_error)"))
  }

  @MainActor @Test func rateLimitShowsRetryAfter() async throws {
    let (message, _) = try await reply(
      .openai,
      Self.response(429, Self.errorBody("Rate limit reached", type: "requests"), headers: [("Retry-After", "7")]))
    #expect(failure(message)?.hasPrefix("Rate limited (429). The server asks to wait 7 s before retrying.") == true)
  }

  @MainActor @Test func serverErrors() async throws {
    let (message, _) = try await reply(.openai, Self.response(503, "upstream unavailable"))
    #expect(failure(message) == "The server failed (503); try again. Server: upstream unavailable")
    let overloaded = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"
    let (anthropic, _) = try await reply(.anthropic, Self.response(529, overloaded))
    #expect(failure(anthropic) == "The server failed (529); try again. Server: Overloaded (overloaded_error)")
  }

  @MainActor @Test func droppedConnectionKeepsThePartialText() async throws {
    let (message, saved) = try await reply(
      .openai, [Wire.eventStreamHead, .text(Wire.openAIChunk("half an ")), .pause(0.05)])
    #expect(message.text == "half an ")
    #expect(failure(message) == "The connection closed before the reply finished.")
    #expect(saved.contains("half an "))
    let (anthropic, _) = try await reply(
      .anthropic, [.head(status: 200, chunked: false), .text(Wire.anthropicStart + Wire.anthropicDelta("half"))])
    #expect(anthropic.text == "half")
    #expect(failure(anthropic) == "The connection closed before the reply finished.")
  }

  @MainActor @Test func malformedEvents() async throws {
    let (message, _) = try await reply(.openai, [Wire.eventStreamHead, .text("data: {not json\n\n"), .end])
    #expect(failure(message) == "The server sent an event that could not be read: not JSON: '{not json'")
    let (anthropic, _) = try await reply(
      .anthropic,
      [Wire.eventStreamHead, .text("event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\n"), .end])
    #expect(failure(anthropic)?.hasPrefix("The server sent an event that could not be read: no 'delta'") == true)
    // Content that is not text is not dropped in silence (a trial: the reply ended complete).
    let (number, _) = try await reply(
      .openai,
      [
        Wire.eventStreamHead, .text(Wire.openAIChunk("a") + "data: {\"choices\":[{\"delta\":{\"content\":5}}]}\n\n"),
        .end,
      ])
    #expect(number.text == "a")
    #expect(
      failure(number)?.hasPrefix(
        "The server sent an event that could not be read: a 'content' that is neither text nor text parts") == true,
      "\(failure(number) ?? "")")
  }

  @MainActor @Test func errorEventsMidStream() async throws {
    let openAI = Wire.openAIChunk("so far") + "data: \(Self.errorBody("context too long", type: "server_error"))\n\n"
    let (message, _) = try await reply(.openai, [Wire.eventStreamHead, .text(openAI), .end])
    #expect(message.text == "so far")
    #expect(
      failure(message)?.hasPrefix("The server reported an error mid-reply: context too long (key <redacted>)") == true)
    let anthropic =
      Wire.anthropicStart
      + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
    let (second, _) = try await reply(.anthropic, [Wire.eventStreamHead, .text(anthropic), .end])
    #expect(failure(second) == "The server reported an error mid-reply: Overloaded (overloaded_error)")
  }

  /// The idle timeout ends a stream that went quiet (the server would hang up only after 5 s,
  /// with another message).
  @MainActor @Test func stalledStreamTimesOut() async throws {
    let (message, _) = try await reply(
      .openai, [Wire.eventStreamHead, .text(": keep-alive\n\n" + Wire.openAIChunk("slow")), .waitForClose(5)],
      timeouts: ModelTimeouts(connect: 5, idle: 0.4))
    #expect(message.text == "slow")
    #expect(failure(message) == "The server sent nothing for 0.4 s in the middle of the reply.")
  }

  @MainActor @Test func silentServerTimesOut() async throws {
    let (message, _) = try await reply(.openai, [.waitForClose(5)], timeouts: ModelTimeouts(connect: 0.4, idle: 5))
    #expect(failure(message)?.hasPrefix("No response from 127.0.0.1:") == true)
    #expect(failure(message)?.hasSuffix(" within 0.4 s.") == true)
  }

  @MainActor @Test func nothingListening() async throws {
    let (message, _) = try await reply(.openai, [], port: LocalModelServer.closedPort())
    #expect(failure(message)?.hasPrefix("Cannot connect to 127.0.0.1:") == true)
    #expect(failure(message)?.hasSuffix(": the connection was refused.") == true)
  }

  @MainActor @Test func emptyReplySaysSo() async throws {
    let (message, _) = try await reply(.openai, [Wire.eventStreamHead, .text(Wire.openAIStream([])), .end])
    #expect(failure(message) == "The model sent an empty reply.")
    // Blank space alone shows nothing either (a trial: it was saved as a complete reply).
    let (blank, _) = try await reply(
      .openai, [Wire.eventStreamHead, .text(Wire.openAIStream(["  \n", "\n\t "])), .end])
    #expect(failure(blank) == "The model sent an empty reply.")
  }
}
