import ChatEngine
import Foundation
import ReplyKitTestSupport

/// A clock that moves only when a test advances it; sleepers wake when their deadline passes.
final class ManualClock: ChatClock {
  private let sleepers: ManualSleepers<Date>

  init(_ start: Date) {
    sleepers = ManualSleepers(now: start)
  }

  func now() -> Date { sleepers.now }

  var sleeperCount: Int { sleepers.count }

  /// Moves time forward and wakes every sleeper whose deadline has passed.
  func advance(by seconds: TimeInterval) { sleepers.advance { $0.addingTimeInterval(seconds) } }

  func sleep(until deadline: Date) async throws { try await sleepers.sleep(until: deadline) }
}
