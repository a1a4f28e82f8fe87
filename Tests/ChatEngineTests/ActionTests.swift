import ChatEngine
import Foundation
import Testing

@MainActor
private func finishedThread(_ h: Harness, reply: String = "**Bold** and `code`.") async throws {
  try h.thread.send("Question")
  h.source.yield(reply)
  h.source.finish()
  _ = await until { h.last?.state == .complete }
}

@MainActor
@Suite("Regenerate and Retry")
struct RegenerateRetryTests {
  @Test func regenerateReplacesTheLatestReplyInPlaceWithANewID() async throws {
    let h = Harness()
    try await finishedThread(h)
    let old = h.thread.messages[1]
    try h.thread.regenerate(old.id)
    #expect(h.thread.messages.count == 2)
    #expect(h.last?.id != old.id)
    #expect(h.last?.state == .streaming)
    #expect(h.source.calls.count == 2)
    #expect(h.source.last?.history.map(\.text) == ["Question"])
    h.source.yield("Again")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.last?.text == "Again")
  }

  @Test func regenerateOnlyOnTheLatestFinishedReplyAndNeverWhileStreaming() async throws {
    let h = Harness()
    try await finishedThread(h)
    let first = h.thread.messages[1].id
    try h.thread.send("Next")
    // Streaming: nothing can be regenerated.
    let streaming = try #require(h.last?.id)
    #expect(throws: ChatActionError.replyNotFinished(streaming)) { try h.thread.regenerate(streaming) }
    #expect(throws: ChatActionError.notLatest(first)) { try h.thread.regenerate(first) }
    h.source.yield("x")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    // Older reply: no; user turn: no; failed reply: no (that is Retry).
    #expect(throws: ChatActionError.notLatest(first)) { try h.thread.regenerate(first) }
    #expect(h.thread.turn(at: 1).actions?.canRegenerate == false)
    let user = h.thread.messages[2].id
    #expect(throws: ChatActionError.notLatest(user)) { try h.thread.regenerate(user) }
    let unknown = UUID()
    #expect(throws: ChatActionError.noSuchMessage(unknown)) { try h.thread.regenerate(unknown) }
    #expect(h.thread.turn(at: 3).actions?.canRegenerate == true)
    #expect(h.source.calls.count == 2)
  }

  @Test func retryOnlyOnTheLatestFailedReply() async throws {
    let h = Harness()
    try h.thread.send("Q1")
    h.source.fail(TestFailure())
    #expect(await until { h.last?.state != .streaming })
    let failed = h.thread.messages[1].id
    #expect(throws: ChatActionError.replyNotFinished(failed)) { try h.thread.regenerate(failed) }
    #expect(h.thread.canRetry(failed))
    try h.thread.send("Q2")
    h.source.yield("fine")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    // No longer the latest: the failure shows, Retry does not.
    #expect(throws: ChatActionError.notLatest(failed)) { try h.thread.retry(failed) }
    #expect(h.thread.turn(at: 1).failure == "The model is overloaded.")
    #expect(!h.thread.turn(at: 1).canRetry)
    let complete = h.thread.messages[3].id
    #expect(throws: ChatActionError.replyNotFailed(complete)) { try h.thread.retry(complete) }
    #expect(h.source.calls.count == 2)
  }

  @Test func retryReplacesTheFailedReply() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.finish()
    #expect(await until { h.last?.state != .streaming })
    let failed = h.thread.messages[1].id
    try h.thread.retry(failed)
    #expect(h.thread.messages.count == 2)
    #expect(h.last?.id != failed)
    #expect(h.last?.state == .streaming)
    #expect(throws: ChatActionError.self) { try h.thread.retry(failed) }
  }
}

/// An `onFeedback` whose calls the test resolves one by one.
@MainActor
final class FeedbackGate {
  var calls: [(value: ChatMessage.Feedback?, continuation: CheckedContinuation<Void, any Error>)] = []

