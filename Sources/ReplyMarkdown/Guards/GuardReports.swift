/// What one ``InputGuard`` pass changed, per kind of ``MarkdownDiagnostic``: the line of the first
/// change and the number of changes.
///
/// Kept in a small array indexed by kind, made at the first change, so that a pass that changes
/// nothing allocates nothing for it.
struct GuardReports {
  private var entries: [(line: Int, count: Int)] = []

  /// Whether nothing was changed.
  var isEmpty: Bool { entries.isEmpty }

  /// The report for `kind`, or nil when nothing was changed for it.
  subscript(kind: MarkdownDiagnostic.Kind) -> (line: Int, count: Int)? {
    guard !entries.isEmpty else { return nil }
    let entry = entries[Self.slot(of: kind)]
    return entry.count == 0 ? nil : entry
  }

  /// Counts one change for `kind` at `line` (the line is kept only for the first).
  mutating func add(_ kind: MarkdownDiagnostic.Kind, line: Int) {
    if entries.isEmpty { entries = Array(repeating: (0, 0), count: Self.slots) }
    let slot = Self.slot(of: kind)
    if entries[slot].count == 0 { entries[slot].line = line }
    entries[slot].count += 1
  }

  private static let slots = MarkdownDiagnostic.Kind.allCases.count

  private static func slot(of kind: MarkdownDiagnostic.Kind) -> Int {
    switch kind {
    case .nestingDepth: return 0
    case .delimiterRuns: return 1
    case .delimiterRunLength: return 2
    case .brackets: return 3
    case .unclosedHTMLOpeners: return 4
    case .autolinkScan: return 5
    case .tableColumns: return 6
    case .tableCells: return 7
    case .tableHeaderScan: return 8
    case .referenceExpansion: return 9
    }
  }
}
