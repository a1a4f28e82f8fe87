import Foundation
import ReplyKitTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit chat --model …` end to end, without a terminal: a thread file that ends with the
/// person's turn gets its reply streamed from the local server, printed and saved.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ChatModelCommandTests {
  @Test func openAIModelRepliesAndTheKeyStaysSecret() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let server = try LocalModelServer([
      [Wire.eventStreamHead] + Wire.pieces(Wire.openAIStream(["Hi ", "**there**"]), size: 9) + [.end]
    ])
    let result = try runner.run(
      [
        "chat", "--model", "gpt-test", "--base-url", server.openAIBaseURL.absoluteString, "--system", "Be kind.",
        "--api-key-env", "OPENAI_API_KEY", "--thread", thread,
      ],
      environment: ["OPENAI_API_KEY": testKey])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Hi there"))
    let saved = runner.read("thread.json")
    #expect(saved.contains("Hi **there**"))
    for text in [result.stdout, result.stderr, saved] { #expect(!text.contains(testKey)) }
    let request = try #require(server.requests.first)
    #expect(request.headers["authorization"] == "Bearer \(testKey)")
    let messages = try #require(request.json?["messages"] as? [[String: String]])
    #expect(messages == [["role": "system", "content": "Be kind."], ["role": "user", "content": "Hello?"]])
    #expect(request.json?["model"] as? String == "gpt-test")
  }

  @Test func anthropicModelNamedInTheConfigFile() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let server = try LocalModelServer([
      [Wire.eventStreamHead] + Wire.pieces(Wire.anthropicStream(["Bonjour ", "à vous"]), size: 11) + [.end]
    ])
    try runner.write(
      "replykit/config.json",
      "{\"system\": \"Be brief.\", \"models\": {\"claude\": {\"api\": \"anthropic\", \"base_url\": \"\(server.anthropicBaseURL.absoluteString)\", \"model\": \"claude-test\", \"api_key_env\": \"MY_KEY\"}}}"
    )
    let result = try runner.run(["chat", "--model", "claude", "--thread", thread], environment: ["MY_KEY": testKey])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Bonjour à vous"))
    let request = try #require(server.requests.first)
    #expect(request.headers["x-api-key"] == testKey)
    #expect(request.json?["model"] as? String == "claude-test")
    #expect(request.json?["system"] as? String == "Be brief.")
  }

  @Test func unauthorizedFailsInPlaceWithoutTheKey() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let body = "{\"error\":{\"message\":\"Incorrect API key provided: \(testKey)\",\"type\":\"invalid_request_error\"}}"
    let server = try LocalModelServer([[.head(status: 401), .text(body), .end]])
    let result = try runner.run(
      [
        "chat", "--model", "m", "--base-url", server.openAIBaseURL.absoluteString, "--api-key-env", "OPENAI_API_KEY",
        "--thread", thread,
      ],
      environment: ["OPENAI_API_KEY": testKey])
    #expect(result.status == 1)
    #expect(result.stdout.contains("The server refused the API key (401): check the key in $OPENAI_API_KEY."))
    let saved = runner.read("thread.json")
    #expect(saved.contains("refused the API key"))
    for text in [result.stdout, result.stderr, saved] {
      #expect(!text.contains(testKey))
      #expect(!text.contains("ABCDEFGH"))
    }
  }

  /// $OPENAI_API_KEY and $ANTHROPIC_API_KEY go to the providers' servers only: another server
  /// gets a key only from a variable named for it.
  @Test func theDefaultKeyGoesNowhereElse() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let server = try LocalModelServer([
      [.head(status: 401, chunked: false), .text("{\"error\":{\"message\":\"key required\"}}")],
      [.head(status: 401, chunked: false), .text("{\"type\":\"error\",\"error\":{\"message\":\"key required\"}}")],
    ])
    let openAI = try runner.run(
      ["chat", "--model", "m", "--base-url", server.openAIBaseURL.absoluteString, "--thread", thread],
      environment: ["OPENAI_API_KEY": testKey, "ANTHROPIC_API_KEY": testKey])
    #expect(openAI.status == 1)
    #expect(openAI.stdout.contains("The server asks for an API key (401) and none was sent. Server: key required"))
    try runner.threadFile(asking: "Hello?")
    let anthropic = try runner.run(
      [
        "chat", "--api", "anthropic", "--model", "m", "--base-url", server.anthropicBaseURL.absoluteString, "--thread",
        thread,
      ],
      environment: ["OPENAI_API_KEY": testKey, "ANTHROPIC_API_KEY": testKey])
    #expect(anthropic.status == 1)
    #expect(anthropic.stdout.contains("none was sent"))
    #expect(server.requests.count == 2)
    for request in server.requests {
      #expect(request.headers["authorization"] == nil)
      #expect(request.headers["x-api-key"] == nil)
    }
  }

  @Test func malformedConfigIsOneLineNamingThePlace() throws {
    let runner = try ReplykitRunner()
    let config = try runner.write("replykit/config.json", "{\"models\": {\"local\": {\"api\": \"gemini\"}}}")
    let result = try runner.run(["chat", "--model", "local"])
    #expect(result.status == 1)
    #expect(
      result.stderr == "replykit: \(config): models.local.api: must be \"openai\" or \"anthropic\", not \"gemini\"\n")
    try runner.write("replykit/config.json", "{\"models\": ")
    let broken = try runner.run(["chat", "--model", "local"])
    #expect(broken.status == 1)
    #expect(broken.stderr.hasPrefix("replykit: \(config): not valid JSON"))
    #expect(broken.stderr.filter { $0 == "\n" }.count == 1)
  }

  @Test func hostedServerWithoutKeyIsAUsageError() throws {
    let runner = try ReplykitRunner()
    let result = try runner.run(["chat", "--model", "gpt-4o"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("api.openai.com needs a key: set $OPENAI_API_KEY"))
  }

  /// Defect 1: a real source never gets the built-in Example conversation.
  @Test func realSourcesStartEmpty() throws {
    let runner = try ReplykitRunner()
    let command = try runner.run(["chat", "--reply-command", "touch ran; echo hi"])
    #expect(command.status == 0)
    #expect(!FileManager.default.fileExists(atPath: runner.path("ran")))
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(Wire.openAIStream(["no"])), .end]], lifetime: 3)
    let model = try runner.run(["chat", "--model", "m", "--base-url", server.openAIBaseURL.absoluteString])
    #expect(model.status == 0)
    Thread.sleep(forTimeInterval: 0.2)
    #expect(server.requests.isEmpty)
  }

  /// Defect 10: a command that prints nothing says so.
  @Test func silentCommandSaysItPrintedNothing() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let result = try runner.run(["chat", "--reply-command", "true", "--thread", thread])
    #expect(result.status == 1)
    #expect(result.stdout.contains("The reply command printed nothing."))
    // Blank space alone is nothing to show either.
    let second = try runner.threadFile("blank.json", asking: "Hello again?")
    let blank = try runner.run([
      "chat", "--reply-command", "printf '  \\n\\n\\t\\302\\240\\343\\200\\200'", "--thread", second,
    ])
    #expect(blank.status == 1)
    #expect(blank.stdout.contains("The reply command printed nothing."), "\(blank.stdout)")
  }

  /// Defect 2: SIGTERM during a reply whose command ignores SIGTERM ends its whole process
  /// group (SIGKILL after the grace period) before replykit exits.
  @Test func sigtermEndsAReplyCommandThatIgnoresIt() throws {
    let runner = try ReplykitRunner()
    let thread = try runner.threadFile(asking: "Hello?")
    let command =
      "trap '' TERM; echo $$ > leader; sh -c 'trap \"\" TERM; echo $$ > child; exec sleep 30' & echo started; wait"
    let (process, _, _) = try runner.start(["chat", "--reply-command", command, "--thread", thread])
    let deadline = Date().addingTimeInterval(10)
    while !(runner.read("child").hasSuffix("\n") && runner.read("leader").hasSuffix("\n")), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    let pids = [runner.read("leader"), runner.read("child")].compactMap {
      pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(pids.count == 2)
    Thread.sleep(forTimeInterval: 0.1)
    let sent = Date()
    kill(process.processIdentifier, SIGTERM)
    while process.isRunning, Date().timeIntervalSince(sent) < 8 { Thread.sleep(forTimeInterval: 0.02) }
    #expect(!process.isRunning)
    #expect(process.terminationStatus == 128 + SIGTERM)
    for pid in pids { #expect(!isAlive(pid), "process \(pid) outlived replykit") }
    let saved = runner.read("thread.json")
    #expect(saved.contains("started"))
  }

  /// Whether `pid` runs (a zombie waiting for its parent to reap it does not).
  private func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let close = stat.lastIndex(of: ")") else { return true }
    return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }
}