  var handler: ChatThread.FeedbackHandler {
    { _, value in
      try await withCheckedThrowingContinuation { continuation in
        self.calls.append((value, continuation))
      }
    }
  }
}

@MainActor
@Suite("Feedback")
struct FeedbackTests {
  @Test func thumbsShowOnlyWithAHandlerAndOnFinishedReplies() async throws {
    let without = Harness()
    try await finishedThread(without)
    #expect(without.thread.turn(at: 1).actions?.showsThumbs == false)
    #expect(throws: ChatActionError.feedbackNotOffered) {
      try without.thread.rate(without.thread.messages[1].id, .good)
    }
    #expect(without.thread.messages[1].feedback == nil)

    let h = Harness(onFeedback: { _, _ in })
    try await finishedThread(h)
    #expect(h.thread.turn(at: 1).actions?.showsThumbs == true)
    let user = h.thread.messages[0].id
    #expect(throws: ChatActionError.notAReply(user)) { try h.thread.rate(user, .good) }
    try h.thread.send("More")
    let streaming = h.thread.messages[3].id
    #expect(throws: ChatActionError.replyNotFinished(streaming)) { try h.thread.rate(streaming, .good) }
  }

  @Test func choosingTheSelectedThumbClearsIt() async throws {
    var seen: [ChatMessage.Feedback?] = []
    let h = Harness(onFeedback: { _, value in seen.append(value) })
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    try await h.thread.rate(id, .good).value
    #expect(h.thread.messages[1].feedback == .good)
    try await h.thread.rate(id, .bad).value
    #expect(h.thread.messages[1].feedback == .bad)
    try await h.thread.rate(id, .bad).value
    #expect(h.thread.messages[1].feedback == nil)
    #expect(seen == [.good, .bad, nil])
    #expect(h.recorder.haptics == [.rating, .rating, .rating])
  }

  @Test func aFailureRestoresTheConfirmedValue() async throws {
    let gate = FeedbackGate()
    let h = Harness(onFeedback: gate.handler)
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    let first = try h.thread.rate(id, .good)
    #expect(await until { gate.calls.count == 1 })
    gate.calls[0].continuation.resume()
    await first.value
    #expect(h.thread.messages[1].feedback == .good)
    let task = try h.thread.rate(id, .bad)
    #expect(h.thread.messages[1].feedback == .bad)  // shows at once
    #expect(await until { gate.calls.count == 2 })
    gate.calls[1].continuation.resume(throwing: TestFailure())
    await task.value
    #expect(h.thread.messages[1].feedback == .good)
  }

  /// Good, then bad, both waiting; the answer to good comes first, then bad is rejected. The
  /// reply ends on the last value onFeedback confirmed: good if it accepted good, else none (not
  /// good, which the handler never accepted).
  @Test(arguments: [false, true])
  func twoTapsThenARejectionEndOnTheConfirmedValue(firstAccepted: Bool) async throws {
    let gate = FeedbackGate()
    let h = Harness(onFeedback: gate.handler)
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    let first = try h.thread.rate(id, .good)
    let second = try h.thread.rate(id, .bad)
    #expect(await until { gate.calls.count == 2 })
    #expect(gate.calls.map(\.value) == [.good, .bad])
    if firstAccepted {
      gate.calls[0].continuation.resume()
    } else {
      gate.calls[0].continuation.resume(throwing: TestFailure())
    }
    await first.value
    #expect(h.thread.messages[1].feedback == .bad)  // the newer tap still waits and shows
    gate.calls[1].continuation.resume(throwing: TestFailure())
    await second.value
    #expect(h.thread.messages[1].feedback == (firstAccepted ? .good : nil))
  }

  @Test func aSavedValueIsConfirmedUntilATapIsAccepted() async throws {
    let gate = FeedbackGate()
    let saved = ChatMessage(
      id: testID(900), role: .assistant, text: "Saved.", date: referenceDate, feedback: .bad)
    let question = ChatMessage(id: testID(901), role: .user, text: "Q", date: referenceDate)
    let h = Harness(messages: [question, saved], onFeedback: gate.handler)
    let task = try h.thread.rate(saved.id, .good)
    #expect(h.thread.messages[1].feedback == .good)
    #expect(await until { gate.calls.count == 1 })
    gate.calls[0].continuation.resume(throwing: TestFailure())
    await task.value
    #expect(h.thread.messages[1].feedback == .bad)
  }
}

