import Dispatch
import Synchronization

/// Runs work on real OS threads at once (not the cooperative pool), for thread-safety tests.
enum DispatchQueueRunner {
  static func concurrentPerform(iterations: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
  }
}

/// A thread-safe flag a worker sets.
final class SmallStackResult: Sendable {
  private let value = Mutex(false)
  func set(_ newValue: Bool) { value.withLock { $0 = newValue } }
  func get() -> Bool { value.withLock { $0 } }
}
