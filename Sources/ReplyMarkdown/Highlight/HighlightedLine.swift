/// One highlighted line: its styled spans and the state the next line starts from.
///
/// - Thread safety: a value type; `Sendable`.
public struct HighlightedLine: Sendable {
  /// Styled runs of the line, in order, not overlapping, in UTF-8 byte offsets of the line.
  public var spans: [CodeSpan]
  /// The state at the end of the line.
  public var state: CodeLineState

  /// Creates a highlighted line.
  public init(spans: [CodeSpan], state: CodeLineState) {
    self.spans = spans
    self.state = state
  }
}
