import Foundation
import ReplyKitFuzz
import Synchronization
import Testing

/// The fuzzer's watchdog saves an input whose checks outlast the limit while they still run.
@Suite struct FuzzWatchdogTests {
  /// The stall reports, in order.
  final class Reports: Sendable {
    let list = Mutex<[(Int, String?)]>([])
    func add(_ number: Int, _ path: String?) { list.withLock { $0.append((number, path)) } }
    var count: Int { list.withLock { $0.count } }
  }

  private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func anInputStillCheckedPastTheLimitIsSavedOnceAndReported() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reports = Reports()
    let watchdog = FuzzWatchdog(limit: .milliseconds(100), poll: .milliseconds(20), directory: directory) {
      reports.add($0, $1)
    }
    let input = FuzzOracle.Input(bytes: Array("slow [input".utf8), smart: true, unsafe: false)
    watchdog.begin(input, number: 7)
    // Wait (up to 20 s on a loaded machine) for the report, then a few more polls for a second one.
    var waited = 0
    while reports.count == 0 && waited < 1000 {
      Thread.sleep(forTimeInterval: 0.02)
      waited += 1
    }
    Thread.sleep(forTimeInterval: 0.3)
    watchdog.end()
    watchdog.stop()
    let list = reports.list.withLock { $0 }
    try #require(list.count == 1)
    #expect(list[0].0 == 7)
    let path = try #require(list[0].1)
    #expect(URL(fileURLWithPath: path).lastPathComponent == Fuzzer.regressionName(for: input, check: "time"))
    #expect(FileManager.default.contents(atPath: path) == Data("slow [input".utf8))
  }

  @Test func anInputWhoseChecksEndInTimeIsNotSaved() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reports = Reports()
    let watchdog = FuzzWatchdog(limit: .seconds(5), poll: .milliseconds(20), directory: directory) {
      reports.add($0, $1)
    }
    for number in 1...50 {
      watchdog.begin(FuzzOracle.Input(bytes: Array("fast \(number)".utf8), smart: false, unsafe: false), number: number)
      watchdog.end()
    }
    Thread.sleep(forTimeInterval: 0.2)
    watchdog.stop()
    #expect(reports.count == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func stoppingReturnsAtOnceAndTwiceIsHarmless() {
    let watchdog = FuzzWatchdog(limit: .seconds(60), poll: .seconds(30), directory: nil) { _, _ in }
    let started = ContinuousClock.now
    watchdog.stop()
    watchdog.stop()
    // An input begun after the stop does not undo it (a second stop waited for a thread long gone).
    watchdog.begin(FuzzOracle.Input(bytes: [], smart: false, unsafe: false), number: 1)
    watchdog.stop()
    // The thread is woken rather than left to sleep out its poll of 30 s.
    #expect(ContinuousClock.now - started < .seconds(20))
  }
}
