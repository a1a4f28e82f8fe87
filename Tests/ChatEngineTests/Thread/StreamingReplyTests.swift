import ChatEngine
import Foundation
import ReplyMarkdown
import Testing

@MainActor
@Suite("The streaming reply's rendering")
struct StreamingReplyTests {
  @Test func theEngineRendersTheStreamingReplyAndDropsItAtTheEnd() async throws {
    let h = Harness(publishInterval: 0)
    #expect(h.thread.streamingReply == nil)
    try h.thread.send("Q")
    let id = try #require(h.last?.id)
    #expect(h.thread.streamingReply?.messageID == id)
    var shown = ""
    for chunk in ["Here is **bo", "ld** text and `co", "de`."] {
      let revision = h.thread.replyRevision
      h.source.yield(chunk)
      #expect(await until { h.thread.replyRevision > revision })
      let reply = try #require(h.thread.streamingReply)
      #expect(!reply.html.contains("**"))  // healed: no raw markers flash
      #expect(reply.stream.text == h.last?.text)
      let edit = try #require(reply.lastEdit)
      shown = String(decoding: Array(shown.utf8.prefix(edit.keep)) + Array(edit.appended.utf8), as: UTF8.self)
      #expect(shown == reply.html)
    }
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.thread.streamingReply == nil)
    let text = try #require(h.last?.text)
    #expect(HTMLRenderer().render(MarkdownDocument(text)) == shown)
  }

  @Test func regenerateStartsAFreshRenderingAndStopDropsIt() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    h.source.yield("first")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    try h.thread.regenerate(try #require(h.last?.id))
    let reply = try #require(h.thread.streamingReply)
    #expect(reply.messageID == h.last?.id)
    #expect(reply.html.isEmpty)
    h.source.yield("second")
    #expect(await until { h.thread.streamingReply?.html == "<p>second</p>\n" })
    h.thread.stop()
    #expect(h.thread.streamingReply == nil)
  }

  @Test func noRenderingWhenTheEnvironmentAsksForNone() async throws {
    let thread = ChatThread(
      environment: ChatEnvironment(streamingHTML: nil),
      reply: { _ in AsyncThrowingStream { _ in } })
    try thread.send("Q")
    #expect(thread.isStreaming)
    #expect(thread.streamingReply == nil)
    thread.stop()
  }
}

@Suite("Nonisolated access")
struct NonisolatedAccessTests {
  /// Built and read off the main actor: this compiles only because the environment is
  /// `Sendable` and the anchor id is nonisolated.
  @Test nonisolated func anEnvironmentIsMadeOffTheMainActorAndTheAnchorReadThere() async throws {
    let made = await Task.detached { () -> ChatEnvironment in
      var environment = ChatEnvironment(publishInterval: 0.5)
      environment.copiedDuration = 2
      return environment
    }.value
    #expect(made.copiedDuration == 2)
    let anchor = await Task.detached { ChatThread.latestID }.value
    #expect(anchor == "ChatThread.latest")
    let thread = await MainActor.run {
      ChatThread(environment: made, reply: { _ in AsyncThrowingStream { $0.finish() } })
    }
    #expect(await thread.environment.publishInterval == 0.5)
  }
}
