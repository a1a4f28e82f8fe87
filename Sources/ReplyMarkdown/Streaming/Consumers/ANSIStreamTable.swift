/// The open table of a terminal stream, laid out as its rows arrive: the columns' natural widths
/// grow as rows settle, and the settled rows' lines are kept for as long as the layout (the
/// column widths ``ANSITable`` fits, or records) stays the same.
///
/// Every update lays out the settled rows with the open ones, as the one-shot renderer lays out
/// the whole table: the lines equal `ANSIRenderer.renderLines` of the table made of the header,
/// the settled rows and the open rows.
///
/// - Complexity: an update lays out its newly settled rows and the open rows, and all settled
///   rows again only when the layout changes. A layout depends on each natural width only up to
///   the width of the terminal, and settled widths only grow, so it changes a bounded number of
///   times (at most the width per column) however many rows settle; an open row wider than the
///   settled ones changes it until it settles too.
struct ANSIStreamTable: Sendable {
  /// What the settled lines become after an update.
  enum SettledLines {
    /// The layout changed: these lines (the head and every settled row) replace the ones shown.
    case replaced([String])
    /// The layout held: these lines (the rows settled since) follow the ones shown.
    case appended([String])
  }

  private let options: ANSIOptions
  /// The alignments and the width; its rows stay empty (they are below).
  private let table: ANSITable
  private let border: ANSIStyle
  /// The header rows' cells (the first names the cells of records).
  private let headerRows: [[StyledText]]
  /// The settled body rows' cells.
  private var rows: [[StyledText]] = []
  /// The natural width of each column's widest cell in the header and the settled rows.
  private var natural: [Int] = []
  /// The layout the settled lines shown were laid out with (`nil`: a table with no columns) and
  /// how many of ``rows`` they hold; `nil` before the first update.
  private var shown: (layout: ANSITable.Layout?, rows: Int)?
  /// The header, settled and open rows laid out so far: how tests see that an update lays out
  /// only its new and open rows.
  private(set) var rowsLaidOut = 0

  /// Starts a table from `head`, a document whose first block is the table with its header row.
  init(options: ANSIOptions, head: MarkdownDocument) {
    self.options = options
    let writer = ANSIWriter(document: head, options: options)
    border = writer.theme.tableBorder
    var alignments: [MarkdownNode.TableAlignment] = []
    var header: [[StyledText]] = []
    if let first = head.topLevelBlocks.first(where: { _ in true }), case .table(let found) = head.nodes[first].kind {
      alignments = found
      header = head.children(of: first).map { writer.tableCells($0) }
    }
    // A stream's table is a top-level block: its lines are as wide as the terminal.
    table = ANSITable(alignments: alignments, width: options.width)
    headerRows = header
    for row in header { ANSITable.measure(row, into: &natural) }
  }

  /// Adds the body rows of a settled part: `table` of `document`, after its header row.
  ///
  /// - Complexity: O(n) in the part; its rows are laid out by the next ``layOut(open:)``.
  mutating func settle(_ document: MarkdownDocument, table: Int) {
    let writer = ANSIWriter(document: document, options: options)
    for row in document.children(of: table).dropFirst() {
      let cells = writer.tableCells(row)
      ANSITable.measure(cells, into: &natural)
      rows.append(cells)
    }
  }

  /// Lays out the table with the open rows of `remainder` (the rows after the header of its
  /// first block, when that is a table): the settled lines (all of them again when the layout
  /// changed) and the lines that follow them (the open rows, then the bottom border).
  mutating func layOut(open remainder: MarkdownDocument) -> (settled: SettledLines, open: [String]) {
    var open: [[StyledText]] = []
    if let first = remainder.topLevelBlocks.first(where: { _ in true }), case .table = remainder.nodes[first].kind {
      let writer = ANSIWriter(document: remainder, options: options)
      open = remainder.children(of: first).dropFirst().map { writer.tableCells($0) }
    }
    var widths = natural
    for row in open { ANSITable.measure(row, into: &widths) }
    let layout = ANSITable.layout(natural: widths, width: table.width)
    var lines = newLines()
    let settled: SettledLines
    if let shown, shown.layout == layout {
      writeRows(shown.rows..<rows.count, of: rows, layout: layout, to: &lines)
      settled = .appended(lines.splitLines())
    } else {
      writeHead(layout: layout, to: &lines)
      writeRows(0..<rows.count, of: rows, layout: layout, to: &lines)
      settled = .replaced(lines.splitLines())
    }
    shown = (layout, rows.count)
    lines = newLines()
    writeRows(0..<open.count, of: open, first: rows.count, layout: layout, to: &lines)
    if case .columns(let widths)? = layout {
      ANSITable.writeRule(.bottom, widths: widths, to: &lines, style: border)
    }
    let openLines = lines.splitLines()
    return (settled, openLines)
  }

  /// The top border and the header rows (nothing for records).
  private mutating func writeHead(layout: ANSITable.Layout?, to lines: inout ANSILineWriter) {
    guard case .columns(let widths)? = layout else { return }
    ANSITable.writeRule(.top, widths: widths, to: &lines, style: border)
    for row in headerRows { table.writeRow(row, widths: widths, to: &lines, border: border) }
    rowsLaidOut += headerRows.count
  }

  /// Writes `range` of `body`, the first of them body row number `first + range.lowerBound`, with
  /// what separates each from the one before (the header's rule, or a records' blank line).
  private mutating func writeRows(
    _ range: Range<Int>, of body: [[StyledText]], first: Int = 0, layout: ANSITable.Layout?,
    to lines: inout ANSILineWriter
  ) {
    guard let layout else { return }
    for index in range {
      switch layout {
      case .columns(let widths):
        if first + index == 0 && !headerRows.isEmpty {
          ANSITable.writeRule(.middle, widths: widths, to: &lines, style: border)
        }
        table.writeRow(body[index], widths: widths, to: &lines, border: border)
      case .records:
        if first + index > 0 {
          lines.beginLine()
          lines.endLine()
        }
        table.writeRecord(body[index], header: headerRows.first ?? [], wholeLabels: first + index == 0, to: &lines)
      }
    }
    rowsLaidOut += range.count
  }

  /// A line writer for a terminal as wide as the options'.
  private func newLines() -> ANSILineWriter {
    ANSILineWriter(width: options.width, color: options.color, hyperlinks: options.hyperlinks, capacity: 0)
  }
}
