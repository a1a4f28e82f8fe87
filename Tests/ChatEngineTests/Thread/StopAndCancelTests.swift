import ChatEngine
import Foundation
import Synchronization
import Testing

/// Stop keeps what arrived, whatever the main actor was doing; a reply closure that stops its own
/// run leaves nothing running; waiting for a reply never outlasts it; bad numbers never crash.
@MainActor
@Suite("Stop and cancellation")
struct StopAndCancelTests {
  /// Blocks the main actor (as a busy app does) until `condition` holds or 10 s pass.
  private func blockMainActor(until condition: () -> Bool) {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() && ContinuousClock.now < deadline { usleep(1_000) }
  }

  /// A source writes 500 chunks while the main actor is busy: they reach the reply's inbox off
  /// the main actor, and Stop keeps every one (before, it kept the first).
  ///
  /// The stream's reader runs on the shared task pool: when other tests hold every worker for
  /// 10 s (blocking on child processes), the main actor is let go and the test waits for the
  /// reader; Stop must still keep every chunk.
  @Test func stopKeepsChunksThatArrivedWhileTheMainActorWasBusy() async throws {
    let expected = (0..<500).map { "c\($0) " }.joined()
    let thread = ChatThread(
      environment: ChatEnvironment(publishInterval: 1),
      reply: { _ in
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        // The writer is a thread of its own: only the reader needs the pool.
        Thread {
          for index in 0..<500 { continuation.yield("c\(index) ") }
        }.start()
        return stream
      })
    try thread.send("Q")
    let inbox = try #require(thread.run?.inbox)
    blockMainActor { inbox.receivedBytes == expected.utf8.count }
    if inbox.receivedBytes == expected.utf8.count {
      #expect(thread.messages.last?.text.isEmpty == true, "nothing shown while the main actor was busy")
    } else {
      #expect(await until { inbox.receivedBytes == expected.utf8.count })
    }
    thread.stop()
    #expect(thread.messages.last?.state == .stopped)
    #expect(thread.messages.last?.text == expected)
  }

  /// Stop after the stream has ended, before the main actor took the end: the reply ends as
  /// its stream did (complete, or failed with its error), not Stopped.
  @Test(arguments: [false, true])
  func stopAfterTheStreamEndedKeepsItsEnd(fails: Bool) async throws {
    let thread = ChatThread(
      environment: ChatEnvironment(publishInterval: 1),
      reply: { _ in
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        continuation.yield("done")
        continuation.finish(throwing: fails ? TestFailure() : nil)
        return stream
      })
    try thread.send("Q")
    let inbox = try #require(thread.run?.inbox)
    blockMainActor { inbox.hasEnded }
    if !inbox.hasEnded { #expect(await until { inbox.hasEnded }) }
    thread.stop()
    #expect(thread.messages.last?.text == "done")
    #expect(thread.messages.last?.state == (fails ? .failed("The model is overloaded.") : .complete))
  }

  /// A reply closure that stops (or sends, which stops) the run it is starting: the stream it
  /// returns is dropped unread, which ends it, so no request stays open behind the thread.
  @Test(arguments: [false, true])
  func aReplyClosureThatStopsItsOwnRunLeavesNothingRunning(sends: Bool) async throws {
    let ended = TerminationFlag()
    var thread: ChatThread?
    var calls = 0
    thread = ChatThread(
      environment: ChatEnvironment(publishInterval: 0),
      reply: { _ in
        calls += 1
        let first = calls == 1
        if first {
          if sends { try? thread?.send("again") } else { thread?.stop() }
        }
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        if first { continuation.onTermination = { _ in ended.set() } }
        return stream
      })
    try thread?.send("Q")
    #expect(await until { ended.isSet })
    #expect(thread?.messages.map(\.state).contains(.streaming) == sends)
    thread?.stop()
  }

  /// `replyFinished()` returns once the reply is stopped, even when its stream ignores
  /// cancellation and never ends.
  @Test func waitingForAReplyEndsWithStopEvenIfItsStreamIgnoresCancellation() async throws {
    let release = DispatchSemaphore(value: 0)
    let thread = ChatThread(
      environment: ChatEnvironment(publishInterval: 0),
      reply: { _ in
        AsyncThrowingStream<String, any Error>(unfolding: {
          // A wait that cancellation does not end.
          await withCheckedContinuation { continuation in
            // A thread of its own: a dispatch worker blocked here would be one of the pool's.
            Thread {
              release.wait()
              continuation.resume()
            }.start()
          }
          return nil
        })
      })
    try thread.send("Q")
    let waited = TerminationFlag()
    let waiter = Task { @MainActor in
      await thread.replyFinished()
      waited.set()
    }
    await settle()
    #expect(!waited.isSet)
    thread.stop()
    #expect(await until { waited.isSet })
    await waiter.value
    release.signal()
  }

  /// A cancelled wait returns at once, the reply going on.
  @Test func aCancelledWaitReturns() async throws {
    let h = Harness()
    try h.thread.send("Q")
    let waiter = Task { @MainActor in await h.thread.replyFinished() }
    await settle()
    waiter.cancel()
    await waiter.value
    #expect(h.thread.isStreaming)
    h.thread.stop()
  }

  /// A wall clock set back an hour mid-reply holds no chunk back: it publishes at once.
  @Test func aClockSetBackHoldsNothingBack() async throws {
    let h = Harness(publishInterval: 1)
    try h.thread.send("Q")
    h.source.yield("a")
    #expect(await until { h.last?.text == "a" })
    h.clock.advance(by: -3600)
    h.source.yield("b")
    #expect(await until { h.last?.text == "ab" })
  }

  /// Version numbers at the ends of `Int` are refused, not a crash.
  @Test(arguments: [Int.min, -1, 0, 2, Int.max])
  func versionNumbersOutOfRangeAreRefused(number: Int) async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.finish()
    #expect(await until { h.last?.state == .failed(ChatMessage.defaultFailureMessage) })
    let id = try #require(h.last?.id)
    #expect(throws: ChatActionError.noSuchVersion(id, number: number, count: 1)) {
      try h.thread.showVersion(number, of: id)
    }
  }

  /// Durations that would overflow a timer are kept within bounds.
  @Test func timerDurationsAreBounded() async throws {
    var environment = ChatEnvironment(copiedDuration: .infinity, publishInterval: 1e300)
    #expect(environment.copiedDuration == 3600)
    #expect(environment.publishInterval == 60)
    environment.copiedDuration = -.infinity
    environment.publishInterval = .nan
    #expect(environment.copiedDuration == 0)
    #expect(environment.publishInterval == 0)
    let sleeper = Task { try await SystemChatClock().sleep(until: Date(timeIntervalSince1970: 1e300)) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}

/// A consumer that cancels its own task sees the stream end, never the `CancellationError`
/// the cancellation made the producer throw.
@Suite("Reply stream cancellation")
struct ReplyStreamCancellationTests {
  @Test func aCancelledConsumerSeesTheStreamEndWithoutAnError() async throws {
    for _ in 0..<200 {
      let stream = ChatReplyStream.make { write in
        while true {
          try Task.checkCancellation()
          write("x")
          await Task.yield()
        }
      }
      let consumer = Task {
        var count = 0
        for try await _ in stream {
          count += 1
          if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
        }
        return count
      }
      let result = await consumer.result
      if case .failure(let error) = result { Issue.record("the loop threw \(error)") }
    }
  }
}
