import ReplyMarkdown

/// The `note:` lines that `render` and `stream` print on standard error when an input guard
/// changed the rendering: one per kind of limit, naming the limit and how to raise it.
enum GuardNotes {
  /// Writes one note per diagnostic (a document has at most one per kind), in the order of the
  /// lines they name (the library lists them by kind).
  static func write(_ diagnostics: [MarkdownDiagnostic]) {
    for diagnostic in ordered(diagnostics) { StandardIO.writeError(line(diagnostic)) }
  }

  /// `diagnostics` by line; the library's order (by kind) among those of one line.
  static func ordered(_ diagnostics: [MarkdownDiagnostic]) -> [MarkdownDiagnostic] {
    diagnostics.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
  }

  /// `replykit: note: line 3: too many table cells (limit 100000); 1 place rendered as literal
  /// text; the command line keeps this limit, which keeps rendering fast (a program using the
  /// library can raise InputLimits.maxTableCells)`.
  static func line(_ diagnostic: MarkdownDiagnostic) -> String {
    "replykit: note: \(diagnostic); the command line keeps this limit, which keeps rendering fast "
      + "(a program using the library can raise InputLimits.\(propertyName(diagnostic.kind)))"
  }

  /// A note for a stream whose guard acted on some of its pieces, for kinds a one-shot check of the
  /// whole reply does not see.
  static let streamed =
    "replykit: note: an input guard changed part of the reply as it streamed (see InputLimits in the library)"

  /// The name of the ``InputLimits`` property behind `kind`.
  static func propertyName(_ kind: MarkdownDiagnostic.Kind) -> String {
    switch kind {
    case .autolinkScan: return "maxAutolinkScanBytes"
    case .referenceExpansion: return "maxReferenceExpansionBytes"
    default:
      let name = kind.rawValue
      return "max" + name.prefix(1).uppercased() + name.dropFirst()
    }
  }
}
