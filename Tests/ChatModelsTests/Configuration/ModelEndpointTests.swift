import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// Where requests go, what messages show of it, and timeouts that cannot overflow.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ModelEndpointTests {
  private func requestURL(_ base: String, _ api: ModelAPI = .openai) throws -> String {
    try ModelEndpoint(api: api, baseURL: #require(URL(string: base)), model: "m").requestURL.absoluteString
  }

  @Test func theProtocolPathGoesOnThePathAndTheQueryStays() throws {
    #expect(try requestURL("http://h/v1") == "http://h/v1/chat/completions")
    #expect(try requestURL("http://h/v1/") == "http://h/v1/chat/completions")
    #expect(try requestURL("http://h") == "http://h/chat/completions")
    #expect(try requestURL("https://api.anthropic.com", .anthropic) == "https://api.anthropic.com/v1/messages")
    #expect(
      try requestURL("https://r.openai.azure.com/openai/deployments/d?api-version=2024-06-01")
        == "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01")
    #expect(try requestURL("http://h/v1/?a=1&b=2#x") == "http://h/v1/chat/completions?a=1&b=2")
    #expect(try requestURL("http://h/v1#x") == "http://h/v1/chat/completions")
  }

  @Test func theDisplayedURLHoldsNoPasswordOrQuery() throws {
    let base = try #require(URL(string: "http://user:p4ssw0rd@h:8080/v1?key=secret"))
    let endpoint = ModelEndpoint(api: .openai, baseURL: base, model: "m")
    #expect(endpoint.displayURL == "http://h:8080/v1/chat/completions")
  }

  /// A 404 from a server whose base URL holds a password: the message (and so the thread file)
  /// names the URL without it; the query reaches the server.
  @Test func aPasswordInTheBaseURLIsNotShown() async throws {
    let server = try LocalModelServer([[.head(status: 404), .text("no such model"), .end]])
    var endpoint = endpoint(.openai, server)
    endpoint.baseURL = try #require(URL(string: "http://user:p4ssw0rd@127.0.0.1:\(server.port)/v1?api-version=1"))
    let result = await collect(ModelReplySource(endpoint: endpoint).stream(history: history()))
    let message = try #require(result.message)
    #expect(
      message
        == "Not found (404): is the model 'test-model' available at http://127.0.0.1:\(server.port)/v1/chat/completions? Server: no such model"
    )
    #expect(!message.contains("p4ssw0rd"))
    #expect(server.requests.first?.path == "/v1/chat/completions?api-version=1")
  }

  @Test func timeoutsStayWithinADay() {
    let huge = ModelTimeouts(connect: 1e16, idle: .infinity)
    #expect(huge.connect == ModelTimeouts.maximumSeconds)
    #expect(huge.idle == 86_400)
    var odd = ModelTimeouts(connect: -3, idle: .nan)
    #expect(odd.connect == ModelTimeouts.minimumSeconds)
    #expect(odd.idle == 60)
    odd.idle = 1e300
    #expect(odd.idle == 86_400)
    #expect(ModelTimeouts(connect: 2.5, idle: 90) == ModelTimeouts(connect: 2.5, idle: 90))
  }

  /// Timeouts far beyond a day (which overflowed the HTTP client's timers) still stream a reply.
  @Test func hugeTimeoutsStillStream() async throws {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIStream(["fine"])), .end]])
    let timeouts = ModelTimeouts(connect: 1e16, idle: .infinity)
    let result = await collect(
      ModelReplySource(endpoint: endpoint(.openai, server, timeouts: timeouts)).stream(history: history()))
    #expect(result.text == "fine")
    #expect(result.error == nil)
  }
}
