extension GuardScanner {
  /// A scanner for a text that grows (a streamed reply), fed with ``scanLines(of:)``.
  ///
  /// It makes the edits ``run()`` makes over the whole text, line by line as the lines complete,
  /// but for two budgets that depend on the whole text: the reference links' (it would charge each
  /// link the longest definition of the whole text, not known yet; this scanner charges nothing)
  /// and the autolinks' (per started mebibyte: it grows as the text does, so this scanner may run
  /// out before ``run()`` would, never after).
  static func growing(options: ParseOptions, limits: InputLimits) -> GuardScanner {
    var scanner = GuardScanner(bytes: UnsafeBufferPointer(start: nil, count: 0), options: options, limits: limits)
    scanner.referenceBudgetLeft = 0
    return scanner
  }

  /// Scans the lines of `text` not scanned yet: `text` holds the text of every earlier call at its
  /// start, and ends at a line start unless `isWhole`. The last paragraph stays open unless
  /// `isWhole` (the text is complete: its last line and paragraph end).
  ///
  /// - Complexity: O(the new lines), and a paragraph's bytes again when it ends.
  mutating func scanLines(of text: UnsafeBufferPointer<UInt8>, isWhole: Bool = false) {
    bytes = text
    lines = LineBreaks(text, from: scannedEnd)
    // A cursor may have read a block that reached past the text's end before it grew.
    inlineCursor = ByteSetCursor()
    pipeCursor = ByteSetCursor()
    let mebibytes = max(1, (text.count + (1 << 20) - 1) >> 20)
    if mebibytes > budgetedMebibytes {
      let added = limits.maxAutolinkScanBytes.multipliedReportingOverflow(by: mebibytes - budgetedMebibytes)
      let total = autolinkBudgetLeft.addingReportingOverflow(added.overflow ? .max : added.partialValue)
      autolinkBudgetLeft = added.overflow || total.overflow ? .max : total.partialValue
      budgetedMebibytes = mebibytes
    }
    var start = scannedEnd
    while start < text.count {
      let end = lines.lineEnd(from: start)
      lineNumber += 1
      processLine(start: start, end: end)
      start = lines.nextLine(after: end)
    }
    scannedEnd = start
    if isWhole { endSegment() }
    // Not kept past the call: the text may move.
    bytes = UnsafeBufferPointer(start: nil, count: 0)
    lines = LineBreaks(bytes)
  }
}
