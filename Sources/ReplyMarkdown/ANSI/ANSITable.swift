/// A GFM table laid out for the terminal: box-drawing borders, each column as wide as its content
/// or narrower, cells wrapped (never truncated) to fit the width.
///
/// Columns shrink widest first (water-filling) until the table fits. When even one column per
/// cell cannot fit, the table is written as records instead: one `header: value` entry per cell
/// that holds something (continuation lines indented by two; after the first record, headers cut
/// to ``recordLabelWidth`` columns),
/// a blank line between rows.
struct ANSITable {
  let alignments: [MarkdownNode.TableAlignment]
  let width: Int
  var rows: [[StyledText]] = []
  var headerRows = 0

  init(alignments: [MarkdownNode.TableAlignment], width: Int) {
    self.alignments = alignments
    self.width = width
  }

  /// The narrowest a column gets before the table turns into records.
  static let minimumColumnWidth = 3

  /// How a table is laid out: the width of each column, or one record per row.
  enum Layout: Sendable, Hashable {
    /// Columns of these content widths, between borders.
    case columns([Int])
    /// `header: value` records, rows apart: even one column per cell cannot fit.
    case records
  }

  /// A horizontal border line.
  enum Rule {
    case top, middle, bottom
  }

  func write(to lines: inout ANSILineWriter, border: ANSIStyle, header: ANSIStyle) {
    var natural: [Int] = []
    for row in rows { Self.measure(row, into: &natural) }
    switch Self.layout(natural: natural, width: width) {
    case nil:
      return
    case .records:
      let header = headerRows > 0 ? rows[0] : []
      for (rowIndex, row) in rows.enumerated().dropFirst(headerRows) {
        if rowIndex > headerRows {
          lines.beginLine()
          lines.endLine()
        }
        writeRecord(row, header: header, wholeLabels: rowIndex == headerRows, to: &lines)
      }
    case .columns(let widths)?:
      Self.writeRule(.top, widths: widths, to: &lines, style: border)
      for (rowIndex, row) in rows.enumerated() {
        writeRow(row, widths: widths, to: &lines, border: border)
        if rowIndex + 1 == headerRows && rows.count > headerRows {
          Self.writeRule(.middle, widths: widths, to: &lines, style: border)
        }
      }
      Self.writeRule(.bottom, widths: widths, to: &lines, style: border)
    }
  }

  /// Widens `natural` (the natural width of each column's widest cell so far) to hold `row`:
  /// widths only grow, and a row with more cells adds columns.
  ///
  /// - Complexity: O(n) in the bytes of the row.
  static func measure(_ row: [StyledText], into natural: inout [Int]) {
    if natural.count < row.count { natural += repeatElement(0, count: row.count - natural.count) }
    for (column, cell) in row.enumerated() {
      let measured = cell.bytes.withUnsafeBufferPointer { LineBreaker.measure($0) }
      natural[column] = max(natural[column], measured.natural)
    }
  }

  /// The layout of columns whose widest cells are `natural` wide, in `width` columns: what every
  /// row of the table is written with. `nil` when there are no columns (nothing is written).
  ///
  /// Depends on each natural width only up to `width`, so as natural widths grow the layout
  /// changes a bounded number of times (at most `width` per column), however many rows follow.
  static func layout(natural: [Int], width: Int) -> Layout? {
    let columns = natural.count
    guard columns > 0 else { return nil }
    let available = width - (3 * columns + 1)
    let minimum = natural.reduce(0) { $0 + min(max($1, 1), Self.minimumColumnWidth) }
    guard available >= minimum else { return .records }
    return .columns(Self.fit(natural.map { max($0, 1) }, into: available))
  }

