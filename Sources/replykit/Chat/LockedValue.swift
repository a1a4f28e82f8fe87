import Synchronization

/// A value shared between threads (a reader thread and a timer, say), behind a mutex.
///
/// Guarantees: every read and write is atomic with respect to the others.
final class LockedValue<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// Creates the box holding `value`.
  init(_ value: Value) { mutex = Mutex(value) }

  /// The value now.
  var value: Value { mutex.withLock { $0 } }

  /// Replaces the value.
  func set(_ value: Value) { mutex.withLock { $0 = value } }

  /// Changes the value in place, atomically (no other change comes between reading and writing).
  func update(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
}
