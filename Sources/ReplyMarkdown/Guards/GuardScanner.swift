/// The state of one ``InputGuard`` pass: a single walk over the lines of the input that tracks just
/// enough block structure (containers, fenced code, tables, paragraphs) to find where cmark-gfm
/// would do more than linear work, and records insertions that defuse it.
///
/// Wherever the tracking is unsure it errs towards counting more (one paragraph instead of two,
/// text instead of code), so that input can never hide costly syntax from the guard; the price is
/// that, past a limit, something inside code may be escaped too.
struct GuardScanner {
  /// The text; a scan of a growing text (``scanLines(of:)``) points it at each new copy.
  var bytes: UnsafeBufferPointer<UInt8>
  var lines: LineBreaks
  let limits: InputLimits
  let smart: Bool
  let autolinks: Bool
  let tables: Bool
  let strikethrough: Bool
  let footnotes: Bool
  /// The bytes ``endSegment()`` acts on with these options, and where the search for them is.
  let inlineBytes: ByteSet
  var inlineCursor = ByteSetCursor()
  /// Where the search for the pipes and backslashes of table rows is.
  var pipeCursor = ByteSetCursor()

  var edits: [GuardEdit] = []
  var editsOutOfOrder = false
  /// Per kind: the first line changed and the number of changes.
  var reports = GuardReports()

  // Block tracking.
  var lineNumber = 0
  var openFence: OpenFence?
  /// A fence in quotes that the guard ended at a less indented line (``OpenFence/quotedIndent``)
  /// where cmark-gfm may still hold it open (no item held it): its closing line is taken for that,
  /// not for an opener, until the quotes end. Either way the lines after it are read as markdown
  /// (a closing line taken for an opener hid what followed it from the guard).
  var possiblyOpenFence: OpenFence?
  /// Inside something that may be a raw HTML block: fences are not recognised there.
  var htmlRegion: HTMLRegion?
  /// The containers of ``htmlRegion``: a line that does not continue them ends it.
  var htmlContainer = HTMLContainer.item(column: 0, quotes: 0)
  var previousQuoteDepth = 0
  /// Whether a list item or footnote definition may still be open: set by a line with such a
  /// marker, cleared by an unindented line after a blank one (no lazy line crosses a blank). A
  /// fence opened outside any of them is ended only by its closing fence, however little a line
  /// in it is indented.
  var containerMayBeOpen = false
  /// The content columns of the list items and footnote definitions that may be open, outermost
  /// first, counted from the line's start: where a fence or raw HTML block that opens on a line of
  /// its own sits (in the deepest one its indentation reaches, else outside them all). Nil where
  /// a line the guard does not model (several markers on a line, a marker in a quote) left them
  /// unknown, until no container is open; every one is empty while ``containerMayBeOpen`` is not
  /// set.
  var itemColumns: [Int]? = []
  /// Whether a list item or footnote definition opened inside a quote may be open: a line without
  /// quote markers that starts a block closes it (no lazy line), and until then a fence in quotes
  /// may sit in it, its columns unknown.
  var quotedItemMayBeOpen = false
  /// Whether the last line outside fenced code was blank.
  var afterBlankLine = false

  // The current paragraph (or what may be one): its content ranges with their line numbers.
  var segment = SegmentLines()
  var segmentBytes = 0
  /// Whether the current segment holds a table (its header and rows, or one row): a line of it
  /// starting `[x]:` is no definition, its label a link opener (``definitionRunLines()``).
  var segmentIsTable = false
  /// A paragraph that began before the text: the line of the text it continues on (the first
  /// line of it the text holds) and its bytes before the text. A stream parsing the rest of a
  /// paragraph whose first lines it closed as link definitions counts them as one-shot does.
  var paragraphLead: (line: Int, bytes: Int)?

  // Tables.
  var table: OpenTable?
  /// The bytes of the open table's paragraph so far (the text before its header line, the header
  /// and the rows): what a delimiter-like row in it is charged, whether or not its rows are
  /// counted apart for their inline content.
  var tableSpanBytes = 0
  var tableCellsUsed = 0
  var tablesExhausted = false
  /// Bytes cmark-gfm may still re-read for delimiter-row attempts in this document.
  var tableScanBudgetLeft: Int

