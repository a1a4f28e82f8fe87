import ReplyHighlight
import ReplyMarkdown
import Synchronization

/// A ``KSyntaxCodeHighlighter`` that counts what it is asked: the bounds of the highlighting tests
/// are these counts, never times.
final class CountingHighlighter: CodeHighlighter {
  struct Counts {
    /// Lines highlighted.
    var calls = 0
    /// Their UTF-8 bytes in all.
    var bytes = 0
    /// Bytes of lines short enough for the engine (``KSyntaxCodeHighlighter/maximumLineBytes``).
    var engineBytes = 0
  }

  let base: KSyntaxCodeHighlighter
  private let counted = Mutex(Counts())

  init(_ base: KSyntaxCodeHighlighter = KSyntaxCodeHighlighter()) {
    self.base = base
  }

  var counts: Counts { counted.withLock { $0 } }

  var theme: CodeTheme? { base.theme }

  func language(named name: String) -> CodeLanguage? { base.language(named: name) }

  func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
    let bytes = line.utf8.count
    counted.withLock {
      $0.calls += 1
      $0.bytes += bytes
      if bytes <= KSyntaxCodeHighlighter.maximumLineBytes { $0.engineBytes += bytes }
    }
    return base.highlight(line, language: language, state: state)
  }
}
