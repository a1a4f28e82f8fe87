/// Shrinks a failing input while it keeps failing the same check (ddmin, Zeller and Hildebrandt),
/// first by chunks, then byte by byte.
public struct DeltaDebugger {
  /// The most checks one minimisation may run.
  public var maxTests: Int

  /// Creates a minimiser.
  public init(maxTests: Int = 3000) { self.maxTests = maxTests }

  /// The smallest input found for which `fails` still holds.
  ///
  /// - Complexity: at most ``maxTests`` calls of `fails`.
  public func minimise(_ input: [UInt8], fails: ([UInt8]) -> Bool) -> [UInt8] {
    var current = input
    var granularity = 2
    var tests = 0
    while current.count >= 2 && tests < maxTests {
      let chunk = max(1, current.count / granularity)
      var reduced = false
      var start = 0
      while start < current.count && tests < maxTests {
        let end = min(current.count, start + chunk)
        var candidate = current
        candidate.removeSubrange(start..<end)
        tests += 1
        if !candidate.isEmpty && fails(candidate) {
          current = candidate
          reduced = true
        } else {
          start = end
        }
      }
      if reduced {
        granularity = max(granularity - 1, 2)
      } else {
        if chunk == 1 { break }
        granularity = min(granularity * 2, current.count)
      }
    }
    return current
  }
}
