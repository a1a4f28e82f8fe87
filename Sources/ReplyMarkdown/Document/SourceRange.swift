/// A position in the markdown source: a 1-based line and a 1-based UTF-8 byte column.
///
/// Stored in 32 bits each (a document has far fewer than 2^31 lines), which keeps nodes small.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable {
  private var storedLine: Int32
  private var storedColumn: Int32

  /// The 1-based line number.
  public var line: Int {
    get { Int(storedLine) }
    set { storedLine = Int32(clamping: newValue) }
  }
  /// The 1-based column, counted in UTF-8 bytes from the start of the line.
  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = Int32(clamping: newValue) }
  }

  /// Creates a position from a 1-based line and a 1-based UTF-8 byte column.
  public init(line: Int, column: Int) {
    self.storedLine = Int32(clamping: line)
    self.storedColumn = Int32(clamping: column)
  }

  private enum CodingKeys: String, CodingKey {
    case storedLine = "line"
    case storedColumn = "column"
  }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

/// The span of a node in the markdown source, both ends inclusive, as cmark-gfm reports it.
public struct SourceRange: Sendable, Hashable, Codable {
  /// The first byte of the node.
  public var start: SourcePosition
  /// The last byte of the node (inclusive).
  public var end: SourcePosition

  /// Creates a range from its inclusive ends.
  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }
}
