import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// Real HTTP against the local server: both protocols, chunked anywhere, delivered as it arrives.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StreamingTests {
  @Test func openAIStreamSplitInsideEventsAndCharacters() async throws {
    let text = Wire.openAIStream(["Hé", "llo, ", "wörld 😀", "!"])
    let server = try LocalModelServer([[Wire.eventStreamHead] + Wire.pieces(text, size: 7) + [.end]])
    let source = ModelReplySource(endpoint: endpoint(.openai, server, system: "Be brief."))
    let result = await collect(source.stream(history: history()))
    #expect(result.error == nil)
    #expect(result.text == "Héllo, wörld 😀!")
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(request.path == "/v1/chat/completions")
    #expect(request.headers["authorization"] == "Bearer \(testKey)")
    #expect(request.headers["accept"] == "text/event-stream")
    let json = try #require(request.json)
    #expect(json["model"] as? String == "test-model")
    #expect(json["stream"] as? Bool == true)
    let messages = try #require(json["messages"] as? [[String: String]])
    #expect(
      messages == [
        ["role": "system", "content": "Be brief."], ["role": "user", "content": "Hi"],
        ["role": "assistant", "content": "Hello!"], ["role": "user", "content": "Say something"],
      ])
  }

  @Test func anthropicStreamWithCRLFAndPings() async throws {
    let text = Wire.anthropicStream(["Hé", "llo ", "😀"]).replacingOccurrences(of: "\n", with: "\r\n")
    let server = try LocalModelServer([[Wire.eventStreamHead] + Wire.pieces(text, size: 5) + [.end]])
    let source = ModelReplySource(endpoint: endpoint(.anthropic, server, system: "Be brief."))
    let result = await collect(source.stream(history: history()))
    #expect(result.error == nil)
    #expect(result.text == "Héllo 😀")
    let request = try #require(server.requests.first)
    #expect(request.path == "/v1/messages")
    #expect(request.headers["x-api-key"] == testKey)
    #expect(request.headers["anthropic-version"] == "2023-06-01")
    #expect(request.headers["authorization"] == nil)
    let json = try #require(request.json)
    #expect(json["system"] as? String == "Be brief.")
    #expect(json["max_tokens"] as? Int == 4096)
    #expect((json["messages"] as? [[String: String]])?.count == 3)
  }

  @Test func closeDelimitedBodyWithoutChunking() async throws {
    let server = try LocalModelServer([
      [
        .head(status: 200, headers: [("Content-Type", "text/event-stream")], chunked: false),
        .text(Wire.openAIStream(["ok"])),
      ]
    ])
    let result = await collect(ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: history()))
    #expect(result.error == nil)
    #expect(result.text == "ok")
  }

  /// The first words show while the server is still thinking about the rest: the server sends
  /// the rest only after the client has passed the first chunk on (checked by order, not time).
  @Test func chunksArriveAsTheyAreSent() async throws {
    let gate = LocalModelServer.Gate()
    let server = try LocalModelServer(
      [
        [
          Wire.eventStreamHead, .text(Wire.openAIChunk("first ")), .waitForGate(gate, 20),
          .text(Wire.openAIChunk("second")),
        ] + [.text(Wire.openAIChunk("", finish: "stop") + "data: [DONE]\n\n"), .end]
      ])
    var chunks: [String] = []
    for try await chunk in ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: history()) {
      if chunks.isEmpty { gate.open() }
      chunks.append(chunk)
    }
    #expect(chunks.joined() == "first second")
    #expect(chunks.first == "first ")
    #expect(!gate.didTimeOut, "the first chunk was held back until the server went on")
  }

  /// Stop cancels the request: the server, which keeps the stream open (well inside the idle
  /// timeout, so nothing else would end it), sees the client close the connection. Checked by
  /// the event, not by how many milliseconds it took.
  @MainActor @Test func stopClosesTheConnection() async throws {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIChunk("partial")), .waitForClose(40)]])
    let thread = ChatThread(reply: ModelReplySource(endpoint: endpoint(.openai, server)).reply)
    try thread.send("Hi")
    try await waitUntil { thread.messages.last?.text == "partial" }
    #expect(server.clientCloses.isEmpty)
    thread.stop()
    try await waitUntil { !server.clientCloses.isEmpty }
    #expect(server.clientCloses.count == 1)
    let last = try #require(thread.messages.last)
    #expect(last.state == .stopped)
    #expect(last.text == "partial")
  }

  /// A consumer whose task is cancelled: its loop ends without an error (an `AsyncThrowingStream`
  /// cannot throw once its consumer is cancelled), the task knows it was cancelled, and the
  /// request's connection closes.
  @Test func cancellingTheConsumerEndsItsLoopAndClosesTheConnection() async throws {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIChunk("partial")), .waitForClose(40)]])
    let stream = ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: history())
    let (firstChunk, arrived) = AsyncStream<Void>.makeStream()
    let consumer = Task { () -> (chunks: [String], error: (any Error)?, cancelled: Bool) in
      var chunks: [String] = []
      do {
        for try await chunk in stream {
          chunks.append(chunk)
          arrived.yield()
        }
      } catch {
        return (chunks, error, Task.isCancelled)
      }
      return (chunks, nil, Task.isCancelled)
    }
    for await _ in firstChunk { break }
    consumer.cancel()
    let result = await consumer.value
    #expect(result.chunks == ["partial"])
    #expect(result.error == nil)
    #expect(result.cancelled)
    for _ in 0..<500 where server.clientCloses.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    #expect(server.clientCloses.count == 1)
  }

  /// A long conversation goes out at once (no `Expect: 100-continue`, which would have the
  /// client wait for the server's go-ahead) and whole.
  @Test func longHistoryIsSentWhole() async throws {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIStream(["ok"])), .end]])
    let long = String(repeating: "wörd ", count: 200_000)
    var messages = history()
    messages[0].text = long
    let result = await collect(ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: messages))
    #expect(result.text == "ok")
    let sent = try #require(server.requests.first?.json?["messages"] as? [[String: String]])
    #expect(sent.first?["content"] == long)
    #expect(server.requests.first?.headers["expect"] == nil)
  }

  @Test func ollamaStyleServerWithoutKey() async throws {
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIStream(["local"])), .end]])
    var endpoint = endpoint(.openai, server)
    endpoint.apiKey = nil
    let result = await collect(ModelReplySource(endpoint: endpoint).stream(history: history()))
    #expect(result.text == "local")
    #expect(server.requests.first?.headers["authorization"] == nil)
  }
}

/// Polls `condition` every 10 ms, `seconds` worth of polls. The bound is a count of polls, not a
/// deadline: a test held back while other tests keep the main actor busy still gets every poll.
@MainActor
func waitUntil(seconds: Double = 5, _ condition: () -> Bool) async throws {
  for _ in 0..<Int(seconds * 100) {
    if condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  if condition() { return }
  Issue.record("timed out waiting")
}
