import Foundation
import Testing

/// `replykit chat` without a terminal: the Example printed, the follow-up streamed, exit 0.
@Suite struct ChatTranscriptTests {
  @Test func printsTheExampleConversationInAPipe() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "0", "--width", "80"], environment: ["NO_COLOR": "1"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let output = result.stdout
    #expect(output.contains("Today"))
    #expect(output.contains("How do I run work in the background in Swift"))
    #expect(output.contains("Can you give me a template"))
    #expect(output.contains(" │ struct ItemsScreen: View {"))
    #expect(output.hasSuffix("\n Swap ItemStore for your own type and you are done.\n"))
    #expect(!output.contains("\u{1B}"))
    #expect(output.split(separator: "\n").allSatisfy { $0.count <= 80 && !$0.hasSuffix(" ") })
  }

  @Test func colourFollowsTheColorOption() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "0", "--color", "always"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\u{1B}["))
  }

  @Test func badOptionsAreUsageErrors() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "fast"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--pace-ms must be a whole number"))
  }
}
