extension MarkdownDiagnostic {
  /// The limits of ``InputLimits`` a diagnostic can report, one case per limit.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// ``InputLimits/maxNestingDepth``.
    case nestingDepth
    /// ``InputLimits/maxDelimiterRuns``.
    case delimiterRuns
    /// ``InputLimits/maxDelimiterRunLength``.
    case delimiterRunLength
    /// ``InputLimits/maxBrackets``.
    case brackets
    /// ``InputLimits/maxUnclosedHTMLOpeners``.
    case unclosedHTMLOpeners
    /// ``InputLimits/maxAutolinkScanBytes``.
    case autolinkScan
    /// ``InputLimits/maxTableColumns``.
    case tableColumns
    /// ``InputLimits/maxTableCells``.
    case tableCells
    /// ``InputLimits/maxTableHeaderScan``.
    case tableHeaderScan
    /// ``InputLimits/maxReferenceExpansionBytes``.
    case referenceExpansion

    /// What passing the limit means, in a few words.
    public var summary: String {
      switch self {
      case .nestingDepth: return "containers nested too deeply on one line"
      case .delimiterRuns: return "too many emphasis delimiters in one paragraph"
      case .delimiterRunLength: return "delimiter run too long"
      case .brackets: return "too many link openers in one paragraph"
      case .unclosedHTMLOpeners: return "too many unclosed inline HTML openers in one paragraph"
      case .autolinkScan: return "autolink detection budget per MiB of input used up"
      case .tableColumns: return "table too wide"
      case .tableCells: return "too many table cells"
      case .tableHeaderScan: return "table header after a long paragraph"
      case .referenceExpansion: return "reference links would copy too much text"
      }
    }
  }
}
