/// What a ``ChatThread`` asks assistive technology to say.
///
/// Announced when a reply finishes, fails, or is copied, and when the shown version of a turn
/// changes; never per chunk, never for Stop (the person did that themselves).
public enum ChatAnnouncement: Hashable, Sendable {
  /// A reply completed.
  case replyFinished
  /// A reply failed; the payload is the message shown in place.
  case replyFailed(String)
  /// A reply or a code block was copied.
  case copied
  /// Another version of a turn shows: `number` of `count`, from 1.
  case versionShown(number: Int, count: Int)

  /// The sentence to speak.
  public var text: String {
    switch self {
    case .replyFinished: return "Reply finished"
    case .replyFailed(let message): return "Reply failed: \(message)"
    case .copied: return "Copied"
    case .versionShown(let number, let count): return "Version \(number) of \(count)"
    }
  }
}
