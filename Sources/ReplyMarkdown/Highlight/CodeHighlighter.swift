/// Colours the code of code blocks: a language name and code lines in, styled spans and a
/// per-line state out.
///
/// A block is highlighted line by line: each line starts from the ``CodeLineState`` the line
/// before it left (``CodeLineState/initial`` for the first line), so a multi-line string or comment
/// carries over, and a streaming renderer highlights each finished line once and keeps the state.
/// ReplyMarkdown itself ships only ``PlainCodeHighlighter``; the `ReplyHighlight` library provides
/// one over KDE's KSyntaxHighlighting, and an app may plug in its own.
///
/// - Thread safety: implementations are `Sendable` and may be called from any thread at once.
public protocol CodeHighlighter: Sendable {
  /// The colours of the theme the spans are styled in, for stylesheets and backgrounds; nil when
  /// the highlighter styles nothing.
  var theme: CodeTheme? { get }

  /// The language a fence's language name stands for (`py`, `Python`, `c++`, `Dockerfile`,
  /// matched without regard to case), or nil when the highlighter does not know it.
  ///
  /// An unknown name is never guessed: code in it stays plain.
  func language(named name: String) -> CodeLanguage?

  /// Highlights one line of code (without its line break) from the state the previous line left.
  ///
  /// Spans are in order, do not overlap, and lie within the line's UTF-8 bytes on character
  /// boundaries; bytes no span covers are plain.
  func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine
}

extension CodeHighlighter {
  /// Highlights lines of one block in order, each from the state the one before it left.
  ///
  /// - Complexity: one ``highlight(_:language:state:)`` call per line.
  public func highlight(lines: [String], language: CodeLanguage) -> [HighlightedLine] {
    var state = CodeLineState.initial
    var result: [HighlightedLine] = []
    result.reserveCapacity(lines.count)
    for line in lines {
      let highlighted = highlight(line, language: language, state: state)
      state = highlighted.state
      result.append(highlighted)
    }
    return result
  }

  /// The language of a code fence's info string (its first word, see
  /// ``CodeLanguage/fenceName(info:)``), or nil when it has none or the highlighter does not know it.
  public func language(info: String) -> CodeLanguage? {
    CodeLanguage.fenceName(info: info).flatMap { language(named: $0) }
  }
}
