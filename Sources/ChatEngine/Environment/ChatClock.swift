import Foundation

/// The time source of a ``ChatThread``: what "now" is, and how to wait.
///
/// Injected so that tests decide when the Copied mark ends, when coalesced chunks are
/// published and what day it is. Implementations must be safe to call from any task.
public protocol ChatClock: Sendable {
  /// The current time.
  func now() -> Date
  /// Suspends until `deadline` has passed; throws `CancellationError` if the task is cancelled first.
  func sleep(until deadline: Date) async throws
}

/// The wall clock: `Date()` and `Task.sleep`.
public struct SystemChatClock: ChatClock {
  /// Creates the wall clock.
  public init() {}

  /// The current time.
  public func now() -> Date { Date() }

  /// The longest one sleep lasts: a year (a deadline further away, or not a number, would
  /// overflow the sleep's duration).
  public static let longestSleep: TimeInterval = 365 * 86_400

  /// Sleeps with `Task.sleep` until `deadline` (at most ``longestSleep``); returns at once if it
  /// has passed. The time left is measured once, so a wall clock set back meanwhile does not
  /// lengthen the sleep.
  public func sleep(until deadline: Date) async throws {
    let seconds = deadline.timeIntervalSince(Date())
    if seconds > 0 {
      try await Task.sleep(for: .seconds(min(seconds, Self.longestSleep)))
    } else {
      try Task.checkCancellation()
    }
  }
}
