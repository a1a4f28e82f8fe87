import Foundation
import ReplyKitTestSupport
import Testing

/// `replykit chat --model …` full screen in tmux, against the local model server: replies
/// stream in, Stop hangs up the request, errors show in place with Retry, and the key never
/// reaches the screen.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ChatModelTerminalTests {
  static let key = "sk-tmux-test-0123456789abcdef"

  /// A config home with no config file in it, so the machine's config file is not read.
  static let configHome = "/nonexistent/replykit-test-config"

  /// The role and text of each message a request sent.
  static func turns(_ request: LocalModelServer.Request?) -> [String] {
    let messages = request?.json?["messages"] as? [[String: Any]] ?? []
    return messages.map { "\($0["role"] as? String ?? "?"): \($0["content"] as? String ?? "?")" }
  }

  @Test func openAIStreamsStopsAndRetriesAnErrorInPlace() throws {
    let server = try LocalModelServer(
      [
        // A reply that streams, then waits for the client to hang up (Stop).
        [
          Wire.eventStreamHead, .text(Wire.openAIChunk("Streaming **slowly**")), .pause(0.2),
          .text(Wire.openAIChunk(" and more")), .waitForClose(20),
        ],
        // The server fails.
        [.head(status: 503, chunked: false), .text("{\"error\":{\"message\":\"overloaded, come back\"}}")],
        // Retry: a reply in 7-byte pieces, a code block in it.
        [Wire.eventStreamHead] + Wire.pieces(Wire.openAIStream(["Fine: ", "\n\n```sh\nls -l\n```\n"]), size: 7)
          + [.end],
      ])
    let session = try TmuxSession(
      ["--model", "gpt-test", "--base-url", server.openAIBaseURL.absoluteString, "--api-key-env", "OPENAI_API_KEY"],
      environment: ["OPENAI_API_KEY": Self.key, "XDG_CONFIG_HOME": Self.configHome])
    try session.submit("Tell me slowly")
    let streaming = try session.waitFor("and more")
    #expect(streaming.contains("Streaming slowly and more"))
    #expect(streaming.contains("■ Stop"))
    try session.press("Escape")
    let stopped = try session.waitFor("Stopped")
    #expect(!stopped.contains("■ Stop"))
    #expect(stopped.contains("#1 · Copy"))
    // Stop hangs up the request at once (the server sees the connection close).
    let deadline = Date().addingTimeInterval(5)
    while server.clientCloses.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    #expect(server.clientCloses.count == 1)
    // A real source starts empty: the first request holds only what was typed.
    #expect(Self.turns(server.requests.first) == ["user: Tell me slowly"])

    try session.submit("Again")
    let failed = try session.waitFor("The server failed (503)")
    #expect(failed.contains("try again. Server: overloaded, come back"))
    #expect(failed.contains("#2 · ↻ Retry /retry"))
    try session.submit("/retry")
    let done = try session.waitFor("#2 · Copy")
    #expect(done.contains("Fine:"))
    #expect(done.contains("sh · code 1"))
    #expect(!done.contains("The server failed"))

    #expect(server.requests.count == 3)
    // The history is the thread as shown: the stopped reply as far as it got; the failed one left out.
    #expect(
      Self.turns(server.requests.last) == [
        "user: Tell me slowly", "assistant: Streaming **slowly** and more", "user: Again",
      ])
    for request in server.requests {
      #expect(request.headers["authorization"] == "Bearer \(Self.key)")
      #expect(request.json?["model"] as? String == "gpt-test")
    }
    try session.submit("/quit")
    let after = try session.waitFor("EXITED 0")
    #expect(after.contains("replykit: 4 messages, not saved"))
    #expect(!(try session.scrollback()).contains(Self.key))
  }

  @Test func anthropicStreamsAndARefusedKeyShowsInPlace() throws {
    let server = try LocalModelServer(
      [
        // Pieces of 5 bytes: boundaries inside events, lines and UTF-8 characters.
        [Wire.eventStreamHead] + Wire.pieces(Wire.anthropicStream(["Bonjour ", "à **vous** — ", "ça va ?"]), size: 5)
          + [.end],
        [
          .head(status: 401, chunked: false),
          .text("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}"),
        ],
      ])
    let session = try TmuxSession(
      [
        "--api", "anthropic", "--model", "claude-test", "--base-url", server.anthropicBaseURL.absoluteString,
        "--system", "Be brief.", "--api-key-env", "ANTHROPIC_API_KEY", "--thread", "thread.json",
      ],
      environment: ["ANTHROPIC_API_KEY": Self.key, "XDG_CONFIG_HOME": Self.configHome])
    try session.submit("Salut")
    let reply = try session.waitFor("#1 · Copy")
    #expect(reply.contains("Bonjour à vous — ça va ?"))
    try session.submit("Encore")
    let refused = try session.waitFor("refused the API key (401)")
    #expect(refused.contains("check the key in $ANTHROPIC_API_KEY."))
    #expect(refused.contains("↻ Retry"))

    let first = try #require(server.requests.first)
    #expect(first.path == "/v1/messages")
    #expect(first.headers["x-api-key"] == Self.key)
    #expect(first.json?["system"] as? String == "Be brief.")
    #expect(first.json?["model"] as? String == "claude-test")
    #expect(
      Self.turns(server.requests.last) == ["user: Salut", "assistant: Bonjour à **vous** — ça va ?", "user: Encore"])
    try session.press("C-c")
    try session.waitFor("EXITED 0")
    let saved = try String(contentsOf: session.directory.appendingPathComponent("thread.json"), encoding: .utf8)
    #expect(saved.contains("refused the API key"))
    #expect(!saved.contains(Self.key))
    #expect(!(try session.scrollback()).contains(Self.key))
  }
}
