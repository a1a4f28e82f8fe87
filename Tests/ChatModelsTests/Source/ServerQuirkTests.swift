import ChatEngine
import Foundation
import ReplyKitTestSupport
import Testing

@testable import ChatModels

/// What a trial of real-world server behaviour found reported wrongly: the server's own news
/// replaced by "connection closed", "empty reply", "not JSON" or a bare error number.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ServerQuirkTests {
  private func reply(_ script: [LocalModelServer.Step], api: ModelAPI = .openai, idle: Double = 60)
    async throws -> Collected
  {
    let server = try LocalModelServer([script])
    return await collect(
      ModelReplySource(endpoint: endpoint(api, server, timeouts: ModelTimeouts(connect: 5, idle: idle)))
        .stream(history: history()))
  }

  private static func delta(_ json: String) -> String {
    "data: {\"choices\":[{\"index\":0,\"delta\":\(json),\"finish_reason\":null}]}\n\n"
  }

  private static let finish = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"

  /// A 429 whose body never finishes (the connection closes, or goes quiet) is still a 429, with
  /// its Retry-After.
  @Test func anErrorStatusWithACutBodyIsStillThatStatus() async throws {
    let head = LocalModelServer.Step.head(
      status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", "30")], chunked: false)
    let cut = LocalModelServer.Step.head(
      status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", "30"), ("Content-Length", "90")],
      chunked: false)
    let closed = try await reply([cut, .text("{\"error\": {\"message\": \"Rate li")])
    #expect(closed.error as? ModelError == .rateLimited(retryAfter: 30, message: "{\"error\": {\"message\": \"Rate li"))
    let quiet = try await reply([head, .text("{\"error\": {"), .waitForClose(5)], idle: 0.4)
    #expect(quiet.message?.hasPrefix("Rate limited (429). The server asks to wait 30 s before retrying.") == true)
  }

  /// A refusal is the model's answer: it shows as the reply's text.
  @Test func aRefusalIsTheReply() async throws {
    let body = Self.delta("{\"role\":\"assistant\",\"refusal\":\"I cannot \"}") + Self.delta("{\"refusal\":\"help.\"}")
    let result = try await reply([Wire.eventStreamHead, .text(body + Self.finish + "data: [DONE]\n\n"), .end])
    #expect(result.text == "I cannot help.")
    #expect(result.error == nil, "\(result.message ?? "")")
  }

  /// Content sent as text parts joins their text.
  @Test func contentPartsAreText() async throws {
    let body =
      Self.delta("{\"content\":[{\"type\":\"text\",\"text\":\"Hello \"},{\"type\":\"text\",\"text\":\"there\"}]}")
    let result = try await reply([Wire.eventStreamHead, .text(body + Self.finish + "data: [DONE]\n\n"), .end])
    #expect(result.text == "Hello there")
    #expect(result.error == nil, "\(result.message ?? "")")
  }

  /// A model that spent its length limit before any text (on reasoning) is cut short, not empty.
  @Test func theLengthLimitBeforeAnyTextSaysSo() async throws {
    let openAI = Wire.openAIChunk("", finish: "length") + "data: [DONE]\n\n"
    #expect(
      try await reply([Wire.eventStreamHead, .text(openAI), .end]).error as? ModelError
        == .cutShort(reason: .lengthLimit))
    let end = Wire.anthropicEnd.replacingOccurrences(of: "\"end_turn\"", with: "\"max_tokens\"")
    #expect(
      try await reply([Wire.eventStreamHead, .text(Wire.anthropicStart + end), .end], api: .anthropic).error
        as? ModelError == .cutShort(reason: .lengthLimit))
  }

  /// An event stream whose body is a bare JSON error (no `data:`) shows the server's message.
  @Test func aBareJSONErrorInAnEventStreamIsShown() async throws {
    let body = "{\"error\":{\"message\":\"model is loading\",\"type\":\"unavailable\"}}"
    let result = try await reply([Wire.eventStreamHead, .text(body), .end])
    #expect(result.error as? ModelError == .streamError(message: "model is loading (unavailable)"))
  }

  /// An emoji escaped as a surrogate pair split across two events: each half reads as U+FFFD and
  /// the reply goes on, as invalid UTF-8 does.
  @Test func aLoneSurrogateEscapeIsAReplacementCharacter() async throws {
    let body =
      Self.delta("{\"content\":\"Hi \\ud83d\"}") + Self.delta("{\"content\":\"\\ude00 there \\\\ud83d\"}")
      + Self.delta("{\"content\":\" \\ud83d\\ude00\"}") + Self.finish + "data: [DONE]\n\n"
    let result = try await reply([Wire.eventStreamHead, .text(body), .end])
    #expect(result.text == "Hi \u{FFFD}\u{FFFD} there \\ud83d \u{1F600}")
    #expect(result.error == nil, "\(result.message ?? "")")
  }

  /// A server that is not HTTP says what the address may be, not an error number alone.
  @Test func anAnswerThatIsNotHTTPSaysSo() async throws {
    let result = try await reply([.body(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)), .pause(0.2)])
    let message = try #require(result.message)
    #expect(message.hasPrefix("Cannot connect to 127.0.0.1:"))
    #expect(message.contains("is the base URL a model server?") || message.contains("a model server's?"), "\(message)")
  }

  /// `https://` to a server that speaks plain HTTP names the TLS failure and what to check, not
  /// "not HTTP" (a trial: the answer was HTTP, the cause was TLS), and ends its sentence once.
  @Test func tlsToAPlainHTTPServerSaysSo() async throws {
    // It answers at once: a TLS client sends no HTTP request to wait for.
    let server = try LocalModelServer(
      [[.body(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)), .pause(0.2)]],
      readsRequests: false)
    var secure = endpoint(.openai, server, timeouts: ModelTimeouts(connect: 5, idle: 5))
    secure.baseURL = try #require(
      URL(string: server.openAIBaseURL.absoluteString.replacingOccurrences(of: "http://", with: "https://")))
    let result = await collect(ModelReplySource(endpoint: secure).stream(history: history()))
    let message = try #require(result.message)
    #expect(message.hasPrefix("Cannot connect to 127.0.0.1:"), "\(message)")
    #expect(message.contains("the secure connection failed") && message.contains("only http://?"), "\(message)")
    #expect(!message.contains("?."), "\(message)")
  }

  /// The TLS library's words, as the HTTP client passes them on, read as what they mean.
  @Test(arguments: [
    ("SSL certificate problem: self-signed certificate", "its TLS certificate is not trusted"),
    ("SSL certificate problem: unable to get local issuer certificate", "its TLS certificate is not trusted"),
    ("SSL certificate problem: certificate has expired", "has expired"),
    ("SSL: no alternative certificate subject name matches target host name 'x'", "for another host name"),
    ("SSL certificate problem: certificate signature failure", "its TLS certificate was refused ("),
    ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", "or only http://?"),
    ("OpenSSL/3.0.19: error:0A000126:SSL routines::unexpected eof while reading", "the secure connection failed ("),
  ])
  func tlsFailuresAreNamed(description: String, part: String) {
    #expect(_StreamingHTTPClient.secureConnectionReason(description)?.contains(part) == true)
    #expect(_StreamingHTTPClient.secureConnectionReason("Could not connect to server") == nil)
  }
}
