import Synchronization

/// The sleepers of a clock that moves only when a test moves it: the part the tests' manual clocks
/// share. A sleeper wakes when time reaches its deadline, at once if it already has, and with
/// `CancellationError` when its task is cancelled, before or while it sleeps.
public final class ManualSleepers<Instant: Comparable & Sendable>: Sendable {
  private struct State {
    var now: Instant
    var nextID = 0
    var sleepers: [Int: (deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
  }

  private let state: Mutex<State>

  private enum SleepAction { case wait, resume, cancel }

  /// Sleepers on a clock that reads `now`.
  public init(now: Instant) {
    state = Mutex(State(now: now))
  }

  /// The time now.
  public var now: Instant { state.withLock { $0.now } }

  /// How many sleepers wait.
  public var count: Int { state.withLock { $0.sleepers.count } }

  /// Moves time to `move(now)` and wakes every sleeper whose deadline has passed.
  public func advance(_ move: (Instant) -> Instant) {
    let due = state.withLock { state in
      state.now = move(state.now)
      let now = state.now
      let ids = state.sleepers.filter { $0.value.deadline <= now }.keys
      return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
    }
    for continuation in due { continuation.resume() }
  }

  /// Waits until time reaches `deadline`.
  public func sleep(until deadline: Instant) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let action = state.withLock { state -> SleepAction in
          if Task.isCancelled { return .cancel }
          if deadline <= state.now { return .resume }
          state.sleepers[id] = (deadline, continuation)
          return .wait
        }
        switch action {
        case .wait: break
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let continuation = state.withLock { $0.sleepers.removeValue(forKey: id)?.continuation }
      continuation?.resume(throwing: CancellationError())
    }
  }
}
