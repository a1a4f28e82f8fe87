import ChatEngine
import Foundation
import Testing

@MainActor
@Suite("Streaming a reply")
struct StreamingTests {
  @Test func sendStartsAReplyWithTheHistoryAndShowsThinking() async throws {
    let h = Harness()
    try h.thread.send("Hello?")
    #expect(h.thread.messages.map(\.role) == [.user, .assistant])
    #expect(h.source.calls.count == 1)
    #expect(h.source.last?.history.map(\.text) == ["Hello?"])
    #expect(h.last?.state == .streaming)
    #expect(h.thread.turn(at: 1).isThinking)
    #expect(h.thread.turn(at: 1).showsStop)
    #expect(h.thread.turn(at: 1).actions == nil)
    h.source.yield("Hi")
    #expect(await until { h.last?.text == "Hi" })
    #expect(!h.thread.turn(at: 1).isThinking)
    #expect(h.thread.turn(at: 1).showsStop)
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.thread.turn(at: 1).actions?.canRegenerate == true)
    #expect(!h.thread.turn(at: 1).showsStop)
    #expect(h.recorder.announcements == [.replyFinished])
  }

  @Test func emptyOrBlankSendChangesNothing() throws {
    let h = Harness()
    #expect(throws: ChatActionError.emptyMessage) { try h.thread.send("") }
    #expect(throws: ChatActionError.emptyMessage) { try h.thread.send(" \n\t") }
    #expect(h.thread.messages.isEmpty)
    #expect(h.source.calls.isEmpty)
  }

  @Test func aThreadEndingWithThePersonsTurnStartsAReply() throws {
    let question = ChatMessage(id: testID(99), role: .user, text: "Q", date: referenceDate)
    let h = Harness(messages: [question])
    #expect(h.source.calls.count == 1)
    #expect(h.source.last?.history == [question])
    #expect(h.last?.state == .streaming)
  }

  @Test func stopKeepsExactlyTheChunksReceivedAndCancelsTheStream() async throws {
    let h = Harness(publishInterval: 10)
    try h.thread.send("Q")
    h.source.yield("one ")
    h.source.yield("two ")
    // The second chunk is held by coalescing, but it was received: Stop must keep it.
    #expect(await until { h.recorder.updates.count == 1 })
    await settle()
    h.thread.stop()
    #expect(h.last?.text == "one two ")
    #expect(h.last?.state == .stopped)
    #expect(await until { h.source.last?.terminated.isSet == true })
    h.source.yield("three")
    h.source.finish()
    await settle()
    #expect(h.last?.text == "one two ")
    #expect(h.last?.state == .stopped)
    #expect(h.thread.turn(at: 1).isStopped)
    #expect(h.thread.turn(at: 1).actions != nil)
    #expect(h.recorder.announcements.isEmpty)
  }

  @Test func stopDuringThinkingLeavesAnEmptyStoppedReply() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.thread.stop()
    #expect(h.last?.text == "")
    #expect(h.last?.state == .stopped)
    #expect(await until { h.source.last?.terminated.isSet == true })
    h.source.yield("late")
    await settle()
    #expect(h.last?.text == "")
    #expect(h.last?.state == .stopped)
  }

  @Test(arguments: [0, 1, 3])
  func throwAfterKChunksKeepsThemAndShowsTheError(k: Int) async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    for index in 0..<k { h.source.yield("c\(index) ") }
    h.source.fail(TestFailure())
    #expect(await until { h.last?.state != .streaming })
    #expect(h.last?.text == (0..<k).map { "c\($0) " }.joined())
    #expect(h.last?.state == .failed("The model is overloaded."))
    let turn = h.thread.turn(at: 1)
    #expect(turn.failure == "The model is overloaded.")
    #expect(turn.canRetry)
    #expect(turn.actions == nil)
    #expect(h.recorder.announcements == [.replyFailed("The model is overloaded.")])
    #expect(h.recorder.haptics == [.failure])
  }

  @Test func anErrorWithoutDescriptionShowsTheDefaultMessage() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.fail(UndescribedFailure())
    #expect(await until { h.last?.state == .failed(ChatMessage.defaultFailureMessage) })
  }

  @Test func anEmptyStreamFails() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.yield("")
    h.source.finish()
    #expect(await until { h.last?.state != .streaming })
    #expect(h.last?.state == .failed("The reply didn't finish. Try again."))
    #expect(h.recorder.haptics == [.failure])
  }

  @Test func aCancellationErrorTheModelThrowsIsAFailureNotAStop() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    h.source.yield("part")
    h.source.fail(CancellationError())
    #expect(await until { h.last?.state != .streaming })
    // Only the person's Stop means Stopped.
    #expect(h.last?.state == .failed(ChatMessage.defaultFailureMessage))
    #expect(h.last?.text == "part")
    #expect(h.recorder.haptics == [.failure])
    let id = try #require(h.last?.id)
    #expect(h.thread.failureError(for: id) is CancellationError)
  }

  @Test func aFailedReplyKeepsItsErrorAlsoAsAnEarlierVersion() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.fail(TestFailure())
    #expect(await until { h.last?.state != .streaming })
    let failed = try #require(h.last?.id)
    // The string is what shows (and is saved); the error is there for the app.
    #expect(h.last?.state == .failed("The model is overloaded."))
    #expect(h.thread.failureError(for: failed) as? TestFailure == TestFailure())
    #expect(h.thread.failureError(for: h.thread.messages[0].id) == nil)
    try h.thread.retry(failed)
    // Retry keeps the failed reply as version 1, and its error with it.
    #expect(h.thread.failureError(for: failed) as? TestFailure == TestFailure())
    h.source.finish()
    #expect(await until { h.last?.state != .streaming })
    // Ended empty: failed with the default message, and no error was thrown.
    #expect(h.thread.failureError(for: try #require(h.last?.id)) == nil)
  }

  @Test func theUsersStopIsStoppedEvenIfTheStreamThenThrowsCancellation() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    h.source.yield("part")
    #expect(await until { h.last?.text == "part" })
    h.thread.stop()
    h.source.fail(CancellationError())
    await settle()
    #expect(h.last?.state == .stopped)
    #expect(h.thread.failureError(for: try #require(h.last?.id)) == nil)
  }

  @Test func sendWhileStreamingStopsTheReplyFirst() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("First")
    h.source.yield("partial")
    #expect(await until { h.last?.text == "partial" })
    try h.thread.send("Second")
    #expect(h.thread.messages.map(\.text) == ["First", "partial", "Second", ""])
    #expect(h.thread.messages[1].state == .stopped)
    #expect(h.source.calls.count == 2)
    #expect(h.source.calls[1].history.map(\.text) == ["First", "partial", "Second"])
    #expect(await until { h.source.calls[0].terminated.isSet })
    // The superseded stream can neither write nor end the new reply.
    h.source.calls[0].continuation.yield("stale")
    h.source.calls[0].continuation.finish(throwing: TestFailure())
    await settle()
    #expect(h.thread.messages[1].text == "partial")
    #expect(h.thread.messages[1].state == .stopped)
    #expect(h.last?.state == .streaming)
    h.source.yield("answer")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.last?.text == "answer")
    #expect(h.thread.messages.filter { $0.state == .streaming }.isEmpty)
  }

  @Test func replyFinishedWaitsForTheEnd() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.yield("A")
    h.source.finish()
    await h.thread.replyFinished()
    #expect(h.last?.state == .complete)
    #expect(h.last?.text == "A")
  }

  @Test func droppingTheThreadCancelsItsStream() async throws {
    let source = ReplySource()
    var thread: ChatThread? = ChatThread(
      environment: ChatEnvironment(clock: ManualClock(referenceDate)), reply: { source.make($0) })
    try thread?.send("Q")
    await settle()
    #expect(source.last?.terminated.isSet == false)
    thread = nil
    #expect(await until { source.last?.terminated.isSet == true })
  }
}