  /// Writes one row between vertical borders, its cells wrapped to `widths` and aligned.
  func writeRow(_ row: [StyledText], widths: [Int], to lines: inout ANSILineWriter, border: ANSIStyle) {
    let columns = widths.count
    // The lines of every cell in one buffer: column `c`'s are `broken[bounds[c]..<bounds[c + 1]]`.
    var broken: [LineBreaker.Line] = []
    broken.reserveCapacity(2 * columns)
    // Cells borrowed through a buffer pointer, not copied (and retained) at each use.
    row.withUnsafeBufferPointer { row in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: columns + 1) { bounds in
        var height = 1
        bounds[0] = 0
        for column in 0..<columns {
          if column < row.count {
            row[column].bytes.withUnsafeBufferPointer {
              LineBreaker.wrap($0, width: widths[column], appendingTo: &broken)
            }
          }
          bounds[column + 1] = broken.count
          height = max(height, broken.count - bounds[column])
        }
        for lineIndex in 0..<height {
          lines.beginLine()
          lines.write(Self.verticalSpace, style: border)
          for column in 0..<columns {
            let position = bounds[column] + lineIndex
            let line = position < bounds[column + 1] ? broken[position] : nil
            let room = widths[column] - (line?.width ?? 0)
            let alignment = column < alignments.count ? alignments[column] : .none
            let before = alignment == .right ? room : alignment == .center ? room / 2 : 0
            lines.writeSpaces(before)
            if let line { lines.write(row[column], line.range) }
            lines.writeSpaces(room - before + 1)
            lines.write(column == columns - 1 ? Self.vertical : Self.verticalSpace, style: border)
          }
          lines.endLine()
        }
      }
    }
  }

  /// Shrinks the widest columns first until the widths sum to at most `available`.
  static func fit(_ natural: [Int], into available: Int) -> [Int] {
    guard natural.reduce(0, +) > available else { return natural }
    // The largest cap such that the capped widths still fit.
    var low = 1
    var high = natural.max() ?? 1
    while low < high {
      let middle = (low + high + 1) / 2
      if natural.reduce(0, { $0 + min($1, middle) }) <= available { low = middle } else { high = middle - 1 }
    }
    var widths = natural.map { min($0, low) }
    var spare = available - widths.reduce(0, +)
    for column in widths.indices where spare > 0 && widths[column] < natural[column] {
      widths[column] += 1
      spare -= 1
    }
    return widths
  }

  /// Writes a border line across columns of `widths`.
  static func writeRule(_ rule: Rule, widths: [Int], to lines: inout ANSILineWriter, style: ANSIStyle) {
    let (left, middle, right) =
      switch rule {
      case .top: ("┌", "┬", "┐")
      case .middle: ("├", "┼", "┤")
      case .bottom: ("└", "┴", "┘")
      }
    var bytes = Array(left.utf8)
    for (column, width) in widths.enumerated() {
      bytes.append(contentsOf: ANSIWriter.repeated(ANSIWriter.horizontal, width + 2))
      bytes.append(contentsOf: (column == widths.count - 1 ? right : middle).utf8)
    }
    lines.beginLine()
    lines.write(bytes[...], style: style)
    lines.endLine()
  }

  /// Writes a body row as a record, the fallback for tables too wide for any fitting: one
  /// `header: value` entry per cell that holds something, continuation lines indented by two.
  /// Rows are written a blank line apart. The first record shows each header whole, the others
  /// at most ``recordLabelWidth`` columns of it, then `…`.
  ///
  /// Each record repeats the headers, so their output is bounded by the cells that hold text: a
  /// table of 32 columns headed by 1,800 bytes each, over rows of one byte (cmark-gfm adds the
  /// missing cells empty), wrote every header for every row, 187 MB from 64 KB (a helper's review).
  func writeRecord(_ row: [StyledText], header: [StyledText], wholeLabels: Bool, to lines: inout ANSILineWriter) {
    for (column, cell) in row.enumerated() where !cell.isEmpty {
      var text = StyledText()
      if column < header.count {
        if wholeLabels {
          appendAll(header[column], to: &text)
        } else {
          appendLabel(header[column], to: &text)
        }
        text.append(": ", style: .plain)
      }
      appendAll(cell, to: &text)
      let broken = text.bytes.withUnsafeBufferPointer { LineBreaker.wrap($0, width: width - 2) }
      for (position, line) in broken.enumerated() {
        lines.beginLine()
        if position > 0 { lines.writeSpaces(2) }
        lines.write(text, line.range)
        lines.endLine()
      }
    }
  }

  private func appendAll(_ source: StyledText, to text: inout StyledText) {
    appendPrefix(source, upTo: source.bytes.count, to: &text)
  }

  /// The widest a header shows in a record after the first, in columns.
  static let recordLabelWidth = 24

  /// `source`, a header, as the first line it wraps to at ``recordLabelWidth`` columns, then `…`
  /// when more follows.
  private func appendLabel(_ source: StyledText, to text: inout StyledText) {
    let first = source.bytes.withUnsafeBufferPointer { LineBreaker.wrap($0, width: Self.recordLabelWidth) }.first
    guard let first, first.range.upperBound < source.bytes.count else {
      appendAll(source, to: &text)
      return
    }
    appendPrefix(source, upTo: first.range.upperBound, to: &text)
    text.append("…", style: .plain)
  }

  /// The bytes of `source` before `end`, with their styles and links.
  private func appendPrefix(_ source: StyledText, upTo end: Int, to text: inout StyledText) {
    var start = 0
    for run in source.runs where start < end {
      let link = run.link >= 0 ? text.addLinkTarget(source.links[run.link]) : -1
      text.appendRaw(source.bytes[start..<min(run.end, end)], style: run.style, link: link)
      start = run.end
    }
  }

  static let vertical: StaticString = "│"
  static let verticalSpace: StaticString = "│ "
}
