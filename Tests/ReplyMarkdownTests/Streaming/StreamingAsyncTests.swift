import Foundation
import ReplyKitTestSupport
import ReplyMarkdown
import Synchronization
import Testing

/// The async adapter: every chunking and coalescing ends in the one-shot HTML, coalescing reduces
/// updates, a source error comes after the final update, and cancellation stops the reading.
///
/// The time limit guards against a hang. It is generous because the whole suite runs its
/// synchronous tests on the same two cooperative threads (two cores): for minutes at a time none
/// may be free to run these tests' tasks, which then wait without working (a one-line test of
/// another suite was reported after 155 s).
@Suite(.timeLimit(.minutes(10))) struct StreamingAsyncTests {
  static func oneShot(_ text: String) -> String { HTMLRenderer().render(MarkdownDocument(text)) }

  /// The mixed sample: every corpus reply joined, plus multi-byte text and a late definition.
  static let sample: String = {
    let replies = StreamingHarness.corpus.prefix(2).map(\.markdown).joined(separator: "\n\n")
    return replies + "\n\n東京と京都 🍣🍵 naïve café [ref] and a note[^1].\n\n[ref]: https://example.com\n\n[^1]: Née.\n"
  }()

  /// Applies every update to an HTML renderer; returns the HTML, the updates and whether the last
  /// one was final.
  static func collect(_ updates: MarkdownStreamUpdates) async throws -> (html: String, updates: [MarkdownStreamUpdate])
  {
    var renderer = MarkdownStreamHTMLRenderer()
    var all: [MarkdownStreamUpdate] = []
    for try await update in updates {
      renderer.apply(update)
      all.append(update)
    }
    return (renderer.html, all)
  }

  static func byteChunks(_ text: String, lengths: [Int]) -> [[UInt8]] {
    let bytes = Array(text.utf8)
    var chunks: [[UInt8]] = []
    var offset = 0
    for length in lengths where offset < bytes.count {
      let end = min(bytes.count, offset + length)
      chunks.append(Array(bytes[offset..<end]))
      offset = end
    }
    return chunks
  }

  static func checkFinal(_ result: (html: String, updates: [MarkdownStreamUpdate]), _ text: String) {
    #expect(result.html == oneShot(text))
    #expect(result.updates.last?.isFinal == true)
    #expect(result.updates.dropLast().allSatisfy { !$0.isFinal })
  }

  @Test func everyChunkingEndsInTheOneShotHTML() async throws {
    let text = Self.sample
    let stream = MarkdownStream()
    for maximum in [1, 5, 40, 4096] {
      let strings = StreamingHarness.randomCharacterChunks(text, seed: UInt64(maximum), maximum: maximum)
      let bytes = Self.byteChunks(
        text, lengths: StreamingHarness.randomLengths(total: text.utf8.count, seed: 7, maximum: maximum))
      for coalescing: MarkdownStream.Coalescing in [.eachChunk, .bytes(64), .interval(.milliseconds(5))] {
        Self.checkFinal(try await Self.collect(stream.updates(from: TestSource(strings), coalescing: coalescing)), text)
        Self.checkFinal(try await Self.collect(stream.updates(from: TestSource(bytes), coalescing: coalescing)), text)
        let data = bytes.map { Data($0) }
        Self.checkFinal(try await Self.collect(stream.updates(from: TestSource(data), coalescing: coalescing)), text)
      }
    }
    let single = Array(text.utf8)
    Self.checkFinal(try await Self.collect(stream.updates(from: TestSource(single), coalescing: .bytes(100))), text)
  }

  @Test func eachChunkIsOneUpdatePerElement() async throws {
    let chunks = StreamingHarness.randomCharacterChunks(Self.sample, seed: 3)
    let result = try await Self.collect(MarkdownStream().updates(from: TestSource(chunks)))
    #expect(result.updates.count == chunks.count + 1)
    Self.checkFinal(result, Self.sample)
  }

  /// An empty element brings nothing and makes no update, as ``MarkdownStream/Coalescing/eachChunk``
  /// says (a review: each made one that showed nothing new).
  @Test func emptyElementsMakeNoUpdates() async throws {
    let strings = try await Self.collect(MarkdownStream().updates(from: TestSource(["a", "", "", "b"])))
    #expect(strings.updates.map(\.receivedBytes) == [1, 2, 2])
    Self.checkFinal(strings, "ab")
    let data = [Data("a".utf8), Data(), Data("b".utf8), Data()]
    let fromData = try await Self.collect(MarkdownStream().updates(from: TestSource(data)))
    #expect(fromData.updates.map(\.receivedBytes) == [1, 2, 2])
  }

  @Test func emptySourceGivesOnlyTheFinalUpdate() async throws {
    let result = try await Self.collect(MarkdownStream().updates(from: TestSource([String]())))
    #expect(result.updates.count == 1)
    Self.checkFinal(result, "")
  }

  @Test func bytesSplitInsideCharactersNeverShowReplacementCharacters() async throws {
    let text = "# 東京 🍣\n\nnaïve *café* `コード` and 👩‍👩‍👧 family, **ünïcödé**\n\n- 一\n- 二\n"
    let bytes = Array(text.utf8)
    for seed: UInt64 in 1...4 {
      let chunks = Self.byteChunks(text, lengths: StreamingHarness.splittingMultiByteCharacters(bytes, seed: seed))
      var renderer = MarkdownStreamHTMLRenderer()
      var count = 0
      for try await update in MarkdownStream().updates(from: TestSource(chunks)) {
        renderer.apply(update)
        count += 1
        #expect(!renderer.html.contains("\u{FFFD}"))
      }
      #expect(count == chunks.count + 1)
      #expect(renderer.html == Self.oneShot(text))
    }
    // One byte per element.
    var renderer = MarkdownStreamHTMLRenderer()
    for try await update in MarkdownStream().updates(from: TestSource(bytes), coalescing: .bytes(3)) {
      renderer.apply(update)
      #expect(!renderer.html.contains("\u{FFFD}"))
    }
    #expect(renderer.html == Self.oneShot(text))
  }

  @Test func coalescingBySizeReducesUpdates() async throws {
    let text = Self.sample
    let chunks = Self.byteChunks(text, lengths: Array(repeating: 7, count: text.utf8.count / 7 + 1))
    let minimum = 256
    let result = try await Self.collect(MarkdownStream().updates(from: TestSource(chunks), coalescing: .bytes(minimum)))
    Self.checkFinal(result, text)
    #expect(result.updates.count <= text.utf8.count / minimum + 2)
    // Every feed but the last (at the end of the source) carried at least `minimum` bytes.
    let received = result.updates.map(\.receivedBytes)
    let steps = zip(received.dropFirst(), received).map { $0 - $1 }
    #expect(received.first.map { $0 >= minimum } == true)
    #expect(steps.dropLast(2).allSatisfy { $0 >= minimum })
  }

  @Test func coalescingByTimeReducesUpdates() async throws {
    let text = Self.sample
    let chunks = StreamingHarness.randomCharacterChunks(text, seed: 11)
    let clock = TestClock()
    // The source takes 10 ms per chunk; at most one update per 50 ms, the final ones aside.
    let source = TestSource(chunks, clock: clock, step: .milliseconds(10))
    let result = try await Self.collect(
      MarkdownStream().updates(from: source, coalescing: .interval(.milliseconds(50)), clock: clock))
    Self.checkFinal(result, text)
    #expect(result.updates.count <= chunks.count / 5 + 3)
    #expect(result.updates.count < chunks.count)
  }

  @Test func intervalPublishesWhatWaitsWhenTheIntervalEnds() async throws {
    let clock = TestClock()
    let gate = Gate(allowed: 1)
    let source = TestSource(["first ", "second", "third"], gate: gate)
    var iterator = MarkdownStream().updates(from: source, coalescing: .interval(.milliseconds(50)), clock: clock)
      .makeAsyncIterator()
    let first = try await iterator.next()
    #expect(first?.receivedBytes == 6)
    gate.allow(1)
    // "second" arrives within the interval, and nothing after it: it shows when the interval ends.
    let advancer = Task {
      while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
      clock.advance(by: .milliseconds(50))
    }
    let second = try await iterator.next()
    try await advancer.value
    #expect(second?.receivedBytes == 12)
    #expect(second?.isFinal == false)
  }

  struct SourceFailure: Error, Equatable {}

  @Test func aThrowingSourceEndsWithTheFinalUpdateThenTheError() async throws {
    let chunks = ["# Title\n\nSome *text", "* and [a link](https://exa", "mple.com) cut"]
    for coalescing: MarkdownStream.Coalescing in [.eachChunk, .bytes(1000)] {
      let updates = MarkdownStream().updates(from: TestSource(chunks, failure: SourceFailure()), coalescing: coalescing)
      var iterator = updates.makeAsyncIterator()
      var renderer = MarkdownStreamHTMLRenderer()
      var received: [MarkdownStreamUpdate] = []
      var thrown: (any Error)?
      while true {
        do {
          guard let update = try await iterator.next() else { break }
          renderer.apply(update)
          received.append(update)
        } catch {
          thrown = error
          break
        }
      }
      #expect(thrown is SourceFailure)
      #expect(received.last?.isFinal == true)
      #expect(received.dropLast().allSatisfy { !$0.isFinal })
      #expect(renderer.html == Self.oneShot(chunks.joined()))
      // Nothing after the error.
      #expect(try await iterator.next() == nil)
    }
  }

  /// Sources paced by a gate (the reader at most `ahead` elements ahead of the consumer), and a
  /// consumer cancelled after k updates, for every k.
  @Test(arguments: [(MarkdownStream.Coalescing.eachChunk, 0, 1), (.bytes(16), 10, 2)])
  func cancellingAfterEveryUpdateStopsTheReading(coalescing: MarkdownStream.Coalescing, size: Int, ahead: Int)
    async throws
  {
    let text = String(Self.sample.prefix(500))
    let chunks =
      size == 0
      ? StreamingHarness.randomCharacterChunks(text, seed: 5, maximum: 20)
      : stride(from: 0, to: text.count, by: size).map { String(Array(text)[$0..<min(text.count, $0 + size)]) }
    let total = try await Self.collect(MarkdownStream().updates(from: TestSource(chunks), coalescing: coalescing))
      .updates.count
    #expect(total > 3)
    for k in 0...total {
      let gate = Gate(allowed: ahead)
      let updates = MarkdownStream().updates(from: TestSource(chunks, gate: gate), coalescing: coalescing)
      let consumer = Task { () -> (count: Int, afterCancel: Int) in
        var count = 0
        var afterCancel = 0
        var iterator = updates.makeAsyncIterator()
        if k == 0 { withUnsafeCurrentTask { $0?.cancel() } }
        while try await iterator.next() != nil {
          if Task.isCancelled { afterCancel += 1 }
          count += 1
          gate.allow(ahead)
          if count == k { withUnsafeCurrentTask { $0?.cancel() } }
        }
        return (count, afterCancel)
      }
      let result = try await consumer.value
      #expect(result.afterCancel == 0)
      #expect(result.count == k)
      // The reading stops: the source's iterator is dropped, at most `ahead` elements ahead.
      try await gate.waitUntilDropped()
      if k < total { #expect(gate.requests <= (k + 1) * ahead + 1) }
    }
  }

  @Test func cancellingWhileWaitingForTheSourceStopsTheReading() async throws {
    let gate = Gate(allowed: 1)
    let updates = MarkdownStream().updates(from: TestSource(["a", "b", "c"], gate: gate))
    let received = Counter()
    let consumer = Task { () -> Int in
      var count = 0
      for try await _ in updates {
        count += 1
        received.increment()
      }
      return count
    }
    // The consumer has the first update and waits for the second, which the source holds back.
    while gate.requests < 2 || received.value < 1 { try await Task.sleep(for: .milliseconds(1)) }
    consumer.cancel()
    #expect(try await consumer.value == 1)
    try await gate.waitUntilDropped()
    #expect(gate.requests == 2)
  }

  @Test func droppingTheIteratorStopsTheReading() async throws {
    let gate = Gate(allowed: 1)
    let updates = MarkdownStream().updates(from: TestSource(["a", "b", "c"], gate: gate))
    do {
      var iterator = updates.makeAsyncIterator()
      _ = try await iterator.next()
    }
    try await gate.waitUntilDropped()
    #expect(gate.requests <= 2)
  }
}

final class Counter: Sendable {
  private let state = Mutex(0)
  var value: Int { state.withLock { $0 } }
  func increment() { state.withLock { $0 += 1 } }
}

/// Counts the source's requests for elements, releases them when the test allows, and records
/// when the source's iterator is dropped.
final class Gate: Sendable {
  private struct State {
    var allowed: Int
    var requests = 0
    var dropped = false
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  }

  private let state: Mutex<State>

  init(allowed: Int = .max) { state = Mutex(State(allowed: allowed)) }

  var requests: Int { state.withLock { $0.requests } }
  var isDropped: Bool { state.withLock { $0.dropped } }

  func allow(_ count: Int) {
    let ready = state.withLock { state in
      state.allowed += count
      let allowed = state.allowed
      let ids = state.waiters.keys.filter { $0 < allowed }
      return ids.compactMap { state.waiters.removeValue(forKey: $0) }
    }
    for waiter in ready { waiter.resume(returning: true) }
  }

  func dropped() { state.withLock { $0.dropped = true } }

  /// Records request `index`; returns whether it may proceed (false when cancelled while waiting).
  func request(_ index: Int) async -> Bool {
    state.withLock { $0.requests += 1 }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let proceed = state.withLock { state -> Bool? in
          if Task.isCancelled { return false }
          if index < state.allowed { return true }
          state.waiters[index] = continuation
          return nil
        }
        if let proceed { continuation.resume(returning: proceed) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: index) }
      waiter?.resume(returning: false)
    }
  }

  /// Waits (at most 10 s) until the source's iterator is dropped.
  func waitUntilDropped() async throws {
    let start = ContinuousClock.now
    while !isDropped {
      if ContinuousClock.now - start > .seconds(10) {
        Issue.record("the source's iterator was never dropped")
        return
      }
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}

/// An async source of the given elements: optionally paced by a ``Gate`` (which also sees the
/// iterator dropped), advancing a ``TestClock`` per element, and failing after the last one.
struct TestSource<Element: Sendable>: AsyncSequence, Sendable {
  let elements: [Element]
  var gate: Gate?
  var clock: TestClock?
  var step: Duration = .zero
  var failure: (any Error & Sendable)?

  init(
    _ elements: [Element], gate: Gate? = nil, clock: TestClock? = nil, step: Duration = .zero,
    failure: (any Error & Sendable)? = nil
  ) {
    self.elements = elements
    self.gate = gate
    self.clock = clock
    self.step = step
    self.failure = failure
  }

  final class Dropped: Sendable {
    let gate: Gate?
    init(_ gate: Gate?) { self.gate = gate }
    deinit { gate?.dropped() }
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let source: TestSource
    let dropped: Dropped
    var index = 0

    mutating func next() async throws -> Element? {
      if let gate = source.gate, !(await gate.request(index)) { return nil }
      guard index < source.elements.count else {
        if let failure = source.failure { throw failure }
        return nil
      }
      defer { index += 1 }
      source.clock?.advance(by: source.step)
      if source.gate == nil, index % 8 == 0 { await Task.yield() }
      return source.elements[index]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self, dropped: Dropped(gate)) }
}

/// A clock that moves only when a test advances it; sleepers wake when their deadline passes.
final class TestClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let sleepers = ManualSleepers(now: Instant(offset: .zero))

  var now: Instant { sleepers.now }
  var minimumResolution: Duration { .zero }
  var sleeperCount: Int { sleepers.count }

  func advance(by duration: Duration) { sleepers.advance { $0.advanced(by: duration) } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await sleepers.sleep(until: deadline)
  }
}
