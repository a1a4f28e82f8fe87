import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// Streams that real servers send, which end or mark things slightly differently from the
/// documentation, still give the reply.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StreamEndTests {
  private func reply(_ api: ModelAPI, _ body: String) async throws -> Collected {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(body), .end]])
    return await collect(ModelReplySource(endpoint: endpoint(api, server)).stream(history: history()))
  }

  /// The final `data: [DONE]` with no empty line (or no line end at all) before the connection
  /// closes ends the reply as done.
  @Test func doneWithoutItsEmptyLine() async throws {
    let finished = String(Wire.openAIStream(["Hello"]).dropLast(2))
    for ending in ["", "\n", "\r\n"] {
      let result = try await reply(.openai, finished + ending)
      #expect(result.text == "Hello")
      #expect(result.error == nil, "\(ending.debugDescription): \(result.message ?? "")")
    }
    // Without the finish chunk too: [DONE] alone says the reply is done.
    let bare = Wire.openAIChunk("Hi") + "data: [DONE]"
    #expect(try await reply(.openai, bare).error == nil)
    // Anthropic's last event, unterminated.
    let anthropic = String(Wire.anthropicStream(["Hi"]).dropLast(2))
    let claude = try await reply(.anthropic, anthropic)
    #expect(claude.text == "Hi")
    #expect(claude.error == nil)
  }

  /// An event cut short at the end is still a dropped connection, the text so far kept.
  @Test func aCutEventIsStillADroppedConnection() async throws {
    let cut = Wire.openAIChunk("so far") + "data: {\"choices\":[{\"delta\":{\"content\":\"mo"
    let result = try await reply(.openai, cut)
    #expect(result.text == "so far")
    #expect(result.message == "The connection closed before the reply finished.")
    let unfinished = Wire.openAIChunk("so far") + String(Wire.openAIChunk("more").dropLast(2))
    let whole = try await reply(.openai, unfinished)
    #expect(whole.text == "so farmore")
    #expect(whole.message == "The connection closed before the reply finished.")
  }

  /// `"error": null` in ordinary chunks (some OpenAI-compatible proxies add it) is no error.
  @Test func nullErrorFieldIsNoError() async throws {
    let chunk =
      "data: {\"error\":null,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n"
    let result = try await reply(.openai, chunk + Wire.openAIStream([]))
    #expect(result.text == "Hello")
    #expect(result.error == nil)
  }

  /// Anthropic event types not read are ignored whatever their data (the API may add types).
  @Test func unknownAnthropicEventsAreIgnored() async throws {
    let body =
      Wire.anthropicStart + "event: some_future_event\ndata: not json\n\n" + "event: ping\ndata: ping\n\n"
      + Wire.anthropicDelta("Hi") + Wire.anthropicEnd
    let result = try await reply(.anthropic, body)
    #expect(result.text == "Hi")
    #expect(result.error == nil)
  }

  /// Events before an overlong line in the same read reach the reply before its error.
  @Test func textBeforeAnOverlongLineIsShown() async throws {
    let long = String(repeating: "x", count: ServerSentEventParser.maximumLineBytes + 1)
    let result = try await reply(.openai, Wire.openAIChunk("kept") + long)
    #expect(result.text == "kept")
    #expect(result.message == "The server sent an event that could not be read: a line longer than 8388608 bytes")
  }

  /// A model that says it stopped at its length limit or by its content filter fails the reply
  /// with that reason, the text kept: a cut-off reply never passes for a whole one.
  @Test(arguments: [("length", ModelError.CutShortReason.lengthLimit), ("content_filter", .contentFilter)])
  func anOpenAIReplyCutShortSaysWhy(reason: String, expected: ModelError.CutShortReason) async throws {
    let body =
      Wire.openAIChunk("Half an ") + Wire.openAIChunk("answer", finish: reason) + "data: [DONE]\n\n"
    let result = try await reply(.openai, body)
    #expect(result.text == "Half an answer")
    #expect(result.error as? ModelError == .cutShort(reason: expected))
  }

  @Test(arguments: [("max_tokens", ModelError.CutShortReason.lengthLimit), ("refusal", .contentFilter)])
  func anAnthropicReplyCutShortSaysWhy(reason: String, expected: ModelError.CutShortReason) async throws {
    let end = Wire.anthropicEnd.replacingOccurrences(of: "\"end_turn\"", with: "\"\(reason)\"")
    let result = try await reply(.anthropic, Wire.anthropicStart + Wire.anthropicDelta("Half") + end)
    #expect(result.text == "Half")
    #expect(result.error as? ModelError == .cutShort(reason: expected))
    #expect(result.message?.contains("cut short") == true)
  }

  /// The usual ends (`stop`, `end_turn`) complete the reply.
  @Test func theUsualEndsComplete() async throws {
    #expect(try await reply(.openai, Wire.openAIStream(["a"])).error == nil)
    #expect(try await reply(.anthropic, Wire.anthropicStream(["a"])).error == nil)
  }
}
