import Foundation
import Synchronization

/// Runs work on a fresh thread with a small stack and waits for it: deep inputs must not need
/// deep stacks.
enum SmallStackThread {
  /// Runs `body` on a thread with a `stackSize`-byte stack and returns its result.
  static func run<T: Sendable>(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.withLock { value in
      guard let value else { preconditionFailure("the small-stack thread returned nothing") }
      return value
    }
  }
}
