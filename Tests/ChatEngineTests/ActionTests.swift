import ChatEngine
import Foundation
import Testing

@MainActor
private func finishedThread(_ h: Harness, reply: String = "**Bold** and `code`.") async {
  h.thread.send("Question")
  h.source.yield(reply)
  h.source.finish()
  _ = await until { h.last?.state == .complete }
}

@MainActor
@Suite("Regenerate and Retry")
struct RegenerateRetryTests {
  @Test func regenerateReplacesTheLatestReplyInPlaceWithANewID() async {
    let h = Harness()
    await finishedThread(h)
    let old = h.thread.messages[1]
    #expect(h.thread.regenerate(old.id))
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

  @Test func regenerateOnlyOnTheLatestFinishedReplyAndNeverWhileStreaming() async {
    let h = Harness()
    await finishedThread(h)
    let first = h.thread.messages[1].id
    h.thread.send("Next")
    // Streaming: nothing can be regenerated.
    #expect(!h.thread.regenerate(h.last?.id ?? first))
    #expect(!h.thread.regenerate(first))
    h.source.yield("x")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    // Older reply: no; user turn: no; failed reply: no (that is Retry).
    #expect(!h.thread.regenerate(first))
    #expect(h.thread.turn(at: 1).actions?.canRegenerate == false)
    #expect(!h.thread.regenerate(h.thread.messages[2].id))
    #expect(h.thread.turn(at: 3).actions?.canRegenerate == true)
    #expect(h.source.calls.count == 2)
  }

  @Test func retryOnlyOnTheLatestFailedReply() async {
    let h = Harness()
    h.thread.send("Q1")
    h.source.fail(TestFailure())
    #expect(await until { h.last?.state != .streaming })
    let failed = h.thread.messages[1].id
    #expect(!h.thread.regenerate(failed))
    #expect(h.thread.canRetry(failed))
    h.thread.send("Q2")
    h.source.yield("fine")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    // No longer the latest: the failure shows, Retry does not.
    #expect(!h.thread.retry(failed))
    #expect(h.thread.turn(at: 1).failure == "The model is overloaded.")
    #expect(!h.thread.turn(at: 1).canRetry)
    #expect(!h.thread.retry(h.thread.messages[3].id))
    #expect(h.source.calls.count == 2)
  }

  @Test func retryReplacesTheFailedReply() async {
    let h = Harness()
    h.thread.send("Q")
    h.source.finish()
    #expect(await until { h.last?.state != .streaming })
    let failed = h.thread.messages[1].id
    #expect(h.thread.retry(failed))
    #expect(h.thread.messages.count == 2)
    #expect(h.last?.id != failed)
    #expect(h.last?.state == .streaming)
    #expect(!h.thread.retry(failed))
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
  @Test func thumbsShowOnlyWithAHandlerAndOnFinishedReplies() async {
    let without = Harness()
    await finishedThread(without)
    #expect(without.thread.turn(at: 1).actions?.showsThumbs == false)
    #expect(without.thread.rate(without.thread.messages[1].id, .good) == nil)
    #expect(without.thread.messages[1].feedback == nil)

    let h = Harness(onFeedback: { _, _ in })
    await finishedThread(h)
    #expect(h.thread.turn(at: 1).actions?.showsThumbs == true)
    #expect(h.thread.rate(h.thread.messages[0].id, .good) == nil)
    h.thread.send("More")
    #expect(h.thread.rate(h.thread.messages[3].id, .good) == nil)
  }

  @Test func choosingTheSelectedThumbClearsIt() async {
    var seen: [ChatMessage.Feedback?] = []
    let h = Harness(onFeedback: { _, value in seen.append(value) })
    await finishedThread(h)
    let id = h.thread.messages[1].id
    await h.thread.rate(id, .good)?.value
    #expect(h.thread.messages[1].feedback == .good)
    await h.thread.rate(id, .bad)?.value
    #expect(h.thread.messages[1].feedback == .bad)
    await h.thread.rate(id, .bad)?.value
    #expect(h.thread.messages[1].feedback == nil)
    #expect(seen == [.good, .bad, nil])
    #expect(h.recorder.haptics == [.rating, .rating, .rating])
  }

  @Test func aFailureRestoresTheValueFromBeforeThatTap() async {
    let gate = FeedbackGate()
    let h = Harness(onFeedback: gate.handler)
    await finishedThread(h)
    let id = h.thread.messages[1].id
    let first = h.thread.rate(id, .good)
    #expect(await until { gate.calls.count == 1 })
    gate.calls[0].continuation.resume()
    await first?.value
    #expect(h.thread.messages[1].feedback == .good)
    let task = h.thread.rate(id, .bad)
    #expect(h.thread.messages[1].feedback == .bad)  // shows at once
    #expect(await until { gate.calls.count == 2 })
    gate.calls[1].continuation.resume(throwing: TestFailure())
    await task?.value
    #expect(h.thread.messages[1].feedback == .good)
  }

  @Test func aStaleFailureIsIgnored() async {
    let gate = FeedbackGate()
    let h = Harness(onFeedback: gate.handler)
    await finishedThread(h)
    let id = h.thread.messages[1].id
    let first = h.thread.rate(id, .good)
    let second = h.thread.rate(id, .bad)
    #expect(await until { gate.calls.count == 2 })
    #expect(gate.calls.map(\.value) == [.good, .bad])
    gate.calls[0].continuation.resume(throwing: TestFailure())
    await first?.value
    #expect(h.thread.messages[1].feedback == .bad)
    gate.calls[1].continuation.resume(throwing: TestFailure())
    await second?.value
    // The newest tap failed: back to the value before it (good), not before the first tap.
    #expect(h.thread.messages[1].feedback == .good)
  }
}

@MainActor
@Suite("Copy and Share")
struct CopyTests {
  @Test func copyGivesPlainTextWithMarkdownAndHTML() async {
    let h = Harness()
    await finishedThread(h)
    let id = h.thread.messages[1].id
    #expect(h.thread.copy(id))
    #expect(h.recorder.copies.first?.plainText == "Bold and code.")
    #expect(h.recorder.copies.first?.markdown == "**Bold** and `code`.")
    #expect(h.recorder.copies.first?.html == "<p><strong>Bold</strong> and <code>code</code>.</p>\n")
    #expect(h.thread.copied == .reply(id))
    #expect(h.thread.turn(at: 1).actions?.isCopied == true)
    #expect(h.recorder.announcements.last == .copied)
    #expect(h.recorder.haptics == [.copy])
    #expect(h.thread.shareText(for: id) == "Bold and code.")
    #expect(!h.thread.copy(h.thread.messages[0].id))
    #expect(h.thread.shareText(for: h.thread.messages[0].id) == nil)
  }

  @Test func copyOnACodeBlockGivesJustTheCode() async {
    let h = Harness()
    await finishedThread(h, reply: "Text\n\n```swift\nlet a = 1\n\n```\n\n```\nb\n```\n")
    let id = h.thread.messages[1].id
    #expect(h.thread.copyCode(in: id, block: 1))
    #expect(h.recorder.copies.last == ChatCopyPayload(plainText: "b"))
    #expect(h.thread.copyCode(in: id, block: 0))
    #expect(h.recorder.copies.last?.plainText == "let a = 1\n")
    #expect(h.thread.copied == .codeBlock(id, 0))
    #expect(h.thread.turn(at: 1).copiedCodeBlock == 0)
    #expect(h.thread.turn(at: 1).actions?.isCopied == false)
    #expect(!h.thread.copyCode(in: id, block: 2))
  }

  @Test func copiedEndsAfterItsDuration() async {
    let h = Harness()
    await finishedThread(h)
    let id = h.thread.messages[1].id
    h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.4)
    await settle()
    #expect(h.thread.copied == .reply(id))
    h.clock.advance(by: 0.2)
    #expect(await until { h.thread.copied == nil })
  }

  @Test func copyingAgainRestartsTheMark() async {
    let h = Harness()
    await finishedThread(h)
    let id = h.thread.messages[1].id
    h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)
    h.thread.copy(id)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)  // the first timer's deadline has passed
    await settle()
    #expect(h.thread.copied == .reply(id))
    h.clock.advance(by: 0.6)
    #expect(await until { h.thread.copied == nil })
  }

  @Test func copyingAnotherReplyMovesTheMarkAndTheOldTimerIsStale() async {
    let h = Harness()
    await finishedThread(h)
    h.thread.send("Second")
    h.source.yield("Two")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    let first = h.thread.messages[1].id
    let second = h.thread.messages[3].id
    h.thread.copy(first)
    #expect(await until { h.clock.sleeperCount == 1 })
    h.clock.advance(by: 1.0)
    h.thread.copy(second)
    #expect(h.thread.turn(at: 1).actions?.isCopied == false)
    #expect(h.thread.turn(at: 3).actions?.isCopied == true)
    h.clock.advance(by: 0.7)
    await settle()
    #expect(h.thread.copied == .reply(second))
    h.clock.advance(by: 1.0)
    #expect(await until { h.thread.copied == nil })
  }
}
