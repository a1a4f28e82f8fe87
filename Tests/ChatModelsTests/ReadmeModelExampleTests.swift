import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// The README's model example, verbatim, run against the local server.
@MainActor
func modelThread(baseURL: URL, keyVariable: String?) -> ChatThread {
  // The endpoint sends the key it is given to the URL it is given: pick them together.
  let key = keyVariable.flatMap { ProcessInfo.processInfo.environment[$0] }.flatMap(ModelAPIKey.init)
  let endpoint = ModelEndpoint(
    api: .openai, baseURL: baseURL, model: "llama3.2", apiKey: key, apiKeySource: keyVariable,
    systemPrompt: "Answer briefly.", timeouts: ModelTimeouts(connect: 30, idle: 60))
  return ChatThread(reply: ModelReplySource(endpoint: endpoint).reply)
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeModelExampleTests {
  @Test func readmeModelExampleIsThisCode() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: here, encoding: .utf8)
    let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
      .compactMap { $0.components(separatedBy: "\n```").first }
      .filter { $0.contains("import ChatModels") }
    #expect(blocks.count == 1)
    for block in blocks {
      for line in block.split(separator: "\n") where !line.isEmpty {
        #expect(source.contains(line), "README line not in the compiled example: \(line)")
      }
    }
  }

  @MainActor @Test func theReadmeExampleStreams() async throws {
    let server = try LocalModelServer([
      [Wire.eventStreamHead, .text(Wire.openAIStream(["Sure, ", "**done**."])), .end]
    ])
    let thread = modelThread(baseURL: server.openAIBaseURL, keyVariable: nil)
    try thread.send("Do it")
    try await waitUntil { !thread.isStreaming }
    #expect(thread.messages.last?.text == "Sure, **done**.")
    #expect(thread.messages.last?.state == .complete)
  }
}
