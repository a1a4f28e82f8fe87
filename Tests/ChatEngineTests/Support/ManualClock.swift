import ChatEngine
import Foundation
import Synchronization

/// A clock that moves only when a test advances it; sleepers wake when their deadline passes.
final class ManualClock: ChatClock {
  private struct State {
    var now: Date
    var nextID = 0
    var sleepers: [Int: (deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = [:]
  }

  private let state: Mutex<State>

  init(_ start: Date) {
    state = Mutex(State(now: start))
  }

  func now() -> Date { state.withLock { $0.now } }

  var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Moves time forward and wakes every sleeper whose deadline has passed.
  func advance(by seconds: TimeInterval) {
    let due = state.withLock { state in
      state.now = state.now.addingTimeInterval(seconds)
      let now = state.now
      let ids = state.sleepers.filter { $0.value.deadline <= now }.keys
      return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
    }
    for continuation in due { continuation.resume() }
  }

  func sleep(until deadline: Date) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Action { case wait, resume, cancel }
        let action = state.withLock { state -> Action in
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
