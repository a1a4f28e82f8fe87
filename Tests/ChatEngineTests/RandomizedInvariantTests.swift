import ChatEngine
import Foundation
import Testing

/// Decides, per call, whether `onFeedback` throws.
@MainActor
final class Coin {
  var generator: SplitMix64
  init(seed: UInt64) { generator = SplitMix64(seed: seed) }
  func flip() -> Bool { generator.next() % 2 == 0 }
}

/// What the checker remembers of the thread between steps.
struct Snapshot {
  var byID: [UUID: ChatMessage] = [:]
}

@MainActor
@Suite("Randomized invariants")
struct RandomizedInvariantTests {
  static let sequenceCount = 10_000

  @Test func seededRandomSequencesKeepEveryInvariant() async throws {
    var failures: [String] = []
    var steps = 0
    for seed in 0..<Self.sequenceCount {
      let (failure, count) = await Self.run(seed: UInt64(seed))
      steps += count
      if let failure { failures.append("seed \(seed): \(failure)") }
      if failures.count >= 5 { break }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    if failures.isEmpty { #expect(steps >= Self.sequenceCount * 8) }
  }

  /// Runs one sequence; returns the first broken invariant (if any) and the number of steps.
  static func run(seed: UInt64) async -> (String?, Int) {
    var random = SplitMix64(seed: seed)
    let coin = Coin(seed: seed ^ 0xFEED)
    let h = Harness(
      publishInterval: [0, 1.0 / 30, 10][Int(random.next() % 3)],
      // Formatting is not what this test checks; a cheap formatter keeps 10,000 sequences fast.
      formatter: ReplyFormatter(plainText: { $0 }, codeBlocks: { [$0] }, html: { $0 }),
      onFeedback: { _, _ in if coin.flip() { throw TestFailure() } })
    var snapshot = Snapshot()
    var started = Set<UUID>()
    let stepCount = 8 + Int(random.next() % 13)
    for step in 0..<stepCount {
      let event = random.next() % 14
      let action = perform(event, on: h, random: &random)
      for _ in 0..<Int(random.next() % 4) { await Task.yield() }
      if let broken = check(h.thread, against: &snapshot, started: &started) {
        return ("step \(step) after \(action): \(broken)", step + 1)
      }
    }
    // Every started reply ends in a terminal state, and every stream is terminated.
    h.source.finish()
    guard await until({ !h.thread.isStreaming }) else { return ("a reply never ended", stepCount) }
    if let broken = check(h.thread, against: &snapshot, started: &started) {
      return ("at the end: \(broken)", stepCount)
    }
    for id in started {
      if let message = snapshot.byID[id], !message.state.isTerminal { return ("reply \(id) still streams", stepCount) }
    }
    guard await until({ h.source.calls.allSatisfy { $0.terminated.isSet } }) else {
      return ("a stream was never terminated", stepCount)
    }
    return (nil, stepCount)
  }

  /// Performs one random event; returns its name for the failure message.
  static func perform(_ event: UInt64, on h: Harness, random: inout SplitMix64) -> String {
    let thread = h.thread
    let replies = thread.messages.filter { $0.role == .assistant }
    let someReply = replies.isEmpty ? nil : replies[Int(random.next() % UInt64(replies.count))]
    switch event {
    case 0, 1:
      try? thread.send("message \(random.next() % 100)")
      return "send"
    case 2, 3, 4:
      h.source.yield(["a", "bc", "**d", "`e`", "\n\n- f", "日本", "👍🏽"][Int(random.next() % 7)])
      return "chunk"
    case 5:
      h.source.finish()
      return "finish"
    case 6:
      h.source.fail(random.next() % 2 == 0 ? TestFailure() : CancellationError())
      return "throw"
    case 7:
      thread.stop()
      return "stop"
    case 8:
      if let last = thread.messages.last {
        _ = try? thread.regenerate(random.next() % 4 == 0 ? someReply?.id ?? last.id : last.id)
      }
      return "regenerate"
    case 9:
      if let last = thread.messages.last {
        _ = try? thread.retry(random.next() % 4 == 0 ? someReply?.id ?? last.id : last.id)
      }
      return "retry"
    case 10:
      if let reply = someReply { _ = try? thread.rate(reply.id, random.next() % 2 == 0 ? .good : .bad) }
      return "feedback"
    case 11:
      if let reply = someReply { _ = try? thread.copy(reply.id) }
      h.clock.advance(by: Double(random.next() % 50) / 1000)
      return "copy and tick"
    case 12:
      if h.source.calls.count > 1 {
        let stale = h.source.calls[Int(random.next() % UInt64(h.source.calls.count - 1))]
        stale.continuation.yield("STALE")
        stale.continuation.finish()
      }
      return "stale chunk"
    default:
      let data = ChatArchive.encode(thread.messages)
      do {
        thread.replaceThread(with: try ChatArchive.decode(data))
      } catch {
        return "save and load failed: \(error)"
      }
      return "save and load"
    }
  }

  /// Checks the invariants against the previous snapshot and updates it.
  static func check(_ thread: ChatThread, against snapshot: inout Snapshot, started: inout Set<UUID>) -> String? {
    let messages = thread.messages
    let streaming = messages.indices.filter { messages[$0].state == .streaming }
    if streaming.count > 1 { return "\(streaming.count) replies stream" }
    if let index = streaming.first, index != messages.count - 1 { return "the streaming reply is not last" }
    if Set(messages.map(\.id)).count != messages.count { return "duplicate ids" }
    var next: [UUID: ChatMessage] = [:]
    for message in messages {
      if message.text.contains("STALE") { return "a stale stream wrote" }
      if message.state == .streaming { started.insert(message.id) }
      if let old = snapshot.byID[message.id] {
        if !message.text.hasPrefix(old.text) {
          return "text shrank: \(old.text.debugDescription) → \(message.text.debugDescription)"
        }
        if old.state.isTerminal, old.state != message.state || old.text != message.text {
          return
            "a terminal reply changed: \(old.state), \(old.text.debugDescription) → \(message.state), \(message.text.debugDescription)"
        }
      }
      next[message.id] = message
    }
    for (id, old) in snapshot.byID where next[id] == nil && !old.state.isTerminal {
      return "a streaming reply vanished"
    }
    snapshot.byID = next
    return nil
  }
}
