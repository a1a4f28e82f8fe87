/// A GFM table laid out for the terminal: box-drawing borders, each column as wide as its content
/// or narrower, cells wrapped (never truncated) to fit the width.
///
/// Columns shrink widest first (water-filling) until the table fits. When even one column per
/// cell cannot fit, the table is written as records instead: one `header: value` entry per cell
/// (continuation lines indented by two),
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

  func write(to lines: inout ANSILineWriter, border: ANSIStyle, header: ANSIStyle) {
    let columns = rows.reduce(0) { max($0, $1.count) }
    guard columns > 0 else { return }
    var natural = [Int](repeating: 0, count: columns)
    for row in rows {
      for (column, cell) in row.enumerated() {
        let measured = cell.bytes.withUnsafeBufferPointer { LineBreaker.measure($0) }
        natural[column] = max(natural[column], measured.natural)
      }
    }
    let available = width - (3 * columns + 1)
    let minimum = natural.reduce(0) { $0 + min(max($1, 1), Self.minimumColumnWidth) }
    guard available >= minimum else {
      writeRecords(to: &lines, columns: columns)
      return
    }
    let widths = Self.fit(natural.map { max($0, 1) }, into: available)
    writeBorder(to: &lines, widths: widths, left: "┌", middle: "┬", right: "┐", style: border)
    for (rowIndex, row) in rows.enumerated() {
      var cellLines: [[LineBreaker.Line]] = []
      var height = 1
      for column in 0..<columns {
        let broken: [LineBreaker.Line] =
          column < row.count
          ? row[column].bytes.withUnsafeBufferPointer { LineBreaker.wrap($0, width: widths[column]) } : []
        cellLines.append(broken)
        height = max(height, broken.count)
      }
      for lineIndex in 0..<height {
        lines.beginLine()
        lines.write(Self.verticalSpace[...], style: border)
        for column in 0..<columns {
          let line = lineIndex < cellLines[column].count ? cellLines[column][lineIndex] : nil
          let room = widths[column] - (line?.width ?? 0)
          let alignment = column < alignments.count ? alignments[column] : .none
          let before = alignment == .right ? room : alignment == .center ? room / 2 : 0
          lines.writeSpaces(before)
          if let line { lines.write(row[column], line.range) }
          lines.writeSpaces(room - before + 1)
          lines.write((column == columns - 1 ? Self.vertical : Self.verticalSpace)[...], style: border)
        }
        lines.endLine()
      }
      if rowIndex + 1 == headerRows && rows.count > headerRows {
        writeBorder(to: &lines, widths: widths, left: "├", middle: "┼", right: "┤", style: border)
      }
    }
    writeBorder(to: &lines, widths: widths, left: "└", middle: "┴", right: "┘", style: border)
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

  private func writeBorder(
    to lines: inout ANSILineWriter, widths: [Int], left: String, middle: String, right: String, style: ANSIStyle
  ) {
    var bytes = Array(left.utf8)
    for (column, width) in widths.enumerated() {
      bytes.append(contentsOf: ANSIWriter.repeated(ANSIWriter.horizontal, width + 2))
      bytes.append(contentsOf: (column == widths.count - 1 ? right : middle).utf8)
    }
    lines.beginLine()
    lines.write(bytes[...], style: style)
    lines.endLine()
  }

  /// The fallback for tables too wide for any fitting: `header: value` per cell, rows apart.
  private func writeRecords(to lines: inout ANSILineWriter, columns: Int) {
    let header = headerRows > 0 ? rows[0] : []
    for (rowIndex, row) in rows.enumerated().dropFirst(headerRows) {
      if rowIndex > headerRows {
        lines.beginLine()
        lines.endLine()
      }
      for (column, cell) in row.enumerated() {
        var text = StyledText()
        if column < header.count {
          appendAll(header[column], to: &text)
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
  }

  private func appendAll(_ source: StyledText, to text: inout StyledText) {
    var start = 0
    for run in source.runs {
      let link = run.link >= 0 ? text.addLinkTarget(source.links[run.link]) : -1
      text.appendRaw(source.bytes[start..<run.end], style: run.style, link: link)
      start = run.end
    }
  }

  static let vertical: [UInt8] = Array("│".utf8)
  static let verticalSpace: [UInt8] = Array("│ ".utf8)
}
