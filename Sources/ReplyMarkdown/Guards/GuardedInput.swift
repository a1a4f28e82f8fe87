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
  ///
  /// - Complexity: O(log b) for b inserted line breaks.
  func inputLine(_ line: Int) -> Int {
    // The i-th inserted empty line is line `linesBrokenBefore[i] + i` of the text: increasing in
    // i, so the breaks above `line` are found by bisection.
    var low = 0
    var high = linesBrokenBefore.count
    while low < high {
      let middle = (low + high) / 2
      if linesBrokenBefore[middle] + middle < line { low = middle + 1 } else { high = middle }
    }
    if low < linesBrokenBefore.count, linesBrokenBefore[low] + low == line {
      return max(1, linesBrokenBefore[low] - 1)
    }
    return line - low
  }
}
