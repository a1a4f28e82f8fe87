extension GuardScanner {
  /// Whether `bytes[start..<end]` looks like a table delimiter row (`|---|:-:|`), as far as
  /// cmark-gfm would try it: only `|`, `-`, `:` and whitespace, a `-`, and a `|` or `:`.
  @inline(__always) func isDelimiterRow(from start: Int, to end: Int) -> Bool {
    guard start < end else { return false }
    var dash = false
    var pipeOrColon = false
    for index in start..<end {
      switch bytes[index] {
      case UInt8(ascii: "-"): dash = true
      case ASCII.pipe, UInt8(ascii: ":"): pipeOrColon = true
      // cmark-gfm's `table_spacechar`: a vertical tab or form feed is a blank in a delimiter row too
      // (a row `-|-` and a vertical tab hid a table of 5,000 rows from the guard: 10 KB made 6.5 MB
      // of HTML; a helper's review).
      case ASCII.space, ASCII.tab, 0x0B, 0x0C: break
      default: return false
      }
    }
    return dash && pipeOrColon
  }

  /// Cells of a table row, counted as cmark-gfm splits them: at unescaped pipes, without a leading
  /// and a trailing one. Also returns the number of unescaped pipes.
  ///
  /// A paragraph's line loses its leading spaces and tabs only: before a vertical tab or form feed
  /// a pipe is no leading one (`\v|a|b` is three cells to cmark-gfm, the first empty).
  func cells(from start: Int, to end: Int) -> (cells: Int, pipes: Int) {
    var first = start
    var last = end
    while first < last && ASCII.isBlank(bytes[first]) { first += 1 }
    while last > first && ASCII.isSpace(bytes[last - 1]) { last -= 1 }
    guard first < last else { return (0, 0) }
    var pipes = 0
    var inner = 0
    var index = first
    while index < last {
      if bytes[index] == ASCII.backslash {
        index += 2
        continue
      }
      if bytes[index] == ASCII.pipe {
        pipes += 1
        if index != first && index != last - 1 { inner += 1 }
      }
      index += 1
    }
    if first == last - 1 && bytes[first] == ASCII.pipe { return (0, pipes) }  // a lone `|` is no row
    return (inner + 1, pipes)
  }

  /// A delimiter-row candidate after a paragraph line. Returns `true` when the line was consumed
  /// as the start of a table.
  ///
  /// cmark-gfm re-reads the whole paragraph on every such line, so each one is charged the
  /// paragraph's size against the document's budget; past it, or past ``InputLimits/maxTableHeaderScan``
  /// for this paragraph, the paragraph is split before the header or the row is escaped.
  mutating func handleDelimiterRow(start: Int, end: Int) -> Bool {
    guard let header = segment.last else { return false }
    let row = cells(from: start, to: end)
    let headerCells = cells(from: header.start, to: header.end)
    let firstByte = bytes[start..<end].firstIndex { !ASCII.isBlank($0) } ?? start
    let rescan = segmentBytes
    let overBudget = rescan > tableScanBudgetLeft
    if !overBudget { tableScanBudgetLeft -= rescan }
    if row.cells > limits.maxTableColumns || headerCells.pipes - 1 > limits.maxTableColumns {
      escape(at: firstByte, for: .tableColumns, line: lineNumber)
      return false
    }
    let before = segmentBytes - (header.end - header.start + 1)
    if tablesExhausted || tableCellsUsed + row.cells > limits.maxTableCells {
      if row.cells == headerCells.cells {
        escape(at: firstByte, for: .tableCells, line: lineNumber)
        tablesExhausted = true
      } else if before > limits.maxTableHeaderScan || overBudget {
        // No table forms, but cmark-gfm reads the paragraph again for a header all the same:
        // past the cells' limit, thousands of such rows in a long paragraph took a minute.
        escape(at: firstByte, for: .tableHeaderScan, line: lineNumber)
      }
      return false
    }
    if before > limits.maxTableHeaderScan || overBudget {
      if row.cells == headerCells.cells {
        // Split the long paragraph off so that cmark-gfm only re-reads the header line.
        let headerLineStart = lineStart(of: header.start)
        insert(.newline, at: headerLineStart, for: .tableHeaderScan, line: header.line)
      } else {
        escape(at: firstByte, for: .tableHeaderScan, line: lineNumber)
        return false
      }
    } else if row.cells != headerCells.cells {
      return false
    }
    table = OpenTable(
      columns: row.cells, isCertain: isCertainTable(header: header, delimiterRowStart: start, cells: row.cells))
    tableSpanBytes = segmentBytes
    tableCellsUsed += row.cells
    return true
  }

  /// See ``OpenTable/isCertain``.
  func isCertainTable(header: SegmentLine, delimiterRowStart: Int, cells: Int) -> Bool {
    guard !containerMayBeOpen, previousQuoteDepth == 0, htmlRegion == nil else { return false }
    for start in [header.start, delimiterRowStart] {
      guard start < bytes.count, lineStart(of: start) == start, !ASCII.isBlank(bytes[start]) else { return false }
    }
    var delimiterRowEnd = delimiterRowStart
    while delimiterRowEnd < bytes.count, bytes[delimiterRowEnd] != ASCII.newline,
      bytes[delimiterRowEnd] != ASCII.carriageReturn
    {
      delimiterRowEnd += 1
    }
    // Both lines split into the cells the guard counted by the plainest reading, with no
    // backslash to read otherwise (cmark-gfm splits `a \\|b|` unlike the guard, and over `|-|`
    // it took `|-|]:[x]: u` for two cells where the guard counted one: fuzz seed 1254).
    guard Self.plainCells(bytes[header.start..<header.end]) == cells,
      Self.plainCells(bytes[delimiterRowStart..<delimiterRowEnd]) == cells,
      Self.hasDelimiterCellsOnly(bytes[delimiterRowStart..<delimiterRowEnd])
    else { return false }
    var content = false
    for index in header.start..<header.end {
      switch bytes[index] {
      case ASCII.backslash: return false
      case ASCII.hyphen, ASCII.equals, ASCII.colon, ASCII.pipe, ASCII.space, ASCII.tab: continue
      default: content = true
      }
    }
    return content
  }

  /// The cells of a row read plainly: one leading and one trailing pipe dropped, then one cell
  /// more than the pipes left; nil when it holds a backslash (an escape changes the reading).
  static func plainCells(_ row: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
    var pipes = 0
    for index in inner(row) {
      if row[index] == ASCII.backslash { return nil }
      if row[index] == ASCII.pipe { pipes += 1 }
    }
    return pipes + 1
  }

  /// Whether every cell of `row`, read plainly (one leading and one trailing pipe dropped), is a
  /// delimiter cell as cmark-gfm's table start requires: blanks, an optional `:`, one or more `-`,
  /// an optional `:`, blanks. (`| --- | |-|` has an empty cell: cmark-gfm opens no table there,
  /// and the `|-|` lines under it each made it read the paragraph again: fuzz seed 1257.)
  static func hasDelimiterCellsOnly(_ row: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
    let cells = inner(row)
    var cellStart = cells.lowerBound
    for index in cells.lowerBound...cells.upperBound where index == cells.upperBound || row[index] == ASCII.pipe {
      var first = cellStart
      var last = index
      while first < last, ASCII.isBlank(row[first]) { first += 1 }
      while last > first, ASCII.isBlank(row[last - 1]) { last -= 1 }
      if first < last, row[first] == ASCII.colon { first += 1 }
      if last > first, row[last - 1] == ASCII.colon { last -= 1 }
      guard first < last, row[first..<last].allSatisfy({ $0 == ASCII.hyphen }) else { return false }
      cellStart = index + 1
    }
    return true
  }

  /// Where the cells of `row` lie: without the blanks around it, one leading and one trailing pipe.
  static func inner(_ row: UnsafeBufferPointer<UInt8>.SubSequence) -> Range<Int> {
    var start = row.startIndex
    var end = row.endIndex
    while start < end, ASCII.isBlank(row[start]) { start += 1 }
    while end > start, ASCII.isBlank(row[end - 1]) { end -= 1 }
    if start < end, row[start] == ASCII.pipe { start += 1 }
    if end > start, row[end - 1] == ASCII.pipe { end -= 1 }
    return start..<end
  }

  static let pipeOrBackslash = ByteSet([ASCII.pipe, ASCII.backslash])

  /// One row of an open table: charges its cells, ends the table past the cell limit, and escapes
  /// pipes past the column limit.
  ///
  /// The guard may believe in a table that cmark-gfm does not see (it does not follow every
  /// container, setext underlines or indented code: fuzzing found a delimiter row or header line
  /// indented four columns, and a header line that underlines a heading), where every delimiter-like
  /// row makes cmark-gfm re-read the paragraph. So those rows are charged as retries too, and escaped
  /// past the document's budget, as in a paragraph. In a table it only believes in, they are also
  /// escaped past ``InputLimits/maxTableHeaderScan`` into the table. In a sure table
  /// (``OpenTable/isCertain``) they are rows to cmark-gfm (a table glued under a table: its header
  /// and delimiter rows), so only the budget bounds them: were the guard wrong about the table,
  /// cmark-gfm's re-reading would still stop at the budget.
  mutating func tableRow(_ current: OpenTable, start: Int, contentStart: Int, end: Int) {
    let content = quoteContentStart(start: start, end: end)
    if isDelimiterRow(from: content, to: end) {
      if tableSpanBytes > tableScanBudgetLeft || (!current.isCertain && tableSpanBytes > limits.maxTableHeaderScan) {
        let firstByte = bytes[content..<end].firstIndex { !ASCII.isBlank($0) } ?? content
        escape(at: firstByte, for: .tableHeaderScan, line: lineNumber)
      } else {
        tableScanBudgetLeft -= tableSpanBytes
      }
    }
    if tableCellsUsed + current.columns > limits.maxTableCells {
      insert(.newline, at: start, for: .tableCells, line: lineNumber)
      table = nil
      tablesExhausted = true
      endSegment()
      return
    }
    tableCellsUsed += current.columns
    // A pipe is escaped only past `maxTableColumns + 1` of them, which a shorter row cannot hold.
    guard end - contentStart - 1 > limits.maxTableColumns else { return }
    var pipes = 0
    var index = contentStart
    while index < end {
      index = pipeCursor.next(Self.pipeOrBackslash, in: bytes, from: index, to: end)
      guard index < end else { break }
      if bytes[index] == ASCII.backslash {
        index += 2
        continue
      }
      if bytes[index] == ASCII.pipe {
        pipes += 1
        if pipes - 1 > limits.maxTableColumns { escape(at: index, for: .tableColumns, line: lineNumber) }
      }
      index += 1
    }
  }

  /// The start of the line holding `offset`.
  func lineStart(of offset: Int) -> Int {
    var position = offset
    while position > 0 && bytes[position - 1] != ASCII.newline && bytes[position - 1] != ASCII.carriageReturn {
      position -= 1
    }
    return position
  }
}
