import Foundation

/// What a reply's stream has delivered and the thread has not taken yet: the text of its chunks,
/// in order, and how the stream ended.
///
/// The reading task fills it as chunks arrive, off the main actor, so a busy main actor never
/// leaves chunks waiting in the stream, where Stop would drop them. The thread takes from it on
/// the main actor. Thread safety: every member takes the lock.
package final class ReplyInbox: @unchecked Sendable {
  /// How a stream ended.
  enum End {
    case finished
    case failed(any Error)
  }

  private let lock = NSLock()
  private var text = ""
  private var received = 0
  private var end: End?
  private var takeScheduled = false

  /// Adds `chunk`; `true` when the thread has to be asked to take (no take is scheduled yet).
  func append(_ chunk: String) -> Bool {
    lock.withLock {
      text += chunk
      received += chunk.utf8.count
      return schedule()
    }
  }

  /// Records how the stream ended; `true` when the thread has to be asked to take.
  func finish(_ end: End) -> Bool {
    lock.withLock {
      guard self.end == nil else { return false }
      self.end = end
      return schedule()
    }
  }

  /// Everything delivered since the last take, and the end once it came; the next delivery
  /// schedules a take again.
  func take() -> (text: String, end: End?) {
    lock.withLock {
      takeScheduled = false
      defer { text = "" }
      return (text, end)
    }
  }

  /// Whether the stream has ended (finished or failed), taken or not.
  package var hasEnded: Bool { lock.withLock { end != nil } }

  /// The bytes of text delivered and not taken yet (for tests).
  package var heldBytes: Int { lock.withLock { text.utf8.count } }

  /// The bytes of text delivered in all (for tests).
  package var receivedBytes: Int { lock.withLock { received } }

  private func schedule() -> Bool {
    guard !takeScheduled else { return false }
    takeScheduled = true
    return true
  }
}
