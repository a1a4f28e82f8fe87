import ChatEngine
import Foundation
import Synchronization

/// Measures the engine's cost per streamed chunk and of laying out a long thread.
///
/// Run by `replykit-bench engine` in a release build: `await ChatEngineBenchmark.run()` returns a
/// markdown table. Reaches the engine's run and cache versions through `package` access. Streams a reply of `replyBytes` in chunks of `chunkBytes` into a
/// thread of `threadSize` messages, timing each chunk's delivery (fence, buffer, coalesced
/// publish into the observed thread); then times day sections and rows for that thread.
enum ChatEngineBenchmark {
  /// Runs every measurement and returns the results as a markdown table.
  @MainActor
  static func run(replyBytes: Int = 100_000, chunkBytes: Int = 4, threadSize: Int = 10_000) async -> String {
    let chunks = makeChunks(replyBytes: replyBytes, chunkBytes: chunkBytes)
    var rows: [String] = []
    let bare = await perChunk(chunks, threadSize: threadSize, viewHoldsText: false, rendersHTML: false)
    rows.append(row("chunk delivery, engine alone, no streaming HTML", bare))
    let alone = await perChunk(chunks, threadSize: threadSize, viewHoldsText: false)
    rows.append(row("chunk delivery, engine alone (with its streaming HTML)", alone))
    let viewed = await perChunk(chunks, threadSize: threadSize, viewHoldsText: true)
    rows.append(row("chunk delivery, a view holding the published text", viewed))
    let endToEnd = await throughStream(chunks, threadSize: threadSize)
    rows.append("| chunk through AsyncThrowingStream + engine (mean) | \(format(endToEnd)) | | | |")
    let layout = layoutCosts(threadSize: threadSize)
    rows.append(row("day sections, \(threadSize) messages (pure function)", layout.sections))
    rows.append(row("rows, \(threadSize) messages (sections cached)", layout.rows))
    rows.append(row("rows, \(threadSize) messages (after a send: last section recomputed)", layout.tailRows))
    rows.append(row("rows, \(threadSize) messages (sections from scratch)", layout.coldRows))
    return """
      Reply \(replyBytes) bytes in \(chunks.count) chunks of \(chunkBytes) bytes into a thread of \(threadSize) \
      messages; simulated model pace 10 ms per chunk, publishes coalesced to 30 per second.

      | measurement | mean | p50 | p99 | max |
      |---|---|---|---|---|
      \(rows.joined(separator: "\n"))
      """
  }

  // MARK: Measurements

  @MainActor
  private static func perChunk(_ chunks: [String], threadSize: Int, viewHoldsText: Bool, rendersHTML: Bool = true)
    async -> [UInt64]
  {
    let clock = SteppedClock()
    let held = HeldText()
    var environment = ChatEnvironment(clock: clock, calendar: Calendar(identifier: .gregorian))
    // The default environment renders the streaming reply to HTML as it grows (a publish feeds
    // a MarkdownStream); without it the figure is the engine's own bookkeeping.
    if !rendersHTML { environment.streamingHTML = nil }
    environment.timeZone = TimeZone(identifier: "UTC") ?? .current
    let thread = ChatThread(messages: history(threadSize), environment: environment) { _ in
      AsyncThrowingStream { _ in }
    }
    try? thread.send("Benchmark question")
    guard let run = thread.run else { return [] }
    var samples: [UInt64] = []
    samples.reserveCapacity(chunks.count)
    for (index, chunk) in chunks.enumerated() {
      clock.set(Double(index) * 0.010)
      let start = DispatchTime.now().uptimeNanoseconds
      thread.deliver(chunk, to: run)
      samples.append(DispatchTime.now().uptimeNanoseconds - start)
      if viewHoldsText, thread.replyRevision != held.revision {
        held.revision = thread.replyRevision
        held.text = thread.messages.last?.text ?? ""
      }
    }
    thread.stop()
    return samples
  }

  @MainActor
  private static func throughStream(_ chunks: [String], threadSize: Int) async -> UInt64 {
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    var environment = ChatEnvironment(calendar: Calendar(identifier: .gregorian))
    environment.timeZone = TimeZone(identifier: "UTC") ?? .current
    let thread = ChatThread(messages: history(threadSize), environment: environment) { _ in stream }
    try? thread.send("Benchmark question")
    let start = DispatchTime.now().uptimeNanoseconds
    for chunk in chunks { continuation.yield(chunk) }
    continuation.finish()
    await thread.replyFinished()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    return elapsed / UInt64(max(chunks.count, 1))
  }

