import ChatEngine
import Foundation
import Synchronization

/// Records what the thread sends to its injected clipboard, announcer, haptics and formatter sink.
@MainActor
final class Recorder {
  var copies: [ChatCopyPayload] = []
  var announcements: [ChatAnnouncement] = []
  var haptics: [ChatHaptic] = []
  var updates: [ReplyUpdate] = []
  var nextID = 0

  func makeID() -> UUID {
    nextID += 1
    return testID(nextID)
  }
}

/// A deterministic UUID for small numbers.
func testID(_ number: Int) -> UUID {
  let hex = String(number, radix: 16)
  let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
  return UUID(uuidString: "00000000-0000-4000-8000-" + padded) ?? UUID()
}

/// Set from a stream's `onTermination`, which may run on any thread.
final class TerminationFlag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}

/// The reply closure's other end: each call makes a stream whose chunks the test writes.
@MainActor
final class ReplySource {
  struct Call {
    let history: [ChatMessage]
    let continuation: AsyncThrowingStream<String, any Error>.Continuation
    let terminated: TerminationFlag
  }

  var calls: [Call] = []

  func make(_ history: [ChatMessage]) -> AsyncThrowingStream<String, any Error> {
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    let flag = TerminationFlag()
    continuation.onTermination = { _ in flag.set() }
    calls.append(Call(history: history, continuation: continuation, terminated: flag))
    return stream
  }

  var last: Call? { calls.last }

  func yield(_ chunk: String) { calls.last?.continuation.yield(chunk) }
  func finish() { calls.last?.continuation.finish() }
  func fail(_ error: any Error) { calls.last?.continuation.finish(throwing: error) }
}

struct TestFailure: LocalizedError, Equatable {
  var errorDescription: String? { "The model is overloaded." }
}

struct UndescribedFailure: Error {}

/// 2026-03-10 12:00:00 UTC.
let referenceDate = Date(timeIntervalSince1970: 1_773_144_000)

/// A thread with a manual clock, recorded services and a scripted reply source.
@MainActor
struct Harness {
  let clock: ManualClock
  let recorder: Recorder
  let source: ReplySource
  let thread: ChatThread

  init(
    messages: [ChatMessage] = [],
    start: Date = referenceDate,
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
    publishInterval: TimeInterval = 1.0 / 30,
    formatter: ReplyFormatter = .standard,
    onFeedback: ChatThread.FeedbackHandler? = nil
  ) {
    let clock = ManualClock(start)
    let recorder = Recorder()
    let source = ReplySource()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let environment = ChatEnvironment(
      clock: clock, calendar: calendar, timeZone: timeZone, locale: Locale(identifier: "en_US"),
      makeID: { recorder.makeID() },
      clipboard: { recorder.copies.append($0) },
      announce: { recorder.announcements.append($0) },
      haptic: { recorder.haptics.append($0) },
      formatter: formatter,
      replyUpdates: { recorder.updates.append($0) },
      publishInterval: publishInterval)
    self.clock = clock
    self.recorder = recorder
    self.source = source
    self.thread = ChatThread(
      messages: messages, environment: environment, reply: { source.make($0) }, onFeedback: onFeedback)
  }

  var last: ChatMessage? { thread.messages.last }
}

/// Lets main-actor tasks run until `condition` holds (bounded; returns whether it held).
@MainActor
func until(_ condition: () -> Bool) async -> Bool {
  // Streams are read off the main actor: on a busy machine their reader may need real time, so
  // the wait is bounded by the clock (10 s), yielding first and then sleeping a little.
  let deadline = ContinuousClock.now + .seconds(10)
  var rounds = 0
  while ContinuousClock.now < deadline {
    if condition() { return true }
    rounds += 1
    if rounds < 2_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
  }
  return condition()
}

/// Lets every ready main-actor task run a few steps (for checks that something did *not* happen).
@MainActor
func settle(_ rounds: Int = 20) async {
  for _ in 0..<rounds { await Task.yield() }
}
