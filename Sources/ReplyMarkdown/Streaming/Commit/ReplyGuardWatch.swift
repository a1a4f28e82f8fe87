/// The input guard run over the whole reply as one-shot rendering runs it, line by line as the
/// lines complete: whether it has changed anything yet.
///
/// The stream parses the reply in pieces, and each piece goes through the guard on its own. Below
/// every limit that changes nothing, as it changes nothing for the whole reply. But some limits
/// count across pieces — the bytes of a paragraph before a table's header line, the delimiter-like
/// rows of a long table against the document's re-reading budget, the autolinks scanned per
/// mebibyte — and a piece can stay below a limit the whole reply passes. Once this watch sees the
/// guard act on the whole reply, the stream knows its pieces may differ from one-shot rendering
/// from there on: its final update is the whole reply parsed at once, and a stream that must not
/// commit what could change (``MarkdownStream/ReferencePolicy/holdUntilFinish``) commits nothing
/// more before the end.
///
/// The budget of reference links charges every bracket the longest definition of the whole
/// reply, which a stream cannot know early: the watch counts the brackets and the longest
/// definition so far, and counts the guard as acting once they pass half the budget, as
/// ``MarkdownStream/mayExceedReferenceBudget(_:footnotes:)`` does at the end. (Brackets that
/// commit before a longer definition arrives are charged it by one-shot rendering too.)
///
/// - Complexity: O(n) over the reply: each line is scanned once, each paragraph's bytes once more
///   when it ends.
struct ReplyGuardWatch: @unchecked Sendable {
  // `@unchecked`: the scanner points at the text only during a call (``GuardScanner/scanLines(of:isWhole:)``).
  private var scanner: GuardScanner
  /// The brackets in the lines scanned, and the longest definition among them: one that runs on
  /// over lines is charged up to its paragraph's end, so while that paragraph is open it is
  /// charged what arrived so far, from where it starts.
  private var brackets = 0
  private var longestDefinition = 0
  private var openDefinitionStart: Int?
  /// Where a definition starts that fit on the last line scanned: a title on the next line
  /// makes it run on to its paragraph's end.
  private var titleMayFollow: Int?
  private var referencesMayPassBudget = false

  init(options: ParseOptions) {
    scanner = .growing(options: options, limits: .default)
  }

  /// Whether the guard changed anything in the lines scanned, or the brackets in them may pass
  /// the reference links' budget.
  var hasActed: Bool { referencesMayPassBudget || !scanner.edits.isEmpty }

  /// Where the text starts that the guard may still change: its open paragraph (whose inline
  /// limits it applies when the paragraph ends), or the lines not scanned. The guard may take
  /// more lines for one paragraph than cmark-gfm does (it errs towards counting more), so a block
  /// the stream closed can still be in it.
  var settledEnd: Int { scanner.segment.isEmpty ? scanner.scannedEnd : scanner.segment[0].start }

  /// Scans the complete lines of `text[..<end]` not scanned yet (`end` is a line start; `text`
  /// only ever grows) and returns ``hasActed``.
  mutating func scan(_ text: [UInt8], upTo end: Int) -> Bool {
    guard end > scanner.scannedEnd else { return hasActed }
    text.withUnsafeBufferPointer { buffer in
      countReferences(UnsafeBufferPointer(rebasing: buffer[scanner.scannedEnd..<end]), at: scanner.scannedEnd)
      scanner.scanLines(of: UnsafeBufferPointer(rebasing: buffer[..<end]))
    }
    return hasActed
  }

  /// Counts the brackets and definitions of new lines, which start at `offset` in the reply.
  private mutating func countReferences(_ lines: UnsafeBufferPointer<UInt8>, at offset: Int) {
    var found = 0
    var bracket = lines.firstOffset(of: ASCII.openBracket, from: 0, to: lines.count)
    while bracket < lines.count {
      found += 1
      bracket = lines.firstOffset(of: ASCII.openBracket, from: bracket + 1, to: lines.count)
    }
    brackets += found
    // Only a line holding a `[` starts a definition.
    guard found > 0 || openDefinitionStart != nil || titleMayFollow != nil else { return }
    var scan = ReferenceDefinitionScan(lines: LineBreaks(lines), footnotes: scanner.footnotes)
    if found > 0 { longestDefinition = max(longestDefinition, scan.longestDefinition()) }
    // The lines before ended in a definition on one line: a title opening the first new line
    // makes it run on (one scan of both would have read it so; a review).
    if let start = titleMayFollow {
      titleMayFollow = nil
      if openDefinitionStart == nil && scan.mayHoldTitle(lineAt: 0) { openDefinitionStart = start }
    }
    if let start = openDefinitionStart {
      // The paragraph of a definition that ran on to the end of the lines before.
      let end = scan.paragraphEnd(after: -1)
      longestDefinition = max(longestDefinition, offset + end - start)
      if end < lines.count { openDefinitionStart = nil }
    }
    if openDefinitionStart == nil, let start = scan.openDefinitionStart { openDefinitionStart = offset + start }
    if openDefinitionStart == nil, let start = scan.lastLineDefinitionStart { titleMayFollow = offset + start }
    guard brackets > 1 else { return }
    let charged = longestDefinition.multipliedReportingOverflow(
      by: brackets * ReferenceDefinitionScan.renderedBytesPerByte)
    if charged.overflow || charged.partialValue > InputLimits.default.maxReferenceExpansionBytes / 2 {
      referencesMayPassBudget = true
    }
  }

  /// Scans the rest of the whole reply `text`, its last line and paragraph ended, and returns
  /// ``hasActed``.
  mutating func finish(_ text: [UInt8]) -> Bool {
    text.withUnsafeBufferPointer { buffer in
      countReferences(UnsafeBufferPointer(rebasing: buffer[scanner.scannedEnd...]), at: scanner.scannedEnd)
      scanner.scanLines(of: buffer, isWhole: true)
    }
    return hasActed
  }
}
