import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// Answers that are not a reply stream say what they are, so the person can fix the address.
@Suite(.serialized, .timeLimit(.minutes(1))) struct UnexpectedAnswerTests {
  private func reply(_ script: [LocalModelServer.Step]) async throws -> (Collected, UInt16) {
    let server = try LocalModelServer([script])
    return (
      await collect(ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: history())), server.port
    )
  }

  @Test func aJSONOrHTMLAnswerIsNotCalledADroppedConnection() async throws {
    let json = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}"
    let (result, _) = try await reply([
      .head(status: 200, headers: [("Content-Type", "application/json")], chunked: false), .text(json),
    ])
    #expect(
      result.message
        == "The server answered with application/json, not an event stream: is the base URL right? Server: \(json)")
    let (page, _) = try await reply([
      .head(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")]),
      .text("<!doctype html><title>Welcome</title>"), .end,
    ])
    #expect(
      page.message?.hasPrefix("The server answered with text/html; charset=utf-8, not an event stream:") == true)
  }

  /// The content type alone decides nothing: events under another type still make the reply.
  @Test func eventsUnderAnotherContentTypeStillStream() async throws {
    let (result, _) = try await reply([
      .head(status: 200, headers: [("Content-Type", "text/plain")]), .text(Wire.openAIStream(["fine"])), .end,
    ])
    #expect(result.text == "fine")
    #expect(result.error == nil)
  }

  @Test func aRedirectNamesWhereItPoints() async throws {
    let (result, _) = try await reply([
      .head(
        status: 301,
        headers: [("Location", "https://user:pw@elsewhere.example/v1/chat/completions?token=\(testKey)")]),
      .end,
    ])
    #expect(
      result.message
        == "The server redirects (301) to https://elsewhere.example/v1/chat/completions, which is not followed "
        + "(it would carry the key there): if that is the server, use it as the base URL.")
    let (relative, port) = try await reply([.head(status: 307, headers: [("Location", "/v2/chat/completions")]), .end])
    #expect(
      relative.message?.hasPrefix("The server redirects (307) to http://127.0.0.1:\(port)/v2/chat/completions,") == true
    )
  }
}
