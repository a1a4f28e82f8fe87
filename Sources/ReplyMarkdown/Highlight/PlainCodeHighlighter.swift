/// The highlighter that highlights nothing: it knows no language, so all code stays plain.
///
/// The default of the renderers, so output without a highlighter is exactly what it was.
///
/// - Thread safety: `Sendable`, stateless.
public struct PlainCodeHighlighter: CodeHighlighter {
  /// Creates the plain highlighter.
  public init() {}

  /// Nil: styles nothing.
  public var theme: CodeTheme? { nil }

  /// Nil: no language is known.
  public func language(named name: String) -> CodeLanguage? { nil }

  /// No spans; the state stays initial.
  public func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
    HighlightedLine(spans: [], state: .initial)
  }
}