  // Document-wide budgets.
  var autolinkBudgetLeft: Int
  var referenceBudgetLeft: Int
  /// What one reference link may copy: the longest reference definition, times what a byte of it
  /// may render as (``ReferenceDefinitionScan/renderedBytesPerByte``; 0 when there is none).
  var referenceCost = 0
  /// For a growing text (``scanLines(of:isWhole:)``): where the lines not scanned yet start, and
  /// the mebibytes the autolink budget counts so far.
  var scannedEnd = 0
  var budgetedMebibytes = 1

  init(bytes: UnsafeBufferPointer<UInt8>, options: ParseOptions, limits: InputLimits) {
    self.bytes = bytes
    self.lines = LineBreaks(bytes)
    self.limits = limits
    self.smart = options.contains(.smartPunctuation)
    self.autolinks = options.contains(.autolinks)
    self.tables = options.contains(.tables)
    self.strikethrough = options.contains(.strikethrough)
    self.footnotes = options.contains(.footnotes)
    self.inlineBytes = Self.inlineBytes(
      strikethrough: options.contains(.strikethrough), smart: options.contains(.smartPunctuation),
      autolinks: options.contains(.autolinks))
    // The budget is per started mebibyte of input: a long reply of links keeps its autolinks, and
    // the scan stays linear in the input.
    let mebibytes = max(1, (bytes.count + (1 << 20) - 1) >> 20)
    let autolinkBudget = limits.maxAutolinkScanBytes.multipliedReportingOverflow(by: mebibytes)
    self.autolinkBudgetLeft = autolinkBudget.overflow ? .max : autolinkBudget.partialValue
    let scan = limits.maxTableHeaderScan.multipliedReportingOverflow(by: 1024)
    self.tableScanBudgetLeft = scan.overflow ? .max : scan.partialValue
    let extra = bytes.count.multipliedReportingOverflow(by: 4)
    let budget = limits.maxReferenceExpansionBytes.addingReportingOverflow(extra.overflow ? .max : extra.partialValue)
    self.referenceBudgetLeft = budget.overflow ? .max : budget.partialValue
  }

  struct SegmentLine {
    let start: Int
    let end: Int
    let line: Int
  }

  /// The lines of the current paragraph: an array that only grows, and how much of it is in use,
  /// so that ending a paragraph frees and moves nothing.
  struct SegmentLines {
    private var storage: [SegmentLine] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var last: SegmentLine? { count == 0 ? nil : storage[count - 1] }

    subscript(index: Int) -> SegmentLine { storage[index] }

    @inline(__always) mutating func append(_ line: SegmentLine) {
      if count < storage.count {
        storage[count] = line
      } else {
        storage.append(line)
      }
      count += 1
    }

    mutating func removeAll() { count = 0 }
  }

  struct OpenFence {
    let character: UInt8
    let length: Int
    let quoteDepth: Int
    let indent: Int
    /// In quotes inside a list item: the item's content column, which a line reaches before its
    /// quote markers or leaves the item (0: none).
    var lead = 0
    /// Whether the guard knows the fence's containers (``itemColumns`` did), so that a closing
    /// fence is one only indented three columns at most in them (after the quote markers and the
    /// space that belongs to them, or past `indent` in a list item); where it does not, any
    /// indentation closes.
    var knowsContainers = false
    /// In quotes where a list item opened inside them may hold the fence (items in quotes, which
    /// the guard does not follow: ``quotedItemMayBeOpen``): the columns the fence's line is
    /// indented after its quote markers and the space that belongs to them. A line of the quotes
    /// whose text starts left of that ends the fence, as it leaves any item that holds the fence
    /// (where none does, the guard ends the fence early and reads code as markdown: a line read
    /// too many is safe, one too few is not). 0: no such end.
    var quotedIndent = 0
  }

  enum HTMLRegion {
    case untilBlankLine
    case untilMarker(HTMLBlockEnd)
  }

  /// Where a raw HTML block sits, as far as the guard can follow it: a line continues the block
  /// only inside its containers, as cmark-gfm continues no container lazily around anything but a
  /// paragraph.
  enum HTMLContainer {
    /// In the list item or footnote definition whose content starts at this column (0: none),
    /// and in `quotes` block quotes inside it (a line reaches the column, then has the quotes).
    case item(column: Int, quotes: Int)
    /// In containers the guard does not follow (an item inside a quote, several items): only a
    /// line with fewer than `quotes` quote markers at its start (those around everything else)
    /// ends it, besides the block's own end.
    case unknown(quotes: Int)
  }

