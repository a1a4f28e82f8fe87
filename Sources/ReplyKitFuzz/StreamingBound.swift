import ReplyMarkdown

/// The bound every ``MarkdownStreamUpdate`` must keep, checked update by update on its
/// ``MarkdownStreamStatistics`` (bytes counted, never time).
///
/// For every update of ``MarkdownStream/feed(_:)``:
/// - `parsedBytes <= 16 * (openBytes + chunkLength) + 2 * lookbackBytes + budget + 512` (an update may
///   parse its open part several times: the structural parse, a long block tried and left, the
///   healer's up to five parses; bracket-heavy fuzz input reached 13 times), where
///   `budget` is 4096 bytes: re-parses of held blocks (at most the policy's 4 KB of them under
///   ``MarkdownStream/ReferencePolicy/live``) and a glued table's paragraph parsed alone. The
///   bound does not depend on the size of the reply: that is the point of it;
/// - under ``MarkdownStream/ReferencePolicy/holdUntilFinish`` the held blocks are not bounded,
///   and a definition that arrives re-parses the held blocks waiting for it: twice the held bytes
///   before the update are allowed on top (each re-parse goes with its definitions preamble);
/// - under a ``MarkdownStream/ReferencePolicy/holdWithin(bytes:)`` policy, `heldBytes` stays
///   within its budget;
/// - `committedBytes` never decreases.
///
/// The update of ``MarkdownStream/finish()`` parses what is not committed once more (with its
/// lookback), and the whole reply once when it carries a replacement, as its documentation says;
/// it is checked against that instead.
public struct StreamingBound: Sendable {
  /// A broken bound: which update, and its figures.
  public struct Violation: Error, Sendable, CustomStringConvertible {
    /// The 0-based index of the update (the final one counts too).
    public var update: Int
    /// What was broken.
    public var rule: String
    /// The update's figures.
    public var statistics: MarkdownStreamStatistics
    /// The chunk's length in bytes (0 for the final update).
    public var chunkLength: Int
    /// The bytes received up to this update.
    public var receivedBytes: Int

    public var description: String {
      let s = statistics
      return
        "update \(update) (received \(receivedBytes) B, chunk \(chunkLength) B): \(rule); parsed \(s.parsedBytes), "
        + "open \(s.openBytes), lookback \(s.lookbackBytes), held \(s.heldBytes), committed \(s.committedBytes)"
    }
  }

  /// The constant of the bound: the held budget of ``MarkdownStream/ReferencePolicy/live``.
  public static let budget = 4096
  /// Slack for a few lines of context (a definition line, a fence's opening line).
  public static let slack = 512

  /// The largest `parsedBytes` the bound allows a feed update.
  public static func allowed(openBytes: Int, chunkLength: Int, lookbackBytes: Int) -> Int {
    16 * (openBytes + chunkLength) + 2 * lookbackBytes + budget + slack
  }

  /// The held budget checked, if any.
  public let heldBudget: Int?
  /// Updates seen so far.
  public private(set) var updates = 0
  /// Bytes parsed by every update so far.
  public private(set) var totalParsedBytes = 0
  /// The largest held plus open bytes seen after an update.
  public private(set) var largestHeldAndOpen = 0
  private var previous = MarkdownStreamStatistics.zero

  /// Creates a checker for a stream with `policy`.
  public init(policy: MarkdownStream.ReferencePolicy) {
    switch policy {
    case .holdWithin(let bytes): heldBudget = bytes
    case .holdUntilFinish: heldBudget = nil
    }
  }

  /// Checks the update that followed a chunk of `chunkLength` bytes (the final update: 0).
  public mutating func check(_ update: MarkdownStreamUpdate, chunkLength: Int) throws(Violation) {
    let s = update.statistics
    defer {
      updates += 1
      totalParsedBytes += s.parsedBytes
      largestHeldAndOpen = max(largestHeldAndOpen, s.heldBytes + s.openBytes)
      previous = s
    }
    func fail(_ rule: String) -> Violation {
      Violation(
        update: updates, rule: rule, statistics: s, chunkLength: chunkLength, receivedBytes: update.receivedBytes)
    }
    if s.committedBytes < previous.committedBytes {
      throw fail("committedBytes decreased from \(previous.committedBytes)")
    }
    if update.isFinal {
      // What was not committed, parsed once with its lookback, and the whole reply once more
      // when a replacement is given.
      // Sizes of the decoded text (after finish() everything is committed): an invalid UTF-8
      // byte received becomes three bytes of U+FFFD.
      let total = max(s.committedBytes, update.receivedBytes)
      let rest = total - previous.committedBytes
      let allowed = 2 * rest + 2 * s.lookbackBytes + (update.replacement == nil ? 0 : total) + Self.slack
      if s.parsedBytes > allowed { throw fail("final parsedBytes > \(allowed)") }
      return
    }
    if let heldBudget, s.heldBytes > heldBudget {
      throw fail("heldBytes > \(heldBudget)")
    }
    var allowed = Self.allowed(openBytes: s.openBytes, chunkLength: chunkLength, lookbackBytes: s.lookbackBytes)
    if heldBudget == nil { allowed += 2 * previous.heldBytes }
    if s.parsedBytes > allowed { throw fail("parsedBytes > \(allowed)") }
  }
}
