import Foundation

/// Small timing helpers for in-process benchmarks.
enum Measure {
  /// Runs `body` `runs` times after `warmups` and returns the sorted durations in seconds.
  static func seconds(runs: Int, warmups: Int = 2, _ body: () -> Void) -> [Double] {
    for _ in 0..<warmups { body() }
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
      let elapsed = clock.measure(body)
      samples.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
    }
    return samples.sorted()
  }

  static func median(_ sorted: [Double]) -> Double { sorted[sorted.count / 2] }

  static func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
  }

  static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
}
