import ReplyMarkdown

/// A highlighter that knows every language and marks each line, whole, as a keyword: enough to
/// put highlighting spans in a page's code without the KSyntaxHighlighting engine.
struct WholeLineHighlighter: CodeHighlighter {
  var theme: CodeTheme? { nil }

  func language(named name: String) -> CodeLanguage? { CodeLanguage(name: name, identifier: 1) }

  func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
    HighlightedLine(spans: [CodeSpan(range: 0..<line.utf8.count, kind: .keyword, style: .plain)], state: state)
  }
}
