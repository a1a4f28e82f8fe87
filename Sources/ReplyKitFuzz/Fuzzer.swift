import Foundation
import ReplyMarkdown

/// The seeded mutation fuzzer behind `replykit fuzz`: mutates corpus inputs, runs
/// ``FuzzOracle`` on each, minimises failures and saves them as regression files.
public struct Fuzzer {
  /// How long to run: a number of inputs or a number of seconds.
  public enum Duration: Sendable {
    /// Stop after this many inputs.
    case iterations(Int)
    /// Stop after this many seconds.
    case seconds(Double)
  }

  /// What a run found.
  public struct Report: Sendable {
    /// Inputs checked.
    public var inputs = 0
    /// Inputs where the guard reported a change.
    public var guarded = 0
    /// Bytes checked in all.
    public var bytes = 0
    /// Wall time of the run in seconds.
    public var seconds = 0.0
    /// Failures, minimised, with where they were saved (if anywhere).
    public var failures: [(failure: FuzzOracle.Failure, input: [UInt8], savedAt: String?)] = []
  }

  /// The mutator.
  public var mutator: FuzzMutator
  /// The checks.
  public var oracle: FuzzOracle
  /// Where minimised failures are saved (`Corpus/fuzz-regressions`), or `nil` to save nothing.
  public var regressionDirectory: URL?

  /// Creates a fuzzer.
  public init(mutator: FuzzMutator, oracle: FuzzOracle = FuzzOracle(), regressionDirectory: URL?) {
    self.mutator = mutator
    self.oracle = oracle
    self.regressionDirectory = regressionDirectory
  }

  /// Runs from `seed` for `duration`, or until `shouldStop` says so between two inputs (a failure
  /// found is minimised and saved first; minimising stops, keeping the smallest failing input
  /// found, once `shouldStop` says so or a duration in seconds is over: a 27 KB input whose every
  /// candidate rendered megabytes kept a 900 s run going for over 15 minutes more, fuzz seed
  /// 1392); `progress` is called about once a second. An input whose
  /// checks (or the repeats and minimisation of its failure) are still running after `stallLimit`
  /// is saved as a `time` regression, as it is, while they run, and `stalled` is called, from
  /// another thread, with its number and where it was saved (``FuzzWatchdog``). A slow input the
  /// run then minimises is saved twice, whole and minimised. An input whose checks crash the
  /// process (or a candidate of its minimisation) is saved as a `crash` regression before the
  /// process ends (``FuzzCrashRecorder``).
  public func run(
    seed: UInt64, duration: Duration, shouldStop: () -> Bool = { false }, progress: (Report) -> Void = { _ in },
    stallLimit: Swift.Duration = .seconds(60),
    stalled: @escaping @Sendable (_ number: Int, _ savedAt: String?) -> Void = { _, _ in }
  ) -> Report {
    let watchdog = FuzzWatchdog(limit: stallLimit, directory: regressionDirectory, stalled: stalled)
    defer { watchdog.stop() }
    if let regressionDirectory {
      // Where a crash writes, which its handler cannot create.
      try? FileManager.default.createDirectory(at: regressionDirectory, withIntermediateDirectories: true)
      FuzzCrashRecorder.install()
    }
    defer { FuzzCrashRecorder.uninstall() }
    var random = SplitMix64(seed: seed)
    var report = Report()
    let start = Date()
    var lastProgress = start
    var seenFailures: Set<String> = []
    while !shouldStop() {
      if case .iterations(let count) = duration, report.inputs >= count { break }
      if Self.isOver(duration, since: start) { break }
      let bytes = mutator.mutate(using: &random)
      let choice = random.next()
      let input = FuzzOracle.Input(bytes: bytes, smart: choice % 4 == 0, unsafe: choice % 3 == 0)
      report.inputs += 1
      report.bytes += bytes.count
      // Watched through the checks, and through the repeats and minimisation of a failure, each
      // of which may be as slow as the checks.
      watchdog.begin(input, number: report.inputs)
      record(input)
      defer {
        watchdog.end()
        FuzzCrashRecorder.clear()
      }
      do throws(FuzzOracle.Failure) {
        try oracle.check(input)
        if !InputGuard.apply(String(decoding: bytes, as: UTF8.self), options: input.parseOptions).diagnostics.isEmpty {
          report.guarded += 1
        }
      } catch {
        // Timing fails under load too: a time failure must repeat twice more to count, and each
        // smaller candidate must fail twice, within a small budget of trials (each can take as
        // long as the limit), so a shrunk slow input is still slow.
        let repeats = error.check == "time" ? 2 : 1
        guard (0..<repeats).allSatisfy({ _ in (try? oracle.check(input)) == nil }) else { continue }
        let stopsMinimising = { shouldStop() || Self.isOver(duration, since: start) }
        let minimal =
          error.check == "time"
          ? minimise(input, failing: error.check, maxTests: 60, repeats: 2, shouldStop: stopsMinimising)
          : minimise(input, failing: error.check, shouldStop: stopsMinimising)
        let key = error.check + String(decoding: minimal.bytes, as: UTF8.self)
        guard seenFailures.insert(key).inserted else { continue }
        let saved = save(minimal, check: error.check)
        report.failures.append((error, minimal.bytes, saved))
      }
      if Date().timeIntervalSince(lastProgress) >= 1 {
        lastProgress = Date()
        report.seconds = lastProgress.timeIntervalSince(start)
        progress(report)
      }
    }
    report.seconds = Date().timeIntervalSince(start)
    return report
  }