@MainActor
@Suite("Copy and Share")
struct CopyTests {
  @Test func copyGivesPlainTextWithMarkdownAndHTML() async throws {
    let h = Harness()
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    try h.thread.copy(id)
    #expect(h.recorder.copies.first?.plainText == "Bold and code.")
    #expect(h.recorder.copies.first?.markdown == "**Bold** and `code`.")
    #expect(h.recorder.copies.first?.html == "<p><strong>Bold</strong> and <code>code</code>.</p>\n")
    #expect(h.thread.copied == .reply(id))
    #expect(h.thread.turn(at: 1).actions?.isCopied == true)
    #expect(h.recorder.announcements.last == .copied)
    #expect(h.recorder.haptics == [.copy])
    #expect(h.thread.shareText(for: id) == "Bold and code.")
    let user = h.thread.messages[0].id
    #expect(throws: ChatActionError.notAReply(user)) { try h.thread.copy(user) }
    #expect(h.thread.shareText(for: h.thread.messages[0].id) == nil)
  }

  @Test func copyOnACodeBlockGivesJustTheCode() async throws {
    let h = Harness()
    try await finishedThread(h, reply: "Text\n\n```swift\nlet a = 1\n\n```\n\n```\nb\n```\n")
    let id = h.thread.messages[1].id
    try h.thread.copyCode(in: id, block: 1)
    #expect(h.recorder.copies.last == ChatCopyPayload(plainText: "b"))
    try h.thread.copyCode(in: id, block: 0)
    #expect(h.recorder.copies.last?.plainText == "let a = 1\n")
    #expect(h.thread.copied == .codeBlock(id, 0))
    #expect(h.thread.turn(at: 1).copiedCodeBlock == 0)
    #expect(h.thread.turn(at: 1).actions?.isCopied == false)
    #expect(throws: ChatActionError.noSuchCodeBlock(id, index: 2, count: 2)) { try h.thread.copyCode(in: id, block: 2) }
  }

  @Test func copiedEndsAfterItsDuration() async throws {
    let h = Harness()
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    try h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.4)
    await settle()
    #expect(h.thread.copied == .reply(id))
    h.clock.advance(by: 0.2)
    #expect(await until { h.thread.copied == nil })
  }

  @Test func copyingAgainRestartsTheMark() async throws {
    let h = Harness()
    try await finishedThread(h)
    let id = h.thread.messages[1].id
    try h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)
    try h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)  // the first timer's deadline has passed
    await settle()
    #expect(h.thread.copied == .reply(id))
    h.clock.advance(by: 0.6)
    #expect(await until { h.thread.copied == nil })
  }

  @Test func copyingAnotherReplyMovesTheMarkAndTheOldTimerIsStale() async throws {
    let h = Harness()
    try await finishedThread(h)
    try h.thread.send("Second")
    h.source.yield("Two")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    let first = h.thread.messages[1].id
    let second = h.thread.messages[3].id
    try h.thread.copy(first)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)
    try h.thread.copy(second)
    #expect(h.thread.turn(at: 1).actions?.isCopied == false)
    #expect(h.thread.turn(at: 3).actions?.isCopied == true)
    h.clock.advance(by: 0.7)
    await settle()
    #expect(h.thread.copied == .reply(second))
    h.clock.advance(by: 1.0)
    #expect(await until { h.thread.copied == nil })
  }
}
