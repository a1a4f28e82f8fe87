/// Markdown text after ``InputGuard``: the text to parse and what was changed in it.
public struct GuardedInput: Sendable, Hashable {
  /// The text to hand to the parser; identical to the input when ``diagnostics`` is empty.
  public var text: String
  /// One entry per limit that was passed, in ``MarkdownDiagnostic/Kind`` order.
  public var diagnostics: [MarkdownDiagnostic]

  /// Whether the guard changed the text.
  public var changed: Bool { !diagnostics.isEmpty }

  /// The lines of the input (1-based, in order) before which the guard inserted a line break
  /// (to end a paragraph before a table's header line, or a table past its cells).
  var linesBrokenBefore: [Int] = []

  /// The input's line for line `line` of ``text``: lines after an inserted line break count one
  /// fewer for each; an inserted (empty) line is counted as the input's line before it.
  func inputLine(_ line: Int) -> Int {
    var removed = 0
    for (index, before) in linesBrokenBefore.enumerated() {
      // The inserted empty line is line `before + index` of the text.
      let inserted = before + index
      if inserted > line { break }
      if inserted == line { return max(1, before - 1) }
      removed += 1
    }
    return line - removed
  }
}