  @MainActor
  private static func layoutCosts(threadSize: Int) -> (
    sections: [UInt64], rows: [UInt64], tailRows: [UInt64], coldRows: [UInt64]
  ) {
    let messages = history(threadSize)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .current
    let now = messages.last?.date ?? Date()
    var sections: [UInt64] = []
    for _ in 0..<20 {
      let start = DispatchTime.now().uptimeNanoseconds
      let result = ChatDaySection.sections(
        for: messages, now: now, calendar: calendar, timeZone: calendar.timeZone, locale: Locale(identifier: "en_US"))
      sections.append(DispatchTime.now().uptimeNanoseconds - start)
      withExtendedLifetime(result) {}
    }
    let environment = ChatEnvironment(clock: SteppedClock(start: now), calendar: calendar, timeZone: calendar.timeZone)
    let thread = ChatThread(messages: messages, environment: environment) { _ in AsyncThrowingStream { _ in } }
    var rows: [UInt64] = []
    var tailRows: [UInt64] = []
    var coldRows: [UInt64] = []
    for _ in 0..<20 {
      thread.threadVersion += 1
      var start = DispatchTime.now().uptimeNanoseconds
      var count = thread.rows.count
      coldRows.append(DispatchTime.now().uptimeNanoseconds - start)
      start = DispatchTime.now().uptimeNanoseconds
      count += thread.rows.count
      rows.append(DispatchTime.now().uptimeNanoseconds - start)
      thread.structureVersion += 1
      start = DispatchTime.now().uptimeNanoseconds
      count += thread.rows.count
      tailRows.append(DispatchTime.now().uptimeNanoseconds - start)
      withExtendedLifetime(count) {}
    }
    return (sections, rows, tailRows, coldRows)
  }

  // MARK: Data

  /// A thread of `count` messages, alternating question and markdown answer, about 27 a day.
  static func history(_ count: Int) -> [ChatMessage] {
    let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
    return (0..<count).map { index in
      ChatMessage(
        role: index.isMultiple(of: 2) ? .user : .assistant,
        text: index.isMultiple(of: 2) ? "Question \(index)?" : "Answer **\(index)** with `code`.\n\n- a\n- b\n",
        date: start.addingTimeInterval(Double(index) * 3_200))
    }
  }

  static func makeChunks(replyBytes: Int, chunkBytes: Int) -> [String] {
    let paragraph = "Streaming **markdown** with `code`, lists and text. "
    var text = ""
    while text.utf8.count < replyBytes { text += paragraph }
    let bytes = Array(text.utf8.prefix(replyBytes))
    return stride(from: 0, to: bytes.count, by: chunkBytes).map {
      String(decoding: bytes[$0..<min($0 + chunkBytes, bytes.count)], as: UTF8.self)
    }
  }

  // MARK: Formatting

  private static func row(_ name: String, _ samples: [UInt64]) -> String {
    guard !samples.isEmpty else { return "| \(name) | – | – | – | – |" }
    let sorted = samples.sorted()
    let mean = sorted.reduce(0, +) / UInt64(sorted.count)
    func percentile(_ p: Double) -> UInt64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    return "| \(name) | \(format(mean)) | \(format(percentile(0.5))) | \(format(percentile(0.99))) | "
      + "\(format(sorted[sorted.count - 1])) |"
  }

  private static func format(_ nanoseconds: UInt64) -> String {
    switch nanoseconds {
    case ..<10_000: return String(format: "%.2f µs", Double(nanoseconds) / 1_000)
    case ..<10_000_000: return String(format: "%.1f µs", Double(nanoseconds) / 1_000)
    default: return String(format: "%.2f ms", Double(nanoseconds) / 1_000_000)
    }
  }
}

/// A clock set by the benchmark; sleeping waits (cancellably) for an hour, so flushes never fire
/// on their own and only the chunk path is measured.
final class SteppedClock: ChatClock {
  private let base: Date
  private let offset = Mutex(0.0)

  init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { base = start }

  func set(_ seconds: Double) { offset.withLock { $0 = seconds } }
  func now() -> Date { base.addingTimeInterval(offset.withLock { $0 }) }
  func sleep(until deadline: Date) async throws { try await Task.sleep(for: .seconds(3_600)) }
}

/// What a benchmark "view" keeps of the reply.
@MainActor
final class HeldText {
  var revision = -1
  var text = ""
}
