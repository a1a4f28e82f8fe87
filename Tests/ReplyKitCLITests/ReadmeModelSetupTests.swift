import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

@testable import replykit

/// The README's model setup (the `sh` block for OpenAI, Ollama and Anthropic, and the config
/// file example) is what `replykit chat` does: each line resolves to the server, model and key
/// it says, and the Ollama line streams a reply from the local server standing in for Ollama.
@Suite(.timeLimit(.minutes(1))) struct ReadmeModelSetupTests {
  /// A fenced block of README.md (indented or not) whose opening line is "```<language>" and
  /// that contains `marker`.
  static func readmeBlock(_ language: String, containing marker: String) throws -> String {
    let readme = try String(
      contentsOf: ReadmeExamplesTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    var blocks: [String] = []
    var current: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```\(language)" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    let matching = blocks.filter { $0.contains(marker) }
    try #require(matching.count == 1, "README.md has one \(language) block with \(marker)")
    return matching[0]
  }

  /// The words of a shell line: single quotes group, `#` after a space starts a comment.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var word: String?
    var quoted = false
    for character in line {
      if quoted {
        if character == "'" { quoted = false } else { word?.append(character) }
      } else if character == "'" {
        quoted = true
        word = word ?? ""
      } else if character == " " {
        if let done = word { words.append(done) }
        word = nil
      } else if character == "#", word == nil {
        break
      } else {
        word = (word ?? "") + String(character)
      }
    }
    if let done = word { words.append(done) }
    return words
  }

  /// Each `replykit chat` line of the setup block, with the variables exported above it (as a
  /// shell reading the block would have them), in order.
  static func setupLines() throws -> [(arguments: [String], exported: [String: String])] {
    var exported: [String: String] = [:]
    var lines: [(arguments: [String], exported: [String: String])] = []
    for line in try readmeBlock("sh", containing: "export OPENAI_API_KEY").split(separator: "\n") {
      let words = Self.words(String(line))
      if words.first == "export", let assignment = words.dropFirst().first, let equals = assignment.firstIndex(of: "=")
      {
        exported[String(assignment[..<equals])] = "key-for-\(assignment[..<equals])"
      } else if words.starts(with: ["replykit", "chat"]) {
        lines.append((Array(words.dropFirst(2)), exported))
      }
    }
    return lines
  }

  /// An empty config home, so the machine's config file is not read.
  static let configHome: String = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rk-readme-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }()

  static func endpoint(_ arguments: [String], _ environment: [String: String]) throws -> ModelEndpoint? {
    try ChatOptions.parse(arguments, environment: environment.merging(["XDG_CONFIG_HOME": configHome]) { $1 })?.model
  }

  @Test func setupLinesReachTheServersTheySay() throws {
    let lines = try Self.setupLines()
    try #require(lines.count == 3)

    let openAI = try #require(try Self.endpoint(lines[0].arguments, lines[0].exported))
    #expect(openAI.api == .openai)
    #expect(openAI.requestURL.absoluteString == "https://api.openai.com/v1/chat/completions")
    #expect(openAI.model == "gpt-4o-mini")
    #expect(openAI.apiKeySource == "OPENAI_API_KEY")
    #expect(openAI.apiKey == ModelAPIKey("key-for-OPENAI_API_KEY"))

    // Ollama needs no key: the line works in a shell that exported none, and the OpenAI key
    // exported above it is not sent to it.
    #expect(lines[1].exported["OPENAI_API_KEY"] != nil)
    #expect(try Self.endpoint(lines[1].arguments, lines[1].exported)?.apiKey == nil)
    let ollama = try #require(try Self.endpoint(lines[1].arguments, [:]))
    #expect(ollama.api == .openai)
    #expect(ollama.requestURL.absoluteString == "http://localhost:11434/v1/chat/completions")
    #expect(ollama.model == "llama3.2")
    #expect(ollama.apiKey == nil)

    let anthropic = try #require(try Self.endpoint(lines[2].arguments, lines[2].exported))
    #expect(anthropic.api == .anthropic)
    #expect(anthropic.requestURL.absoluteString == "https://api.anthropic.com/v1/messages")
    #expect(anthropic.model == "claude-sonnet-4-5")
    #expect(anthropic.apiKeySource == "ANTHROPIC_API_KEY")
    #expect(anthropic.apiKey == ModelAPIKey("key-for-ANTHROPIC_API_KEY"))
    #expect(anthropic.systemPrompt == "Answer briefly.")

    // Without the export, the hosted servers' lines say which variable to set.
    let noOpenAIKey = #expect(throws: CLIError.self) { try Self.endpoint(lines[0].arguments, [:]) }
    #expect(noOpenAIKey?.message.contains("api.openai.com needs a key: set $OPENAI_API_KEY") == true)
    let noAnthropicKey = #expect(throws: CLIError.self) { try Self.endpoint(lines[2].arguments, [:]) }
    #expect(noAnthropicKey?.message.contains("api.anthropic.com needs a key: set $ANTHROPIC_API_KEY") == true)
  }

  @Test func theOllamaLineStreamsAReply() throws {
    let ollama = try #require(try Self.setupLines().first { $0.arguments.contains("http://localhost:11434/v1") })
    let server = try LocalModelServer([
      [Wire.eventStreamHead] + Wire.pieces(Wire.openAIStream(["Hello ", "from **llama**"]), size: 13) + [.end]
    ])
    let arguments = ollama.arguments.map {
      $0 == "http://localhost:11434/v1" ? server.openAIBaseURL.absoluteString : $0
    }
    let directory = URL(fileURLWithPath: Self.configHome)
    let thread = directory.appendingPathComponent("ollama-thread.json")
    try Data(
      #"{"messages": [{"id": "\#(UUID().uuidString)", "role": "user", "text": "Hi?", "date": "2025-01-01T10:00:00Z", "state": "complete"}]}"#
        .utf8
    ).write(to: thread)
    let result = try CLIRunner.run(
      ["chat"] + arguments + ["--thread", thread.path],
      environment: ["XDG_CONFIG_HOME": Self.configHome, "OPENAI_API_KEY": "", "NO_COLOR": "1"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Hello from llama"))
    let request = try #require(server.requests.first)
    #expect(request.path == "/v1/chat/completions")
    #expect(request.json?["model"] as? String == "llama3.2")
    #expect(request.headers["authorization"] == nil)
  }

  @Test func theConfigExampleNamesTheModelsItSays() throws {
    let json = try Self.readmeBlock("json", containing: "\"default_model\"")
    let config = try ModelConfigFile.parse(Data(json.utf8), name: "config.json")
    let local = try #require(try ModelChoice.endpoint(ModelChoice.Arguments(), config: config, environment: [:]))
    #expect(local.requestURL.absoluteString == "http://localhost:11434/v1/chat/completions")
    #expect(local.model == "llama3.2")
    #expect(local.systemPrompt == "Answer briefly.")
    #expect(local.timeouts.idle == 120)
    let claude = try #require(
      try ModelChoice.endpoint(
        ModelChoice.Arguments(model: "claude"), config: config, environment: ["ANTHROPIC_API_KEY": "k"]))
    #expect(claude.api == .anthropic)
    #expect(claude.model == "claude-sonnet-4-5")
    #expect(claude.maxTokens == 8192)
    #expect(claude.requestURL.absoluteString == "https://api.anthropic.com/v1/messages")
  }
}
