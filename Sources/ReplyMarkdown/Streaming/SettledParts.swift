import Synchronization

/// The settled parts of an open long block, shared by the stream and every tail it sends without
/// copying: parts are only ever appended, and a tail sees the first ``count``.
///
/// A stream that was copied and appends after its copy did gets a log of its own (the shared
/// prefix copied once).
struct SettledParts: Sendable {
  /// Appended under a lock: a tail may be read on another thread while the stream appends.
  final class Log: Sendable {
    let parts: Mutex<[MarkdownStreamSettledPart]>

    init(_ parts: [MarkdownStreamSettledPart]) {
      self.parts = Mutex(parts)
    }

    /// Appends `part` if the log holds exactly `count` parts; returns whether it did.
    func append(_ part: MarkdownStreamSettledPart, at count: Int) -> Bool {
      parts.withLock { parts in
        guard parts.count == count else { return false }
        parts.append(part)
        return true
      }
    }

    func prefix(_ count: Int) -> [MarkdownStreamSettledPart] {
      parts.withLock { Array($0.prefix(count)) }
    }
  }

  /// No parts.
  static let none = SettledParts()

  private var log = Log([])
  /// How many parts this value holds.
  private(set) var count = 0

  /// - Complexity: amortized O(1), O(n) once after a copy of the stream appended first.
  mutating func append(_ part: MarkdownStreamSettledPart) {
    if !log.append(part, at: count) {
      log = Log(log.prefix(count))
      _ = log.append(part, at: count)
    }
    count += 1
  }

  /// The parts, in order.
  /// - Complexity: O(n).
  var all: [MarkdownStreamSettledPart] { log.prefix(count) }
}
