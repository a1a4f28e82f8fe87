/// The state a ``CodeHighlighter`` is in at the end of a line, which the next line starts from.
///
/// Opaque to everyone but the highlighter that made it: keep it, and pass it with the next line.
///
/// - Thread safety: `Sendable`; the storage is immutable.
public struct CodeLineState: Sendable {
  /// The state at the first line of a block.
  public static let initial = CodeLineState(storage: nil)

  /// The highlighter's own state object; nil at the first line of a block.
  public let storage: (any AnyObject & Sendable)?

  /// Creates a state around a highlighter's own state object.
  public init(storage: (any AnyObject & Sendable)?) {
    self.storage = storage
  }

  /// Whether this is the state at the first line of a block.
  public var isInitial: Bool { storage == nil }
}
