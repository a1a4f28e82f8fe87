import Testing

@testable import replykit

/// What the composer's text means: a command, a message, or a command that is not one.
@Suite struct SlashCommandTests {
  /// Text that starts with `/` but is not a command is never run (the chat keeps it), and says
  /// how to send it.
  @Test func unknownCommandsAreInvalidAndSayHowToSendTheText() {
    let parsed = SlashCommand.parse("/etc/hosts has a weird line, can you explain")
    #expect(
      parsed == .invalid("Unknown command /etc/hosts: /help lists them. " + SlashCommand.sendingSlash))
    #expect(SlashCommand.sendingSlash.contains("//"))
  }

  /// `/exit codes in bash: what does 137 mean?` quit the chat at once.
  @Test(arguments: [
    "/exit codes in bash: what does 137 mean?", "/q is a letter", "/quit now please", "/help me with this",
    "/? what", "/regenerate it longer", "/retry again",
  ])
  func commandsThatTakeNothingRefuseArguments(text: String) throws {
    let name = try #require(text.split(separator: " ").first)
    #expect(SlashCommand.parse(text) == .invalid("\(name) takes nothing after it. " + SlashCommand.sendingSlash))
  }

  @Test func commandsWithoutArgumentsStillRun() {
    for quit in ["/quit", " /exit ", "/q"] { #expect(SlashCommand.parse(quit) == .quit) }
    #expect(SlashCommand.parse("/help") == .help)
    #expect(SlashCommand.parse("/?") == .help)
    #expect(SlashCommand.parse("/regenerate") == .regenerate)
  }

  @Test func aDoubleSlashSendsTheTextWithOneSlash() {
    #expect(SlashCommand.parse("//etc/hosts has a weird line") == nil)
    #expect(SlashCommand.message(from: "//etc/hosts has a weird line") == "/etc/hosts has a weird line")
    #expect(SlashCommand.helpLines.contains { $0.contains("//text") })
  }

  /// `/edit` puts a message back as it must be typed, so Enter sends it again.
  @Test(arguments: ["/etc/hosts is odd", "plain", "a /slash later", " /spaced"])
  func aMessageTypedBackSendsTheSameMessage(message: String) {
    let typed = SlashCommand.typed(message)
    #expect(SlashCommand.parse(typed) == nil)
    #expect(SlashCommand.message(from: typed) == message.trimmingWhitespace() || typed == message)
  }
}
