import ChatEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Measures switching a version in a long thread with many branches.
///
/// Run by `replykit-bench versions` in a release build. Builds, through the engine's own actions, a
/// thread of `pairs` questions and answers where every `forkEvery`-th answer was regenerated (so
/// it has two versions, the old one a leaf and the new one continued): 10,000 shown messages and
/// 1,000 branches by default. Then `switches` times: a fork picked at random (seeded) is switched
/// to its old version and back, each switch timed (`ChatThread.showVersion(_:)`: the stop check,
/// the move of the shown suffix and of the branch, the observers' notice); then the rows after a
/// switch (day sections recomputed from the switched turn). Target: p99 per switch ≤ 1 ms.
/// Each switch is timed twice: wall time, and the thread's own CPU time (on this shared machine
/// other processes preempt the benchmark, which inflates wall-time percentiles, not CPU time).
enum VersionSwitchBenchmark {
  /// Runs the measurements and returns a markdown table.
  @MainActor
  static func run(pairs: Int = 5_000, forkEvery: Int = 5, switches: Int = 2_000) async -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let environment = ChatEnvironment(calendar: calendar, timeZone: calendar.timeZone, streamingHTML: nil)
    let thread = ChatThread(environment: environment) { history in
      AsyncThrowingStream { continuation in
        continuation.yield("Answer **\(history.count)** with `code`.\n\n- a\n- b\n")
        continuation.finish()
      }
    }
    var forks: [(old: UUID, new: UUID)] = []
    for pair in 0..<pairs {
      try? thread.send("Question \(pair)?")
      await thread.replyFinished()
      guard pair.isMultiple(of: forkEvery), let old = thread.messages.last?.id else { continue }
      try? thread.regenerate(old)
      await thread.replyFinished()
      if let new = thread.messages.last?.id { forks.append((old, new)) }
    }
    let shown = thread.messages.count
    let total = thread.tree.messageCount
    _ = thread.rows

    var generator = SeededGenerator(seed: 18)
    var switchSamples: [UInt64] = []
    var cpuSamples: [UInt64] = []
    var unpreempted: [UInt64] = []
    var rowSamples: [UInt64] = []
    switchSamples.reserveCapacity(switches * 2)
    for _ in 0..<switches {
      let fork = forks[Int(generator.next() % UInt64(forks.count))]
      for target in [fork.old, fork.new] {
        let switchesBefore = contextSwitches()
        let cpu = threadCPUTime()
        let start = DispatchTime.now().uptimeNanoseconds
        try? thread.showVersion(target)
        let wall = DispatchTime.now().uptimeNanoseconds - start
        switchSamples.append(wall)
        cpuSamples.append(threadCPUTime() - cpu)
        if contextSwitches() == switchesBefore { unpreempted.append(wall) }
        let rowsStart = DispatchTime.now().uptimeNanoseconds
        let count = thread.rows.count
        rowSamples.append(DispatchTime.now().uptimeNanoseconds - rowsStart)
        withExtendedLifetime(count) {}
      }
    }
    // The same switches on the tree as a value: the move of the arrays alone, without the engine.
    var tree = thread.tree
    var treeSamples: [UInt64] = []
    generator = SeededGenerator(seed: 18)
    for _ in 0..<switches {
      let fork = forks[Int(generator.next() % UInt64(forks.count))]
      for target in [fork.old, fork.new] {
        let start = DispatchTime.now().uptimeNanoseconds
        tree.showVersion(target)
        treeSamples.append(DispatchTime.now().uptimeNanoseconds - start)
      }
    }
    let consistent = thread.messages.count == shown && thread.tree.brokenRule == nil
    return """
      A thread of \(shown) shown messages (\(total) in all) with \(forks.count) branches: every \(forkEvery)th \
      answer regenerated, the old version a leaf. \(switches) random forks switched to the old version and \
      back (\(switchSamples.count) switches, seeded); the thread \(consistent ? "ends as it began" : "DID NOT end as it began").

      | measurement | mean | p50 | p99 | max |
      |---|---|---|---|---|
      \(row("switch a version (`showVersion`), engine, wall time", switchSamples))
      \(row("switch a version (`showVersion`), engine, thread CPU time", cpuSamples))
      \(row("switch a version, wall time of the \(unpreempted.count) switches the thread was not switched out during", unpreempted))
      \(row("the same switch on a `ChatThreadTree` value", treeSamples))
      \(row("rows after the switch (day sections from the switched turn on)", rowSamples))
      """
  }

  /// How many times the calling thread has been switched out (voluntarily or not).
  static func contextSwitches() -> Int {
    var usage = rusage()
    #if os(Linux)
      getrusage(1, &usage)  // RUSAGE_THREAD, which Glibc's module does not export
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage.ru_nvcsw + usage.ru_nivcsw
  }

  /// The calling thread's CPU time in nanoseconds.
  static func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  private static func row(_ name: String, _ samples: [UInt64]) -> String {
    guard !samples.isEmpty else { return "| \(name) | – | – | – | – |" }
    let sorted = samples.sorted()
    let mean = sorted.reduce(0, +) / UInt64(sorted.count)
    func percentile(_ p: Double) -> UInt64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    func format(_ nanoseconds: UInt64) -> String { String(format: "%.1f µs", Double(nanoseconds) / 1_000) }
    return "| \(name) | \(format(mean)) | \(format(percentile(0.5))) | \(format(percentile(0.99))) | "
      + "\(format(sorted[sorted.count - 1])) |"
  }
}

/// SplitMix64: a seeded generator, so every run switches the same forks.
struct SeededGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
