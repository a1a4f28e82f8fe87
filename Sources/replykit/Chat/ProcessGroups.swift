import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process groups of reply commands that may still be running, so quitting can end them.
///
/// Guarantees: ``endAll(grace:)`` sends SIGTERM to every group, SIGKILL to those still there
/// after `grace` seconds, and returns only once every group is gone (or two more seconds passed
/// after SIGKILL, for members that cannot be reaped here); so nothing a reply command started
/// outlives the chat, even a command that ignores SIGTERM.
enum ProcessGroups {
  private static let groups = LockedValue<Set<pid_t>>([])

  /// Records the group `id` (a reply command's leader).
  static func add(_ id: pid_t) {
    groups.update { $0.insert(id) }
  }

  /// Forgets `id` if nothing in its group is left.
  static func forgetIfGone(_ id: pid_t) {
    if isGone(id) { groups.update { $0.remove(id) } }
  }

  /// Whether the group `id` has no process left (reaping our own exited children in it first).
  static func isGone(_ id: pid_t) -> Bool {
    var status: Int32 = 0
    while waitpid(-id, &status, WNOHANG) > 0 {}
    return kill(-id, 0) == -1 && errno == ESRCH
  }

  /// Ends every recorded group: SIGTERM, then SIGKILL after `grace` seconds; waits for them.
  static func endAll(grace: TimeInterval) {
    var remaining = groups.value.filter { !isGone($0) }
    guard !remaining.isEmpty else { return }
    for id in remaining { kill(-id, SIGTERM) }
    remaining = waitForGroups(remaining, seconds: grace)
    for id in remaining { kill(-id, SIGKILL) }
    _ = waitForGroups(remaining, seconds: 2)
    groups.set([])
  }

  private static func waitForGroups(_ ids: Set<pid_t>, seconds: TimeInterval) -> Set<pid_t> {
    var remaining = ids
    let deadline = Date().addingTimeInterval(seconds)
    while !remaining.isEmpty, Date() < deadline {
      remaining = remaining.filter { !isGone($0) }
      if !remaining.isEmpty { usleep(10_000) }
    }
    return remaining
  }
}
