import ChatEngine
import Foundation

/// `replykit chat --benchmark`: frame time and bytes per frame while a reply streams at the
/// bottom of a 1,000-message thread at 120x40.
///
/// A frame is everything the app does per update: the engine's rows, the layout of the visible
/// rows (re-rendering the streaming reply's markdown), the status and composer lines, and the
/// diff against the previous frame. Writing to the terminal is left out; the bytes are counted.
/// The engine publishes every chunk (publish interval 0), so each chunk costs one frame.
@MainActor
enum FrameBenchmark {
  /// Holds the continuation of the reply being streamed by hand.
  final class Feed {
    var continuation: AsyncThrowingStream<String, any Error>.Continuation?
  }

  /// Runs the benchmark and returns a markdown table.
  static func run(messages count: Int = 1000, columns: Int = 120, rows: Int = 40) async -> String {
    let feed = Feed()
    let now = Date()
    var messages: [ChatMessage] = []
    let replies = [ChatMessage.sample[1].text, BuiltInConversation.template, BuiltInConversation.stubReply(to: "why?")]
    for index in 0..<count {
      let date = now.addingTimeInterval(Double(index - count) * 600)
      if index % 2 == 0 {
        messages.append(
          ChatMessage(role: .user, text: "Question \(index / 2): how would you structure this?", date: date))
      } else {
        messages.append(ChatMessage(role: .assistant, text: replies[index / 2 % replies.count], date: date))
      }
    }
    let thread = ChatThread(
      messages: messages, environment: ChatEnvironment(streamingHTML: nil, publishInterval: 0),
      reply: { _ in
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        feed.continuation = continuation
        return stream
      }, onFeedback: { _, _ in })
    let screen = ChatScreen(columns: columns, rows: rows, color: true)
    var diff = ScreenDiff()

    let clock = ContinuousClock()
    let firstStart = clock.now
    var frame = screen.frame(thread)
    let firstBytes = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight).count
    let firstTime = clock.now - firstStart
    try? thread.send("Write a long answer, please.")
    frame = screen.frame(thread)
    _ = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)

    let chunks = BuiltInConversation.words(
      [BuiltInConversation.template, BuiltInConversation.stubReply(to: "more"), BuiltInConversation.template]
        .joined(separator: "\n\n"))
    func stream(_ chunks: ArraySlice<String>) async -> (times: [Double], bytes: [Int]) {
      var times: [Double] = []
      var bytes: [Int] = []
      for chunk in chunks {
        let revision = thread.replyRevision
        feed.continuation?.yield(chunk)
        while thread.replyRevision == revision { await Task.yield() }
        let start = clock.now
        let frame = screen.frame(thread)
        let output = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)
        let elapsed = clock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        bytes.append(output.count)
      }
      return (times, bytes)
    }
    let split = chunks.count * 3 / 4
    let following = await stream(chunks[0..<split])
    screen.scroll(by: -10, in: thread)
    frame = screen.frame(thread)
    _ = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)
    let scrolled = await stream(chunks[split...])
    feed.continuation?.finish()
    await thread.replyFinished()

    let switched = await framesAfterSwitches(messages: count, columns: columns, rows: rows)

    func percentile(_ values: [Double], _ p: Double) -> Double {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return 0 }
      return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
    func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
    func mean(_ values: [Int]) -> Int { values.isEmpty ? 0 : values.reduce(0, +) / values.count }
    let renderedReplies = screen.renderer.cachedReplies
    let renders = screen.renderer.renderCount
    return """
      | \(count)-message thread, \(columns)x\(rows), reply streaming at the bottom | value |
      |---|---|
      | frames while following (one per chunk) | \(following.times.count) |
      | frame time p50 / p99 / max | \(ms(percentile(following.times, 0.5))) / \(ms(percentile(following.times, 0.99))) / \(ms(following.times.max() ?? 0)) |
      | bytes per frame, mean / p50 / max | \(mean(following.bytes)) / \(Int(percentile(following.bytes.map(Double.init), 0.5))) / \(following.bytes.max() ?? 0) |
      | frames while scrolled up (view stays put) | \(scrolled.times.count) |
      | frame time p50 / p99 | \(ms(percentile(scrolled.times, 0.5))) / \(ms(percentile(scrolled.times, 0.99))) |
      | bytes per frame, mean / max | \(mean(scrolled.bytes)) / \(scrolled.bytes.max() ?? 0) |
      | first frame (cold cache, full screen) time / bytes | \(ms(Double(firstTime.components.attoseconds) / 1e15 + Double(firstTime.components.seconds) * 1000)) / \(firstBytes) |
      | replies ever laid out (of \(count / 2) in the thread) / markdown renders in all | \(renderedReplies) / \(renders) |
      | frame after a version switch (\(switched.times.count) switches, \(count / 10) branches) p50 / p99 / max | \(ms(percentile(switched.times, 0.5))) / \(ms(percentile(switched.times, 0.99))) / \(ms(switched.times.max() ?? 0)) |
      | bytes per frame after a switch, mean / max | \(mean(switched.bytes)) / \(switched.bytes.max() ?? 0) |

      """
  }

  /// The frame drawn right after a version switch, following the latest: a thread of `count`
  /// messages where every fifth answer was regenerated (two versions), switched at random forks
  /// (seeded) to the old version and back. The time covers the engine's rows, the layout of the
  /// visible rows (a switched-in reply rendered once) and the diff; the switch itself is the
  /// engine's (`replykit-bench versions`).
  static func framesAfterSwitches(messages count: Int, columns: Int, rows: Int) async -> (
    times: [Double], bytes: [Int]
  ) {
    let replies = [ChatMessage.sample[1].text, BuiltInConversation.template, BuiltInConversation.stubReply(to: "why?")]
    let thread = ChatThread(environment: ChatEnvironment(streamingHTML: nil, publishInterval: 0)) { history in
      AsyncThrowingStream { continuation in
        continuation.yield(replies[history.count / 2 % replies.count])
        continuation.finish()
      }
    }
    var forks: [(old: UUID, new: UUID)] = []
    for pair in 0..<(count / 2) {
      try? thread.send("Question \(pair): how would you structure this?")
      await thread.replyFinished()
      guard pair.isMultiple(of: 5), let old = thread.messages.last?.id else { continue }
      try? thread.regenerate(old)
      await thread.replyFinished()
      if let new = thread.messages.last?.id { forks.append((old, new)) }
    }
    let screen = ChatScreen(columns: columns, rows: rows, color: true)
    var diff = ScreenDiff()
    var frame = screen.frame(thread)
    _ = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)
    var state: UInt64 = 18
    var times: [Double] = []
    var bytes: [Int] = []
    let clock = ContinuousClock()
    for _ in 0..<200 where !forks.isEmpty {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let fork = forks[Int((state >> 33) % UInt64(forks.count))]
      for target in [fork.old, fork.new] {
        try? thread.showVersion(target)
        let start = clock.now
        frame = screen.frame(thread)
        let output = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)
        let elapsed = clock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        bytes.append(output.count)
      }
    }
    return (times, bytes)
  }
}
