/// Limits on untrusted markdown, enforced by ``InputGuard`` before the text reaches cmark-gfm.
///
/// cmark-gfm 0.29.0.gfm.6 has quadratic paths (deep nesting, long delimiter and bracket stacks,
/// unclosed inline HTML, autolink scans, table header retries) and lets a few bytes expand to a lot
/// of output (table padding cells, reference links). Past a limit, ``InputGuard`` turns only the
/// offending syntax into literal text — usually by backslash-escaping it — and reports a
/// ``MarkdownDiagnostic``. Below every limit the text is passed through unchanged, so rendering is
/// exactly cmark-gfm's. The defaults are far above anything seen in model replies and the spec.
public struct InputLimits: Sendable, Hashable, Codable {
  /// Container markers (`>`, list markers, footnote definitions) opened on one line; the marker past
  /// the limit is escaped and the rest of the line is paragraph text. On a line indented four
  /// columns or more, the indentation counts as a level per two columns (it may continue list
  /// items opened on earlier lines), so lines indented ever deeper cannot add up to more.
  public var maxNestingDepth: Int
  /// Emphasis, strikethrough and (with smart punctuation) quote delimiter runs in one paragraph;
  /// further runs are escaped.
  public var maxDelimiterRuns: Int
  /// Characters in one delimiter run (`*****`); the characters past the limit are escaped.
  public var maxDelimiterRunLength: Int
  /// Link and image openers (`[`, `![`) in one paragraph; further openers are escaped.
  public var maxBrackets: Int
  /// Inline HTML openers that never close (`<?`, `<!X`, `<![CDATA[`, `<!--`) in one paragraph;
  /// further ones are escaped, which renders them exactly as before.
  public var maxUnclosedHTMLOpeners: Int
  /// Bytes that GFM autolink detection may scan per mebibyte of the document, the first and every
  /// one started counted whole (each candidate `www.`, `scheme://` or `@` costs its word's length,
  /// times the trailing `)` count, plus 64); candidates past the budget are not linked. The
  /// default, 4,000,000, covers a reply that is all links, and keeps the scan linear in the input.
  public var maxAutolinkScanBytes: Int
  /// Columns of a table (also the pipes of one row); a delimiter row with more does not start a
  /// table, and excess pipes in rows are escaped.
  public var maxTableColumns: Int
  /// Cells (rows × columns, padding included) of all tables in the document; the row that would
  /// pass the limit ends its table and later delimiter rows start none.
  public var maxTableCells: Int
  /// Bytes of paragraph before a table's header line that cmark-gfm may re-scan when it tries a
  /// delimiter row; a longer paragraph is split off before the header line (or, when no table can
  /// form, the delimiter row is escaped). All attempts of a document together may re-read 1,024
  /// times this many bytes; delimiter-like rows this far into a table the guard cannot be sure
  /// cmark-gfm forms are escaped too (in a sure one they are rows, bounded by that budget only).
  public var maxTableHeaderScan: Int
  /// Bytes that reference links may copy from their definitions, on top of four times the input
  /// size; links past the budget are escaped and stay literal text. Each link is charged the
  /// longest definition six times over, as many bytes as one byte of it may render as (`"` renders
  /// as `&quot;`), so the output stays bounded whatever the definition holds.
  public var maxReferenceExpansionBytes: Int
  /// Bytes of input that a reader of whole inputs accepts: the command line's `render`, `stream`
  /// and `export` refuse a longer input (file or standard input) with `input too large: N bytes;
  /// the limit is M bytes` before reading past the limit (`--max-bytes` changes it), so even
  /// `/dev/zero` ends in one line, never in an allocation failure. The default is 256 MiB.
  /// ``MarkdownDocument`` itself parses whatever it is given.
  public var maxInputBytes: Int

  /// Creates limits; every parameter defaults to the value of ``default``.
  public init(
    maxNestingDepth: Int = 32, maxDelimiterRuns: Int = 400, maxDelimiterRunLength: Int = 64,
    maxBrackets: Int = 400, maxUnclosedHTMLOpeners: Int = 32, maxAutolinkScanBytes: Int = 4_000_000,
    maxTableColumns: Int = 128, maxTableCells: Int = 100_000, maxTableHeaderScan: Int = 1024,
    maxReferenceExpansionBytes: Int = 1 << 20, maxInputBytes: Int = 1 << 28
  ) {
    self.maxInputBytes = maxInputBytes
    self.maxNestingDepth = maxNestingDepth
    self.maxDelimiterRuns = maxDelimiterRuns
    self.maxDelimiterRunLength = maxDelimiterRunLength
    self.maxBrackets = maxBrackets
    self.maxUnclosedHTMLOpeners = maxUnclosedHTMLOpeners
    self.maxAutolinkScanBytes = maxAutolinkScanBytes
    self.maxTableColumns = maxTableColumns
    self.maxTableCells = maxTableCells
    self.maxTableHeaderScan = maxTableHeaderScan
    self.maxReferenceExpansionBytes = maxReferenceExpansionBytes
  }

  /// Safe defaults for untrusted replies: every pathological input of cmark-gfm's test suite and
  /// the 2023 advisories parses and renders in linear time with bounded output.
  public static let `default` = InputLimits()

  /// No limits: the text goes to cmark-gfm unchanged. Only for trusted input.
  public static let unlimited = InputLimits(
    maxNestingDepth: .max, maxDelimiterRuns: .max, maxDelimiterRunLength: .max, maxBrackets: .max,
    maxUnclosedHTMLOpeners: .max, maxAutolinkScanBytes: .max, maxTableColumns: .max, maxTableCells: .max,
    maxTableHeaderScan: .max, maxReferenceExpansionBytes: .max, maxInputBytes: .max)

  /// These limits with negative values raised to 0: a negative limit allows nothing, as 0 does.
  var nonNegative: InputLimits {
    InputLimits(
      maxNestingDepth: max(0, maxNestingDepth), maxDelimiterRuns: max(0, maxDelimiterRuns),
      maxDelimiterRunLength: max(0, maxDelimiterRunLength), maxBrackets: max(0, maxBrackets),
      maxUnclosedHTMLOpeners: max(0, maxUnclosedHTMLOpeners), maxAutolinkScanBytes: max(0, maxAutolinkScanBytes),
      maxTableColumns: max(0, maxTableColumns), maxTableCells: max(0, maxTableCells),
      maxTableHeaderScan: max(0, maxTableHeaderScan), maxReferenceExpansionBytes: max(0, maxReferenceExpansionBytes))
  }

  /// Whether these are the ``unlimited`` limits (the guard is skipped entirely).
  public var isUnlimited: Bool { self == .unlimited }
}