  /// Whether a run of `duration` that started at `start` is over at `now`: never for a number of
  /// inputs (the loop counts them).
  static func isOver(_ duration: Duration, since start: Date, at now: Date = Date()) -> Bool {
    guard case .seconds(let limit) = duration else { return false }
    return now.timeIntervalSince(start) >= limit
  }

  /// The smallest input found that still fails `check` (each candidate `repeats` times); once
  /// `shouldStop` says so, the smallest found so far.
  public func minimise(
    _ input: FuzzOracle.Input, failing check: String, maxTests: Int = 3000, repeats: Int = 1,
    shouldStop: () -> Bool = { false }
  ) -> FuzzOracle.Input {
    var result = input
    result.bytes = DeltaDebugger(maxTests: maxTests).minimise(input.bytes) { candidate in
      if shouldStop() { return false }
      var trial = input
      trial.bytes = candidate
      record(trial)
      return (0..<repeats).allSatisfy { _ in
        do throws(FuzzOracle.Failure) {
          try oracle.check(trial)
          return false
        } catch {
          return error.check == check
        }
      }
    }
    return result
  }

  /// Records `input` as the one a crash of its checks saves (``FuzzCrashRecorder``), when failures
  /// are saved.
  private func record(_ input: FuzzOracle.Input) {
    if let regressionDirectory { FuzzCrashRecorder.record(input, in: regressionDirectory) }
  }

  /// Saves a failing input as `<check>[-smart][-unsafe]-<hash>.md`; returns the path.
  func save(_ input: FuzzOracle.Input, check: String) -> String? {
    regressionDirectory.flatMap { Self.save(input, check: check, in: $0) }
  }

  /// Saves a failing input as `<check>[-smart][-unsafe]-<hash>.md` in `directory`; returns the path.
  static func save(_ input: FuzzOracle.Input, check: String, in directory: URL) -> String? {
    let name = Self.regressionName(for: input, check: check)
    let url = directory.appendingPathComponent(name)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    guard (try? Data(input.bytes).write(to: url)) != nil else { return nil }
    return url.path
  }

  /// The file name of a regression: the check, the options, and an FNV-1a hash of the bytes.
  public static func regressionName(for input: FuzzOracle.Input, check: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in input.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let hex = String(hash, radix: 16)
    return
      "\(check)\(input.smart ? "-smart" : "")\(input.unsafe ? "-unsafe" : "")-\(String(repeating: "0", count: 16 - hex.count) + hex).md"
  }

  /// The options a regression file's name asks for.
  public static func input(fromRegressionNamed name: String, bytes: [UInt8]) -> FuzzOracle.Input {
    FuzzOracle.Input(bytes: bytes, smart: name.contains("-smart"), unsafe: name.contains("-unsafe"))
  }
}
