import Foundation
import Synchronization

/// Watches the input the fuzzer is checking from a thread of its own, and saves it once its
/// checks have run longer than a limit, while they still run.
///
/// The oracle's time check only fails an input once its checks end; an input whose checks run for
/// minutes (a superlinear case) or never end would be lost if the run is stopped by then. The
/// watchdog saves it as a `time` regression first (not minimised: it may be large), and reports it.
///
/// Guarantees: at most one save per input; nothing is saved for an input whose checks end within
/// the limit (wall-clock time, where the oracle's time check counts CPU time: on a loaded machine
/// an input may be saved that the oracle then passes); ``stop()``, called from the thread that
/// calls ``begin(_:number:)``, returns after the watching thread has ended. The thread keeps the
/// watchdog alive until ``stop()`` is called.
public final class FuzzWatchdog: Sendable {
  /// The input being checked, when its checks started, and whether it was saved.
  private struct Watched {
    var input: FuzzOracle.Input?
    var started = ContinuousClock.now
    var number = 0
    var saved = false
    var stopped = false
  }

  private let state = Mutex(Watched())
  private let done = DispatchSemaphore(value: 0)
  private let wake = DispatchSemaphore(value: 0)
  private let limit: Duration
  private let poll: Duration
  private let directory: URL?
  private let stalled: @Sendable (_ number: Int, _ savedAt: String?) -> Void

  /// Starts watching: an input whose checks run longer than `limit` is saved into `directory`
  /// (when one is given) and `stalled` is called with its number (1 for the first input) and the
  /// path it was saved at. The state is looked at every `poll`.
  public init(
    limit: Duration, poll: Duration = .seconds(1), directory: URL?,
    stalled: @escaping @Sendable (_ number: Int, _ savedAt: String?) -> Void
  ) {
    self.limit = limit
    self.poll = poll
    self.directory = directory
    self.stalled = stalled
    let thread = Thread { [self] in watch() }
    thread.name = "fuzz watchdog"
    thread.start()
  }

  /// The checks of `input`, the `number`th, start now.
  public func begin(_ input: FuzzOracle.Input, number: Int) {
    state.withLock { watched in
      watched.input = input
      watched.started = .now
      watched.number = number
      watched.saved = false
    }
  }

  /// The checks of the input given to ``begin(_:number:)`` ended.
  public func end() {
    state.withLock { $0.input = nil }
  }

  /// Stops the thread; returns once it has stopped.
  public func stop() {
    let wasStopped = state.withLock { watched in
      defer { watched.stopped = true }
      return watched.stopped
    }
    guard !wasStopped else { return }
    wake.signal()
    done.wait()
  }

  private func watch() {
    while true {
      let seconds = Double(poll.components.seconds) + Double(poll.components.attoseconds) * 1e-18
      _ = wake.wait(timeout: .now() + seconds)
      let due: (FuzzOracle.Input, Int)? = state.withLock { watched in
        guard !watched.stopped, !watched.saved, let input = watched.input,
          ContinuousClock.now - watched.started > limit
        else { return nil }
        watched.saved = true
        return (input, watched.number)
      }
      if let (input, number) = due {
        stalled(number, directory.flatMap { Fuzzer.save(input, check: "time", in: $0) })
      }
      if state.withLock({ $0.stopped }) { break }
    }
    done.signal()
  }
}
