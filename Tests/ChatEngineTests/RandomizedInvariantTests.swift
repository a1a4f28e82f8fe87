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

/// How many version actions took effect over all sequences (so the test knows it exercised them).
@MainActor
final class Tally {
  var edits = 0
  var switches = 0
  var hiddenSwitchedWhileStreaming = 0
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
    let tally = Tally()
    for seed in 0..<Self.sequenceCount {
      let (failure, count) = await Self.run(seed: UInt64(seed), tally: tally)
      steps += count
      if let failure { failures.append("seed \(seed): \(failure)") }
      if failures.count >= 5 { break }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    if failures.isEmpty { #expect(steps >= Self.sequenceCount * 8) }
    #expect(tally.edits >= Self.sequenceCount / 5, "edits: \(tally.edits)")
    #expect(tally.switches >= Self.sequenceCount / 10, "switches: \(tally.switches)")
    #expect(
      tally.hiddenSwitchedWhileStreaming >= 100, "switches that stopped a reply: \(tally.hiddenSwitchedWhileStreaming)")
  }

  /// Runs one sequence; returns the first broken invariant (if any) and the number of steps.
  static func run(seed: UInt64, tally: Tally) async -> (String?, Int) {
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
      let event = random.next() % 18
      let action = perform(event, on: h, random: &random, tally: tally)
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
      if let message = h.thread.version(id), !message.state.isTerminal {
        return ("reply \(id) still streams", stepCount)
      }
    }
    guard await until({ h.source.calls.allSatisfy { $0.terminated.isSet } }) else {
      return ("a stream was never terminated", stepCount)
    }
    return (nil, stepCount)
  }

  /// Performs one random event; returns its name for the failure message.
  static func perform(_ event: UInt64, on h: Harness, random: inout SplitMix64, tally: Tally) -> String {
    let thread = h.thread
    let replies = thread.messages.filter { $0.role == .assistant }
    let someReply = replies.isEmpty ? nil : replies[Int(random.next() % UInt64(replies.count))]
    // Any message of the tree, shown or not (actions on a hidden one must be refused).
    let all = thread.tree.allMessages
    let anyMessage = all.isEmpty ? nil : all[Int(random.next() % UInt64(all.count))]
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
      let target = random.next() % 4 == 0 ? anyMessage : someReply
      if let target { _ = try? thread.rate(target.id, random.next() % 2 == 0 ? .good : .bad) }
      return "feedback"
    case 11:
      let target = random.next() % 4 == 0 ? anyMessage : someReply
      if let target { _ = try? thread.copy(target.id) }
      h.clock.advance(by: Double(random.next() % 50) / 1000)
      return "copy and tick"
    case 12:
      if h.source.calls.count > 1 {
        let stale = h.source.calls[Int(random.next() % UInt64(h.source.calls.count - 1))]
        stale.continuation.yield("STALE")
        stale.continuation.finish()
      }
      return "stale chunk"
    case 13:
      // Edit one of the person's shown turns (now and then a reply or a hidden version: refused).
      let users = thread.messages.filter { $0.role == .user }
      let target =
        random.next() % 4 == 0 ? anyMessage : users.isEmpty ? nil : users[Int(random.next() % UInt64(users.count))]
      if let target, (try? thread.edit(target.id, text: "edit \(random.next() % 100)")) != nil { tally.edits += 1 }
      return "edit"
    case 14, 15:
      // Switch a shown turn with versions to one of them (now and then to one that does not exist).
      let forks = thread.messages.indices.filter { thread.versions(at: $0) != nil }
      guard !forks.isEmpty else { return "switch (no versions)" }
      let index = forks[Int(random.next() % UInt64(forks.count))]
      let versions = thread.versions(at: index)
      let count = versions?.count ?? 1
      // Mostly another version; now and then any number, one past the last included.
      let other = (Int(random.next() % UInt64(max(count - 1, 1))) + (versions?.number ?? 1)) % count + 1
      let number = random.next() % 4 == 0 ? Int(random.next() % UInt64(count + 1)) + 1 : other
      let wasStreaming = thread.isStreaming
      let before = thread.messages.map(\.id)
      if (try? thread.showVersion(number, of: thread.messages[index].id)) != nil, thread.messages.map(\.id) != before {
        tally.switches += 1
        if wasStreaming { tally.hiddenSwitchedWhileStreaming += 1 }
      }
      return "switch to version \(number) of \(count)"
    case 16:
      if let target = random.next() % 2 == 0 ? someReply : thread.messages.first {
        if random.next() % 2 == 0 {
          _ = try? thread.showPreviousVersion(of: target.id)
        } else {
          _ = try? thread.showNextVersion(of: target.id)
        }
      }
      return "previous or next version"
    default:
      // Save and load: the file holds the tree exactly (a streaming reply loads failed).
      let saved = ChatArchive.encode(ChatArchive.Document(tree: thread.tree.normalized()), timeZone: .gmt)
      do {
        let loaded = try ChatArchive.decodeDocument(saved)
        guard ChatArchive.encode(loaded, timeZone: .gmt) == saved else { return "save and load changed the tree" }
        guard loaded.tree.messages.map(\.id) == thread.messages.map(\.id) else {
          return "save and load changed the path"
        }
        thread.replaceThread(with: loaded.tree)
      } catch {
        return "save and load failed: \(error)"
      }
      return "save and load"
    }
  }

  /// Checks the invariants against the previous snapshot and updates it.
  static func check(_ thread: ChatThread, against snapshot: inout Snapshot, started: inout Set<UUID>) -> String? {
    let messages = thread.messages
    let tree = thread.tree
    if let broken = tree.brokenRule { return "the tree is broken: \(broken)" }
    let all = tree.allMessages
    if all.count(where: { $0.state == .streaming }) > 1 { return "two replies stream in the tree" }
    let streaming = messages.indices.filter { messages[$0].state == .streaming }
    if streaming.count > 1 { return "\(streaming.count) replies stream" }
    if all.contains(where: { $0.state == .streaming }) && streaming.isEmpty { return "a hidden version streams" }
    if let index = streaming.first, index != messages.count - 1 { return "the streaming reply is not last" }
    if Set(all.map(\.id)).count != all.count { return "duplicate ids" }
    // The shown path is consistent: each turn's versions include it, and the rows show the path.
    for index in messages.indices {
      if let versions = thread.versions(at: index), versions.shownID != messages[index].id {
        return "turn \(index) shows a version its versions do not name"
      }
    }
    if !thread.isLoading, thread.rows.count(where: { if case .turn = $0 { true } else { false } }) != messages.count {
      return "the rows do not show the path"
    }
    var next: [UUID: ChatMessage] = [:]
    for message in all {
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
