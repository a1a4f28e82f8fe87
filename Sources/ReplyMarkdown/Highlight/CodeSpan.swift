/// A run of a code line in one token kind and style.
///
/// - Thread safety: a value type; `Sendable`.
public struct CodeSpan: Sendable, Hashable, Codable {
  /// The UTF-8 byte offsets of the run within its line.
  public var range: Range<Int>
  /// What the run is (keyword, string, comment …): the class HTML names it by.
  public var kind: CodeTokenKind
  /// How the run looks in the highlighter's theme.
  public var style: CodeStyle

  /// Creates a span.
  public init(range: Range<Int>, kind: CodeTokenKind, style: CodeStyle) {
    self.range = range
    self.kind = kind
    self.style = style
  }
}
