/// A report that ``InputGuard`` changed the input because it went past one of the ``InputLimits``.
///
/// One diagnostic is made per kind of limit and document; `count` says how many places changed.
public struct MarkdownDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Which limit was passed.
  public var kind: Kind
  /// The 1-based line (of the original input) of the first change.
  public var line: Int
  /// How many places were changed for this limit.
  public var count: Int
  /// The limit's value.
  public var limit: Int

  /// Creates a diagnostic.
  public init(kind: Kind, line: Int, count: Int, limit: Int) {
    self.kind = kind
    self.line = line
    self.count = count
    self.limit = limit
  }

  /// A one-line, human-readable explanation, for logs.
  public var description: String {
    "line \(line): \(kind.summary) (limit \(limit)); \(count) place\(count == 1 ? "" : "s") rendered as literal text"
  }
}