  /// What ends a raw HTML block that has an end marker.
  enum HTMLBlockEnd {
    /// `</script>`, `</pre>` or `</style>`.
    case rawText
    /// `-->`.
    case comment
    /// `?>`.
    case processingInstruction
    /// `]]>`.
    case cdata
    /// `>`.
    case declaration
  }

  struct OpenTable {
    let columns: Int
    /// Whether cmark-gfm surely sees this table: its header line and delimiter row start their
    /// lines unindented, outside any container (and none may be open for a lazy line), both split
    /// plainly into the cells counted (no backslash), and the header line holds more than the
    /// bytes of a setext underline or a delimiter row. Each row's cells are then parsed on their
    /// own, so a row's delimiter runs and brackets are counted apart from the other rows'. In a
    /// table the guard only believes in (fuzzing found some: indented lines, a header line that
    /// underlines a heading), the rows are one paragraph to cmark-gfm and are counted together.
    /// Delimiter-like rows are charged the whole table's bytes either way (``tableSpanBytes``):
    /// sure tables cmark-gfm did not form let them through to its re-reading (fuzz seed 1254). In
    /// a sure table only the document's budget escapes them, not the limit per table.
    let isCertain: Bool
  }

  // MARK: Driving

  mutating func run() {
    var definitions = ReferenceDefinitionScan(lines: lines, footnotes: footnotes)
    let cost = definitions.longestDefinition().multipliedReportingOverflow(
      by: ReferenceDefinitionScan.renderedBytesPerByte)
    referenceCost = cost.overflow ? .max : cost.partialValue
    var start = 0
    let count = bytes.count
    while start < count {
      let end = lines.lineEnd(from: start)
      lineNumber += 1
      processLine(start: start, end: end)
      start = lines.nextLine(after: end)
    }
    endSegment()
  }

  // MARK: Edits and reports

  mutating func insert(_ insertion: GuardEdit.Insertion, at offset: Int, for kind: MarkdownDiagnostic.Kind, line: Int) {
    if let last = edits.last, last.offset > offset { editsOutOfOrder = true }
    edits.append(GuardEdit(offset: offset, insertion: insertion))
    reports.add(kind, line: line)
  }

  mutating func escape(at offset: Int, for kind: MarkdownDiagnostic.Kind, line: Int) {
    insert(.backslash, at: offset, for: kind, line: line)
  }

  /// The edits in offset order. They are recorded in that order but for the inline edits of a
  /// paragraph, which come after the block edits of its later lines, and table header splits; a
  /// stable sort keeps edits at the same offset in the order they were made.
  func orderedEdits() -> [GuardEdit] {
    guard editsOutOfOrder else { return edits }
    return edits.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
  }

  /// The input with the edits made: what ``InputGuard/apply(_:options:limits:)`` returns as text.
  func editedText() -> String {
    GuardEdit.applying(orderedEdits(), to: String(decoding: bytes, as: UTF8.self))
  }

  func diagnosticList() -> [MarkdownDiagnostic] {
    MarkdownDiagnostic.Kind.allCases.compactMap { kind in
      guard let report = reports[kind] else { return nil }
      return MarkdownDiagnostic(kind: kind, line: report.line, count: report.count, limit: limit(for: kind))
    }
  }

  func limit(for kind: MarkdownDiagnostic.Kind) -> Int {
    switch kind {
    case .nestingDepth: return limits.maxNestingDepth
    case .delimiterRuns: return limits.maxDelimiterRuns
    case .delimiterRunLength: return limits.maxDelimiterRunLength
    case .brackets: return limits.maxBrackets
    case .unclosedHTMLOpeners: return limits.maxUnclosedHTMLOpeners
    case .autolinkScan: return limits.maxAutolinkScanBytes
    case .tableColumns: return limits.maxTableColumns
    case .tableCells: return limits.maxTableCells
    case .tableHeaderScan: return limits.maxTableHeaderScan
    case .referenceExpansion: return limits.maxReferenceExpansionBytes
    }
  }
}
