/// Markdown text after ``InputGuard``: the text to parse and what was changed in it.
public struct GuardedInput: Sendable, Hashable {
  /// The text to hand to the parser; identical to the input when ``diagnostics`` is empty.
  public var text: String
  /// One entry per limit that was passed, in ``MarkdownDiagnostic/Kind`` order.
  public var diagnostics: [MarkdownDiagnostic]

  /// Whether the guard changed the text.
  public var changed: Bool { !diagnostics.isEmpty }
}
