/// Formats a markdown reply incrementally while it streams in.
///
/// Feed chunks (`String`s, or bytes with incremental UTF-8 decoding), then call ``finish()``. Every
/// call returns a ``MarkdownStreamUpdate``: the blocks that became final (committed, with stable
/// ids, never changed again), the blocks held back because a definition arriving later could
/// still change them, and the healed tail (unclosed emphasis, code and links closed; text the next
/// characters could still change held back). `docs/streaming.md` states the contract.
///
/// One algorithm does all of it. The received text is cut into three parts: the committed prefix,
/// the held blocks, and the open part. Each update parses only the open part (complete lines),
/// after a preamble of the definitions its labels use; every top-level block that a later block
/// has started after is closed, and joins the held blocks, which commit in order as soon as none
/// waits for a definition. Guarantees:
/// - The final output (committed blocks, or the ``MarkdownStreamUpdate/replacement`` when one is
///   given) renders byte-identical to one-shot rendering of the whole text, whatever the chunking.
/// - The committed prefix only grows, and a committed block never changes.
/// - Per update, the bytes parsed are at most a small multiple of the open part plus its
///   lookback (definitions it uses, a long block's head), plus re-parses of held blocks that a
///   new definition resolves; long fenced code blocks, lists and tables settle their finished
///   lines, items and rows, so their open part is the last line, item or row. The figures of each
///   update are in ``MarkdownStreamUpdate/statistics``.
/// - Commits never stall: with the default ``ReferencePolicy/live`` the held blocks stay within a
///   4 KB budget; past it the oldest commit with their references as they stand.
///
/// Not thread-safe for concurrent mutation (it is a value); parsing goes through the library's
/// global cmark-gfm lock.
public struct MarkdownStream: Sendable {
  /// The parse options, as for ``MarkdownDocument``.
  public let options: ParseOptions

  /// How long blocks that wait for a definition are held (``ReferencePolicy/live`` by default).
  public var referencePolicy: ReferencePolicy = .live

  /// Whether updates carry the healed tail (on by default). A writer that shows only committed
  /// blocks until the end (output into a pipe) turns it off: updates then carry an empty tail and
  /// cost only the structural work; ``finish()`` commits everything as usual.
  public var showsTail = true

  /// Whether the input guard (``InputLimits/default``) changed any piece of the reply that this
  /// stream parsed for its committed blocks, settled parts or final result.
  ///
  /// The guard's budgets apply per parse and a stream parses its reply in pieces, so only where
  /// the guard acted may the streamed result differ from rendering the whole reply at once (which
  /// then may or may not report diagnostics of its own). Below every limit the two are equal.
  public internal(set) var guardChangedInput = false

  /// Whether updates take the shortcuts that skip cmark-gfm where its result is certain (tests
  /// and the fuzz oracle turn them off to compare against the parsed result).
  package var fastPaths = true

  var received = ReceivedText()
  var definitions = DefinitionStore()
  var held = HeldQueue()
  /// Footnote numbering through the committed blocks.
  var footnotes = FootnoteNumbering()
  /// Where the closed part (committed and held blocks) ends: the open part starts here.
  var closedEnd = 0
  /// The line (1-based) that starts at `closedEnd`.
  var closedLine = 1
  /// The complete-line end the last structural step looked at.
  var structuredEnd = 0
  /// Whether that step saw the first byte of the line after it (``nextLineStarted(after:)``).
  var structuredNextLine = false
  /// Whether that step left open a footnote definition or indented code after a blank line,
  /// which the first byte of the next line may close.
  var openUntilUnindentedLine = false
  /// The complete-line end after which the line being received was last found to open a footnote
  /// definition (``nextFootnoteOpened(completeEnd:)``): asked once per complete end.
  var footnoteOpenerCheckedAt = -1
  /// The open long block whose finished parts settle, if any.
  var longBlock: LongBlock?
  var nextBlockID = 0
  var nextPartID = 0
  var settledRevision = 0
  /// Whether a block committed while it waited for a definition, or with footnote references:
  /// the final update then carries the whole reply as a replacement.
  var committedInexactly = false
  /// The input guard over the whole reply as it arrives (``ReplyGuardWatch``): once it has acted,
  /// nothing commits under ``ReferencePolicy/holdUntilFinish``, and the final update is the whole
  /// reply parsed at once.
  var replyGuard: ReplyGuardWatch
  /// Labels defined where the stream keeps no definitions (a unit that also holds `[^`, text after
  /// a raw HTML block): to cmark-gfm those definitions come first, so no later definition of the
  /// same label resolves a held block, and with ``ReferencePolicy/holdUntilFinish`` a block that
  /// uses one waits for the end.
  var unkeptLabels: Set<String> = []
  /// Whether ``unkeptLabels`` holds a footnote label (a label spanning lines may be any of them).
  var unkeptHasFootnoteLabel = false
  /// The bytes of the paragraph the open part continues whose first lines were taken as link
  /// definitions before it closed (past ``definitionRunLimit``), counted as the input guard
  /// counts a paragraph's bytes; 0 when the open part continues no such paragraph. Parses of the
  /// open part hand it to the guard, which then splits a table's header line off the paragraph
  /// as one-shot parsing does.
  var definitionRunBytes = 0
  var definitionRunOpen: Bool { definitionRunBytes > 0 }
  /// The open part's complete lines read as sure link definitions (a list of sources), which
  /// need no parse to structure or show.
  var sureDefinitions = SureDefinitionLines()
  /// What the next update carries and what the last one showed.
  var outbox = UpdateOutbox()
  /// The parse costs the refresh schedule measured for the open part's structure and its tail.
  var structureCost: RefreshSchedule.MeasuredCost?
  var tailCost: RefreshSchedule.MeasuredCost?
  /// Whether a blank line arrived since the last structural parse, and where the lines looked at
  /// for one end.
  var blankLineArrived = false
  var blankLinesSeenEnd = 0
  private(set) var isFinished = false

  /// Creates a stream that parses with `options` (GitHub's flavour by default).
  public init(options: ParseOptions = .github) {
    self.options = options
    self.replyGuard = ReplyGuardWatch(options: options)
  }

  /// The text received so far (complete characters only), without a byte order mark that
  /// started it (cmark-gfm drops that one too).
  public var text: String { String(decoding: received.bytes, as: UTF8.self) }

  var source: [UInt8] { received.bytes }

  /// Where the committed prefix ends.
  var committedEnd: Int { held.first?.sourceRange.lowerBound ?? closedEnd }
  /// The line that starts at `committedEnd`.
  var committedLine: Int { held.first?.lines.lowerBound ?? closedLine }

  /// Feeds the next chunk of text and returns the update. Text and byte chunks may alternate: a
  /// character whose first bytes came before this text cannot complete any more and becomes
  /// U+FFFD, as decoding all the bytes at once would make it.
  ///
  /// After ``finish()`` the stream has ended: the chunk is not taken, and the update is what a
  /// second `finish()` returns (final, nothing new). Check ``hasFinished`` first to keep it.
  /// - Complexity: proportional to the chunk plus the open part and its lookback.
  public mutating func feed(_ chunk: String) -> MarkdownStreamUpdate {
    guard !isFinished else { return finish() }
    let start = ParseMeter.total
    guard received.append(chunk) else { return unchanged() }
    return update(meterStart: start)
  }

  /// Feeds the next chunk of UTF-8 bytes; a character split across chunks is held until it
  /// completes (it never shows as U+FFFD).
  ///
  /// After ``finish()`` the bytes are not taken, as ``feed(_:)`` says.
  public mutating func feed<Bytes: Collection>(bytes: Bytes) -> MarkdownStreamUpdate where Bytes.Element == UInt8 {
    guard !isFinished else { return finish() }
    let start = ParseMeter.total
    // Only part of a character: nothing new to show.
    guard received.append(bytes: bytes) else { return unchanged() }
    return update(meterStart: start)
  }

  /// Whether ``finish()`` was called: the stream takes no more text.
  public var hasFinished: Bool { isFinished }

  /// Ends the stream: held bytes are flushed (an incomplete character becomes U+FFFD), unclosed
  /// constructs render as CommonMark renders them, and every remaining block is committed.
  ///
  /// - Complexity: one parse of everything not committed yet, and one of the whole reply when a
  ///   replacement is needed.
  public mutating func finish() -> MarkdownStreamUpdate {
    let meterStart = ParseMeter.total
    guard !isFinished else {
      // Nothing more; the figures stand as the first finish left them (nothing parsed now).
      var update = MarkdownStreamUpdate(
        committed: [], tail: .empty, isFinal: true, replacement: nil, receivedBytes: received.receivedCount)
      update.statistics = statistics(meterStart: ParseMeter.total, openBytesBefore: 0)
      return update
    }
    received.flush()
    isFinished = true
    let openBytesBefore = source.count - closedEnd
    let start = committedEnd
    let firstLine = committedLine
    held.removeAll()
    // The input guard's budgets are per parse, and the stream parses in pieces: where it acted on
    // a piece, or where the whole reply passes its budget for reference links (a long definition
    // and many brackets), only the whole reply parsed at once renders as one-shot does (a 25 KB
    // destination used 60 times streamed as links where render, past the budget, shows text; a
    // piece's smaller budget escaped brackets the whole reply's did not: reviews).
    if replyGuard.finish(source) { committedInexactly = true }
    if !committedInexactly && guardChangedInput {
      committedInexactly = true
    } else if !committedInexactly && Self.mayExceedReferenceBudget(source, footnotes: options.contains(.footnotes)) {
      let guarded = InputGuard.apply(String(decoding: source, as: UTF8.self), options: options)
      if guarded.diagnostics.contains(where: { $0.kind == .referenceExpansion }) { committedInexactly = true }
    }
    // The reply's first line after its byte order mark: see ``hold(_:used:sourceRange:alsoWaiting:)``.
    if start == 0 && received.droppedByteOrderMark && Self.mayHoldTaskMarker(firstLineOf: source) {
      committedInexactly = true
    }
    // A block committed inexactly (past the budget, or with footnote references numbered before
    // the footnote section exists) makes the whole reply the final word; what follows the
    // committed blocks then comes from that same parse, for writers that only append.
    var replacement = committedInexactly ? parseText(source, atReplyStart: true) : nil
    var remainder =
      replacement.map { Self.remainder(of: $0, fromLine: firstLine) }
      ?? Self.shifted(
        parseRegion(
          source[start...], keepFootnoteDefinitions: true, startingAt: start, openPartLine: closedLine - firstLine + 1),
        lines: firstLine - 1)
    // The guard acted on that last piece where the whole reply's own scan did not (it read an
    // indented ```` ``` ```` as a fence and the paragraph after it as code, and cmark-gfm rendered
    // that paragraph's run of 65 `_` its own way: fuzz seed 1317): the whole reply parsed at once.
    if replacement == nil && guardChangedInput {
      committedInexactly = true
      let whole = parseText(source, atReplyStart: true)
      replacement = whole
      remainder = Self.remainder(of: whole, fromLine: firstLine)
    }
    outbox.committed.append(
      MarkdownStreamBlock(
        id: nextBlockID, document: remainder, sourceRange: start..<source.count,
        isReferenceSensitive: Self.isReferenceSensitive(remainder.nodes[...])))
    nextBlockID += 1
    closedEnd = source.count
    longBlock = nil
    settledRevision += 1
    let committed = outbox.committed
    outbox.committed = []
    var update = MarkdownStreamUpdate(
      committed: committed,
      tail: MarkdownStreamTail(
        settledRevision: settledRevision,
        remainder: MarkdownDocument(nodes: [MarkdownNode(kind: .document, subtreeEnd: 1, depth: 0)], options: options)),
      isFinal: true, replacement: replacement, receivedBytes: received.receivedCount)
    update.statistics = statistics(meterStart: meterStart, openBytesBefore: openBytesBefore)
    return update
  }

  // MARK: Updates

  private mutating func update(meterStart: Int) -> MarkdownStreamUpdate {
    outbox.lookback = 0
    let openBytesBefore = source.count - closedEnd
    structuralStep()
    let committed = outbox.committed
    outbox.committed = []
    // Without a tail nothing held is shown (output into a pipe): the held blocks are listed
    // whole once a tail is shown again.
    var replacesHeld = outbox.heldChanged || !committed.isEmpty || (showsTail && outbox.shownHeldCount < 0)
    var shownHeld: [MarkdownStreamHeldBlock] = []
    if showsTail {
      shownHeld = heldDisplay(from: replacesHeld ? 0 : outbox.shownHeldCount)
      outbox.shownHeldCount = held.count
    } else {
      replacesHeld = false
      outbox.shownHeldCount = -1
    }
    outbox.heldChanged = false
    let tail: MarkdownStreamTail
    let openStart = longBlock?.settledEnd ?? closedEnd
    let structureChanged =
      replacesHeld || !shownHeld.isEmpty || !outbox.newSettled.isEmpty || settledRevision != outbox.sentRevision
    if showsTail, let hidden = hiddenDefinitionsTail(structureChanged: structureChanged) {
      // Sure link definitions and a line starting another: nothing to show, no heal.
      tail = hidden
    } else if showsTail && !structureChanged
      && !RefreshSchedule.isDisplayDue(
        openBytes: source.count - openStart, newBytes: source.count - max(outbox.healedEnd, openStart),
        shownWeight: outbox.tailWeight)
    {
      // A long open part: shown again once enough has arrived (the display schedule).
      tail = unchanged().tail
    } else if showsTail && !structureChanged && continuesOpenDestination() {
      // A link's destination still arriving: nothing shown changes, no heal.
      tail = unchanged().tail
      outbox.healedEnd = source.count
    } else if showsTail && !structureChanged, let extended = extendedTail() {
      // Plain words continued the last line: the last tail grows, no parse.
      tail = extended
    } else if showsTail && !structureChanged && source.count - openStart <= RefreshSchedule.threshold,
      let fenceTail = extendedFenceTail() ?? openFenceTail()
    {
      // The open line of a long fence is code: no parse, so no schedule to wait for (a longer
      // line follows the schedule, which spaces out its rendering too).
      tail = fenceTail
      outbox.healedEnd = source.count
    } else if showsTail && !structureChanged
      && !RefreshSchedule.isDue(
        open: source[healStart(openStart)...], newBytes: source.count - max(outbox.healedEnd, openStart),
        measured: &tailCost)
    {
      tail = unchanged().tail
    } else if showsTail {
      // The fence shortcut above was tried unless the structure changed or the line is long.
      tail = makeTail(triesFence: structureChanged || source.count - openStart > RefreshSchedule.threshold)
      outbox.healedEnd = source.count
    } else {
      // Parts settled meanwhile go out with the next shown tail (all of them, under a revision
      // that differs from this one's, so a consumer renders them afresh).
      outbox.newSettled = []
      outbox.sentRevision = -1
      tail = MarkdownStreamTail(
        settledRevision: -1, remainder: MarkdownStreamTail.empty.remainder)
      outbox.lastTail = tail
      outbox.tailWeight = 0
    }
    var update = MarkdownStreamUpdate(
      committed: committed, held: shownHeld, replacesHeld: replacesHeld, tail: tail, isFinal: false,
      replacement: nil, receivedBytes: received.receivedCount)
    update.statistics = statistics(meterStart: meterStart, openBytesBefore: openBytesBefore)
    return update
  }

  private func statistics(meterStart: Int, openBytesBefore: Int) -> MarkdownStreamStatistics {
    MarkdownStreamStatistics(
      parsedBytes: ParseMeter.total &- meterStart, openBytes: openBytesBefore,
      lookbackBytes: outbox.lookback, heldBytes: held.bytes, committedBytes: committedEnd)
  }

  /// The update for a chunk that added no character: the same tail, nothing new settled.
  private func unchanged() -> MarkdownStreamUpdate {
    var tail = outbox.lastTail
    tail.newSettled = []
    var update = MarkdownStreamUpdate(
      committed: [], tail: tail, isFinal: false, replacement: nil, receivedBytes: received.receivedCount)
    update.statistics = statistics(meterStart: ParseMeter.total, openBytesBefore: source.count - closedEnd)
    return update
  }

  // MARK: Structure

  /// Closes what the new complete lines closed: settles parts of an open long block, or parses the
  /// open part and closes every block a later block started after.
  private mutating func structuralStep() {
    let completeEnd = received.completeEnd(from: closedEnd)
    if replyGuard.scan(source, upTo: completeEnd) { committedInexactly = true }
    let nextLine = nextLineStarted(after: completeEnd)
    // A new complete line, or the first byte of the next one (it may close what a blank line
    // left open: a footnote definition, indented code).
    guard
      completeEnd > structuredEnd
        || (nextLine && !structuredNextLine && openUntilUnindentedLine && completeEnd == structuredEnd)
        || nextItemOpened(completeEnd: completeEnd)
        || nextFootnoteOpened(completeEnd: completeEnd)
    else { return }
    // Lines that are each one more link definition (a reply's sources) close nothing below the
    // limit that takes them one by one, and past it are taken so, as a parse of them would find:
    // no parse for them, and no wait for the refresh schedule.
    if fastPaths, longBlock == nil, !openUntilUnindentedLine, completeEnd > closedEnd,
      sureDefinitions.cover(source, from: closedEnd, to: completeEnd),
      case let split = sureDefinitions.lastLineStart - closedEnd,
      // (Sure lines hold no carriage return: the guard counts their bytes as they are.)
      definitionRunBytes + split <= Self.definitionRunLimit
        || !SourceLines.contains(source, closedEnd..<completeEnd, Self.footnoteMarker)
    {
      structuredEnd = completeEnd
      structuredNextLine = nextLine
      blankLineArrived = false
      blankLinesSeenEnd = completeEnd
      if split > 0 && definitionRunBytes + split > Self.definitionRunLimit {
        takeDefinitions(Array(source[closedEnd..<completeEnd]), upTo: split, linesAreSure: true)
      }
      drain()
      return
    }
    // Lines that stay inside a long list's open item can settle nothing: no parse for them.
    if fastPaths, let block = longBlock, case .list = block.kind,
      linesContinueOpenItem(itemStart: block.settledEnd, from: structuredEnd, to: completeEnd),
      !openItemMayHoldTable(to: completeEnd)
    {
      structuredEnd = completeEnd
      structuredNextLine = nextLine
      return
    }
    // An open part of lines that all open with `>` is one block quote, open at its end: nothing in
    // it can close. (Looked at up to the refresh threshold, so the check stays bounded.)
    if fastPaths, longBlock == nil, !openUntilUnindentedLine, !definitionRunOpen,
      completeEnd - closedEnd <= RefreshSchedule.threshold,
      Self.isOneOpenQuote(source[closedEnd..<completeEnd])
    {
      structuredEnd = completeEnd
      structuredNextLine = nextLine
      return
    }
    let openStart = longBlock?.settledEnd ?? closedEnd
    // A blank line among the lines since the last parse may have closed the open block; each line
    // is looked at once.
    let unseen = max(blankLinesSeenEnd, openStart, structuredEnd)
    if unseen < completeEnd, SourceLines.containsBlankLine(source, unseen..<completeEnd) { blankLineArrived = true }
    blankLinesSeenEnd = completeEnd
    // A long fence's lines settle without a parse (``OpenFenceCode``): nothing for the refresh
    // schedule to weigh.
    guard
      completeEnd == structuredEnd || longBlock?.isFence == true
        || RefreshSchedule.isDue(
          open: source[openStart..<completeEnd], newBytes: completeEnd - max(structuredEnd, openStart),
          measured: &structureCost, blankLineArrived: blankLineArrived)
    else { return }
    blankLineArrived = false
    structuredEnd = completeEnd
    structuredNextLine = nextLine
    openUntilUnindentedLine = false
    // Each pass either stays in a long block, or closes blocks and moves the open part on; a
    // few passes cover a long block closing and the next one starting in the same chunk.
    for _ in 0..<4 {
      if longBlock != nil {
        if settleLongBlock(completeEnd) { return }
        if commitClosedFence(completeEnd) { continue }
        leaveLongBlock()
        guard closeBlocks(completeEnd, mayEnterLongBlock: false) else { return }
      } else {
        guard closeBlocks(completeEnd, mayEnterLongBlock: true) else { return }
      }
    }
  }

  /// Whether the line being received has just turned out to open a long list's next item while
  /// the item before it is complete and unsettled (``opensNextItem(_:after:in:)``): that item can
  /// settle now, not only once the line ends. Asked once per complete end.
  private mutating func nextItemOpened(completeEnd: Int) -> Bool {
    // (Asked on every update that completed no line: the first byte rules most out.)
    guard completeEnd < source.count, case let first = source[completeEnd],
      first == ASCII.hyphen || first == ASCII.star || first == ASCII.plus || ASCII.isDigit(first),
      var block = longBlock, case .list(let info) = block.kind, block.settledEnd < completeEnd,
      completeEnd == structuredEnd, block.nextItemCheckedAt != completeEnd,
      // (After a line cmark-gfm may take for blank, in a tight list, the item waits all the same.)
      !info.isTight
        || !Self.mayEndBlank(
          source[SourceLines.lineStart(source, endingAt: completeEnd, floor: block.settledEnd)..<completeEnd]),
      Self.opensNextItem(source[completeEnd...], after: source[block.settledEnd..<completeEnd], in: info)
    else { return false }
    block.nextItemCheckedAt = completeEnd
    longBlock = block
    return true
  }

  /// Whether the line being received has just turned out to open a footnote definition at its
  /// first column while the open part, complete lines that open with one, is not yet closed: a
  /// footnote definition there (or indented code) ends before that line, which cmark-gfm takes
  /// for a new definition whatever follows on it (``nextLineOpensFootnote(after:)``), so it can
  /// close now, not only once the line ends (footnote definitions one after another, as replies
  /// end, were parsed two at a time). Asked once per complete end.
  private mutating func nextFootnoteOpened(completeEnd: Int) -> Bool {
    // (Asked on every update that completed no line: the first bytes rule most out.)
    guard completeEnd < source.count, source[completeEnd] == ASCII.openBracket, longBlock == nil,
      closedEnd < completeEnd, completeEnd == structuredEnd, footnoteOpenerCheckedAt != completeEnd,
      source[closedEnd] == ASCII.openBracket, nextLineOpensFootnote(after: completeEnd)
    else { return false }
    footnoteOpenerCheckedAt = completeEnd
    return Self.opensFootnoteDefinition(source[closedEnd..<completeEnd])
  }

  /// Whether the line after the complete lines that end at `completeEnd` opens, at its first
  /// column, what cmark-gfm takes for a footnote definition's start (``opensFootnoteDefinition(_:)``),
  /// with footnotes on: it interrupts a paragraph, and no container or indented code goes on
  /// through a line at that column, so a footnote definition or indented code before it has ended.
  func nextLineOpensFootnote(after completeEnd: Int) -> Bool {
    guard options.contains(.footnotes), completeEnd < source.count, source[completeEnd] == ASCII.openBracket else {
      return false
    }
    return Self.opensFootnoteDefinition(source[completeEnd...])
  }

  /// Whether the line after the complete lines that end at `completeEnd` has begun with a byte
  /// other than a blank: after a blank line, it cannot continue a footnote definition or indented
  /// code (both need indentation there), whatever the rest of it turns out to be.
  func nextLineStarted(after completeEnd: Int) -> Bool {
    guard completeEnd < source.count else { return false }
    let first = source[completeEnd]
    return !ASCII.isBlank(first) && first != ASCII.carriageReturn && first != ASCII.newline
  }

  // MARK: Tail

  /// The last tail with the plain text received since appended to its last line, when
  /// ``PlainTextExtension`` can tell that a heal would show just that.
  private mutating func extendedTail() -> MarkdownStreamTail? {
    guard fastPaths, let end = outbox.extendableEnd, end == outbox.healedEnd, end < source.count else { return nil }
    let document: MarkdownDocument
    let appended: String
    switch PlainTextExtension.extend(
      outbox.lastTail.remainder, source: source[...], previousEnd: end, lastLine: outbox.extendableLine,
      checksPositions: outbox.extendableHidesText, smartPunctuation: options.contains(.smartPunctuation))
    {
    case .extended(let extended, let text):
      document = extended
      appended = text
    case .notYet: return nil
    case .never:
      outbox.extendableEnd = nil
      return nil
    }
    outbox.extendableEnd = source.count
    return extendLastTail(with: document, appended: appended)
  }

  /// The last tail with `remainder` as its document, continuing it by `appended`
  /// (``MarkdownStreamTail/extends``): numbered anew, nothing newly settled, healed to the end.
  private mutating func extendLastTail(with remainder: MarkdownDocument, appended: String) -> MarkdownStreamTail {
    outbox.lastTail.remainder = remainder
    outbox.lastTail.newSettled = []
    outbox.lastTail.extends = outbox.lastTail.serial
    outbox.lastTail.appendedText = appended
    outbox.tailSerial += 1
    outbox.lastTail.serial = outbox.tailSerial
    outbox.healedEnd = source.count
    return outbox.lastTail
  }

  /// A document of no nodes, for a tail's document while it is changed in place.
  private static let noDocument = MarkdownDocument(nodes: [], options: [])

  /// The empty tail of an open part of sure link definitions (``SureDefinitionLines``) whose
  /// incomplete last line, if any, is held back whole: a heal would show nothing. The last tail
  /// again when it was this one and nothing was settled or held since.
  private mutating func hiddenDefinitionsTail(structureChanged: Bool) -> MarkdownStreamTail? {
    // Sure lines and a label's start both open with `[`.
    guard fastPaths, longBlock == nil, closedEnd < received.bytes.count,
      received.bytes[closedEnd] == ASCII.openBracket
    else { return nil }
    let completeEnd = received.completeEnd(from: closedEnd)
    guard structuredEnd == completeEnd, sureDefinitions.cover(source, from: closedEnd, to: completeEnd),
      SureDefinitionLines.isHiddenPartial(source[completeEnd...])
    else { return nil }
    outbox.healedEnd = source.count
    if !structureChanged && outbox.hiddenDefinitionsSerial == outbox.lastTail.serial {
      return unchanged().tail
    }
    outbox.openParagraph = nil
    outbox.checkpoint = nil
    let tail = finishTail(
      document: MarkdownDocument(nodes: [MarkdownNode(kind: .document, subtreeEnd: 1, depth: 0)], options: options),
      container: nil, extendable: false)
    outbox.hiddenDefinitionsSerial = tail.serial
    return tail
  }

  /// The tail of an open long fence whose open line is certainly code (``OpenFenceCode``), made
  /// without a parse; `nil` when there is no such fence or a parse must tell.
  private mutating func openFenceTail() -> MarkdownStreamTail? {
    guard fastPaths, let block = longBlock, case .fence(let opener, let fence, let length, let head) = block.kind,
      let shown = OpenFenceCode.shownOpenLine(
        source[block.settledEnd...], head: head, fence: fence, length: length,
        indent: OpenFenceCode.indent(ofOpener: opener))
    else { return nil }
    outbox.lookback += opener.count
    let tail = finishTail(document: shown.document, container: .codeBlock(head), extendable: false)
    outbox.shownFenceLine = (block.settledEnd, shown.lineStart, shown.end)
    return tail
  }

  /// The last tail, an open long fence's line (``openFenceTail()``), with the code that continued
  /// that line since added to its code, when that is what ``openFenceTail()`` would show now
  /// (``OpenFenceCode/ShownLine/continues(_:with:)``): it ``MarkdownStreamTail/extends`` the last
  /// tail by that code, so a consumer adds it to the line it shows. Nil otherwise.
  ///
  /// - Complexity: O(n) in the bytes received since, and the shown part of the line.
  private mutating func extendedFenceTail() -> MarkdownStreamTail? {
    guard fastPaths, let shown = outbox.shownFenceLine, longBlock?.settledEnd == shown.settledEnd,
      longBlock?.isFence == true,
      OpenFenceCode.ShownLine.continues(source[shown.lineStart..<shown.end], with: source[shown.end...])
    else { return nil }
    let end = source.count - ByteHolds.growableGraphemeLength(source[shown.settledEnd...])
    var nodes = outbox.lastTail.remainder.nodes
    guard end > shown.end, nodes.count == 2, case .codeBlock(var info) = nodes[1].kind else { return nil }
    let options = outbox.lastTail.remainder.options
    // The tail and the node let go of the code first, so it grows in place, not copied. (The
    // nodes of an open fence's line carry no source positions to move.)
    outbox.lastTail.remainder = Self.noDocument
    nodes[1].kind = .document
    let appended = String(decoding: source[shown.end..<end], as: UTF8.self)
    info.code += appended
    nodes[1].kind = .codeBlock(info)
    outbox.shownFenceLine = (shown.settledEnd, shown.lineStart, end)
    return extendLastTail(with: MarkdownDocument(nodes: nodes, options: options), appended: appended)
  }

  private mutating func makeTail(triesFence: Bool = true) -> MarkdownStreamTail {
    if triesFence, let tail = openFenceTail() { return tail }
    var container: MarkdownStreamTail.Container?
    var healed: StreamHealer.Healed
    var extendable = false
    var hidesText = false
    if let block = longBlock {
      switch block.kind {
      case .fence(let opener, let fence, let length, let head):
        var applied = AppliedHealRules()
        healed = heal(
          opener + source[block.settledEnd...], protectedLength: opener.count,
          context: .fencedCode(fence: fence, length: length), applied: &applied)
        container = .codeBlock(head)
      case .table(let header, let head):
        var applied = AppliedHealRules()
        if let known = knownTableRow(header: header, from: block.settledEnd, applied: &applied) {
          (healed, extendable) = known
        } else {
          healed = healWithPreamble(head: header, from: block.settledEnd, applied: &applied)
          extendable = PlainTextExtension.mayExtend(after: applied)
        }
        hidesText = applied.contains(.unresolvedFootnoteReference)
        container = .table(head)
      case .list(let info):
        var applied = AppliedHealRules()
        healed = healOpenPart(from: block.settledEnd, applied: &applied)
        extendable = PlainTextExtension.mayExtend(after: applied)
        hidesText = applied.contains(.unresolvedFootnoteReference)
        container = .list(info)
      }
    } else {
      var applied = AppliedHealRules()
      healed = healOpenPart(from: closedEnd, applied: &applied)
      extendable = PlainTextExtension.mayExtend(after: applied)
      hidesText = applied.contains(.unresolvedFootnoteReference)
    }
    outbox.extendableHidesText = hidesText
    let tail = finishTail(
      document: footnotes.numbered(healed.document, after: outbox.heldFootnotes), container: container,
      extendable: extendable)
    outbox.openDestination = healed.openDestination.flatMap { start in
      fastPaths ? OpenDestination(serial: tail.serial, start: start, received: source[...]) : nil
    }
    return tail
  }

  /// The heal of a long table's open row that ``KnownTableRow`` makes without a parse of the
  /// rows header and the row, and whether words may extend it: the open part is that one line
  /// and no definition stands before it. Nil where the heal must parse.
  ///
  /// A row of plain words is made without a parse. Any other is healed as a table of one column
  /// whose rows are its cells holding more than plain words, and its last (``KnownTableRow/cellRows(_:pipes:numbers:)``:
  /// cmark-gfm reads each cell's inlines on their own), and the cells put in the row's place
  /// (``KnownTableRow/document(head:headerLines:line:pipes:parsed:cells:)``);
  /// `applied` records the heal's rules.
  private mutating func knownTableRow(
    header: [UInt8], from start: Int, applied: inout AppliedHealRules
  ) -> (StreamHealer.Healed, extendable: Bool)? {
    let line = source[start...]
    guard fastPaths, line.isEmpty || line.first == ASCII.pipe, let head = rowsHead(header, before: line) else {
      return nil
    }
    let headerLines = header.count(where: { $0 == ASCII.newline })
    let smart = options.contains(.smartPunctuation)
    let healed: StreamHealer.Healed
    let extendable: Bool
    if line.dropFirst().allSatisfy({ $0 == ASCII.space }) {
      // Nothing, or a `|` and spaces: no row yet (``OpenLeaf/continuingTableRow(_:lineStart:)``),
      // which the heal holds back: the rows header alone shows.
      (healed, extendable) = (StreamHealer.Healed(document: head, paragraphStart: nil), false)
    } else if ByteHolds.trailingUnicodeSpaceLength(line, floor: line.startIndex) == 0,
      let plain = KnownTableRow.document(head: head, headerLines: headerLines, line: line, smartPunctuation: smart)
    {
      // (A Unicode space ending the open part is held back by the heal, which the cells' heal
      // below does as well: `|`, U+3000 showed a row of it where the heal shows none; a review.)
      (healed, extendable) = (StreamHealer.Healed(document: plain, paragraphStart: nil), true)
    } else {
      guard let columns = KnownTableRow.columns(of: head), let pipes = KnownTableRow.cellPipes(line, columns: columns),
        !pipes.isEmpty, KnownTableRow.mayParseCells(line)
      else { return nil }
      let parsed = KnownTableRow.parsedCells(line, pipes: pipes, withLast: true, smartPunctuation: smart)
      let rows = KnownTableRow.cellRows(line, pipes: pipes, numbers: parsed)
      // The last cell's row ends the healed input; what comes before it is complete.
      let lastRow = KnownTableRow.oneColumnHeader.count + rows.count - (line.count - pipes[pipes.count - 1])
      var rules = AppliedHealRules()
      let cells = heal(
        KnownTableRow.oneColumnHeader + rows, protectedLength: lastRow,
        contextLength: KnownTableRow.oneColumnHeader.count + parsed.count, context: .blocks, continuesTable: true,
        applied: &rules)
      guard
        let document = KnownTableRow.document(
          head: head, headerLines: headerLines, line: line, pipes: pipes, parsed: parsed, cells: cells.document)
      else { return nil }
      applied.formUnion(rules)
      var known = StreamHealer.Healed(document: document, paragraphStart: nil, leavesOpener: cells.leavesOpener)
      // In the received text, from the last cell's pipe.
      known.openDestination = cells.openDestination.flatMap {
        $0 >= lastRow ? $0 - lastRow + line.startIndex + pipes[pipes.count - 1] : nil
      }
      (healed, extendable) = (known, PlainTextExtension.mayExtend(after: rules))
    }
    // As ``healWithPreamble(head:from:to:endsBeforeBlank:applied:)`` leaves them for a row.
    outbox.openParagraph = nil
    outbox.extendableLine = headerLines + 1
    return (healed, extendable)
  }

  /// The settled part of a long table's complete row `line` (its line end left out), as a parse
  /// of the rows header `header` and the line gives it, pending links marked and footnote text
  /// hidden, where no definition stands before it: its plain cells made, the others from a parse
  /// of them as rows of a table of one column (``KnownTableRow/document(head:headerLines:line:pipes:parsed:cells:)``);
  /// nil where the whole row must be parsed.
  mutating func settledTableRow(header: [UInt8], line: ArraySlice<UInt8>) -> MarkdownDocument? {
    guard fastPaths, let head = rowsHead(header, before: line), let columns = KnownTableRow.columns(of: head),
      let pipes = KnownTableRow.cellPipes(line, columns: columns), !pipes.isEmpty
    else { return nil }
    let parsed = KnownTableRow.parsedCells(
      line, pipes: pipes, withLast: false, smartPunctuation: options.contains(.smartPunctuation))
    var cells: MarkdownDocument?
    if !parsed.isEmpty {
      guard KnownTableRow.mayParseCells(line) else { return nil }
      let region =
        KnownTableRow.oneColumnHeader + KnownTableRow.cellRows(line, pipes: pipes, numbers: parsed) + [ASCII.newline]
      outbox.lookback += KnownTableRow.oneColumnHeader.count + parsed.count
      cells = PendingReferences.mark(Self.hidingFootnoteText(parseText(region)), source: region)
    }
    return KnownTableRow.document(
      head: head, headerLines: header.count(where: { $0 == ASCII.newline }), line: line, pipes: pipes,
      parsed: parsed, cells: cells)
  }

  /// The rows header `header` parsed on its own, once per table (``LongBlock/rowsHead``), for a
  /// row `line` that no definition stands before (its heal has no preamble); nil otherwise, or
  /// when the header has a carriage return (positions are counted by `\n`).
  private mutating func rowsHead(_ header: [UInt8], before line: ArraySlice<UInt8>) -> MarkdownDocument? {
    // (A header with a bracket may cite a footnote, which numbers the rows' after it, or use a
    // label defined later: its rows are parsed after it.)
    guard !header.contains(ASCII.carriageReturn), !header.contains(ASCII.openBracket),
      definitions.preamble(for: line).isEmpty
    else { return nil }
    if let parsed = longBlock?.rowsHead { return parsed }
    outbox.lookback += header.count
    let head = parseText(header)
    longBlock?.rowsHead = head
    return head
  }

  /// Whether what arrived since the last tail continues the destination of a link its heal cut at
  /// (``OpenDestination``): the last tail then shows the received text as a heal would.
  private mutating func continuesOpenDestination() -> Bool {
    guard var open = outbox.openDestination else { return false }
    guard open.serial == outbox.lastTail.serial, open.checkedEnd <= source.count,
      OpenDestination.continues(source[open.checkedEnd...])
    else {
      outbox.openDestination = nil
      return false
    }
    open.checkedEnd = source.count
    outbox.openDestination = open
    return true
  }

  /// The tail showing `document` after the settled parts of `container`, numbered and kept as the
  /// last tail.
  private mutating func finishTail(
    document: MarkdownDocument, container: MarkdownStreamTail.Container?, extendable: Bool
  ) -> MarkdownStreamTail {
    let parts: [MarkdownStreamSettledPart]
    if outbox.sentRevision != settledRevision {
      parts = longBlock?.parts.all ?? []
      outbox.sentRevision = settledRevision
    } else {
      parts = outbox.newSettled
    }
    outbox.newSettled = []
    outbox.lastTail = MarkdownStreamTail(
      container: container, settledRevision: settledRevision, newSettled: parts,
      settled: longBlock?.parts ?? .none, remainder: document)
    outbox.tailSerial += 1
    outbox.lastTail.serial = outbox.tailSerial
    outbox.tailWeight = RefreshSchedule.weight(of: document)
    outbox.extendableEnd = extendable ? source.count : nil
    outbox.shownFenceLine = nil
    return outbox.lastTail
  }

  /// Heals `head` + the received text from `start`, after the definitions they use.
  private mutating func healWithPreamble(head: [UInt8], from start: Int) -> StreamHealer.Healed {
    var applied = AppliedHealRules()
    return healWithPreamble(head: head, from: start, applied: &applied)
  }

  /// ``StreamHealer/heal(_:protectedLength:context:knownParagraph:endsBeforeBlank:applied:)``,
  /// with the healer's probes kept from the last heal to the next (``InlineStartProbes``). The
  /// protected part (a definitions preamble, a long block's head) counts as context parsed once
  /// per parse of the whole input: the healer parses it with each (up to five; a 5 KB preamble
  /// parsed four times for a 37-byte open part broke a bound that counted it once: fuzz seed 1345).
  /// (`contextLength`, when given, is the part of the input that is not received text, counted
  /// as lookback in the place of the protected part: a long table's cells healed as rows of their
  /// own, whose complete ones are protected, add only a head and the pipes and line ends between
  /// them.)
  mutating func heal(
    _ input: [UInt8], protectedLength: Int, contextLength: Int? = nil, context: StreamHealer.Context,
    knownParagraph: Int? = nil, continuesTable: Bool = false, readsFirstLine: Bool = false,
    endsBeforeBlank: Bool = false, applied: inout AppliedHealRules
  ) -> StreamHealer.Healed {
    // Moved out and back, so that recording an answer copies nothing.
    var healer = StreamHealer(options: options, probes: outbox.inlineStartProbes)
    outbox.inlineStartProbes = InlineStartProbes()
    defer {
      outbox.inlineStartProbes = healer.probes
      outbox.lookback += (contextLength ?? protectedLength) * healer.wholeParses
    }
    return healer.heal(
      input, protectedLength: protectedLength, context: context, knownParagraph: knownParagraph,
      continuesTable: continuesTable, readsFirstLine: readsFirstLine, endsBeforeBlank: endsBeforeBlank,
      applied: &applied)
  }

  /// ``healWithPreamble(_:head:from:)``, recording in `applied` the rules that changed the display.
  mutating func healWithPreamble(
    head: [UInt8], from start: Int, to end: Int? = nil, endsBeforeBlank: Bool = false,
    applied: inout AppliedHealRules
  ) -> StreamHealer.Healed {
    let end = end ?? source.count
    let open = source[start..<end]
    let preamble = definitions.preamble(for: head.isEmpty ? open : ArraySlice(head + open))
    let context = preamble.bytes.count + head.count
    let lineStart =
      end == source.count
      ? received.lastLineStart(floor: start) : SourceLines.lineStart(received.bytes, before: end, floor: start)
    var known: Int?
    // Not after footnote definitions: cmark-gfm moves them to the end, where the healer takes the
    // last block for the open one.
    let endsWithOpenPart =
      !SourceLines.contains(preamble.bytes, 0..<preamble.bytes.count, DefinitionStore.footnoteOpener)
    // The open paragraph of the last heal, when only its settled last line grew since. The line's
    // block stays settled as the line grows, but for a `|` (a table's header to be).
    if fastPaths, endsWithOpenPart, let paragraph = outbox.openParagraph, paragraph.openStart == start,
      paragraph.lineStart == lineStart,
      paragraph.start < end, paragraph.lineEnd <= end,
      source[paragraph.start] != ASCII.openBracket
        || PlainTextExtension.opensNoDefinition(source[paragraph.start..<end]),
      !source[paragraph.lineEnd..<end].contains(ASCII.pipe)
    {
      known = context + paragraph.start - start
    }
    // A head is a long table's: its open row needs no parse to be found either.
    // An open part of one line that opens a paragraph needs no parse to find it either.
    var healed = heal(
      preamble.bytes + head + open, protectedLength: context, context: .blocks, knownParagraph: known,
      continuesTable: fastPaths && !head.isEmpty, readsFirstLine: fastPaths && head.isEmpty && endsWithOpenPart,
      endsBeforeBlank: endsBeforeBlank, applied: &applied)
    if preamble.isStubbed { healed.document = definitions.restoringLinks(healed.document) }
    // In the received text: the preamble and head come before the open part.
    healed.openDestination = healed.openDestination.flatMap { $0 >= context ? $0 - context + start : nil }
    // Text ending with a line break has an empty last line: the next line may start any block.
    // So may a last line whose block is not settled yet (`*!`, then a line of a space, then `>`
    // and NBSP on it: the quote closed the paragraph, whose emphasis still showed closed).
    outbox.openParagraph = healed.paragraphStart.flatMap { found in
      found >= context && lineStart < end && PlainTextExtension.isSettled(line: source[lineStart..<end])
        ? (start: found - context + start, openStart: start, lineStart: lineStart, lineEnd: end) : nil
    }
    outbox.extendableLine =
      preamble.lines + head.count(where: { $0 == ASCII.newline }) + received.lineBreaks(in: start..<end) + 1
    guard !preamble.isEmpty else { return healed }
    let document = Self.droppingBlocks(healed.document) { node in
      Self.isPreambleBlock(node, preambleLines: preamble.lines) || Self.isFootnoteDefinition(node)
    }
    return StreamHealer.Healed(
      document: document, paragraphStart: healed.paragraphStart, leavesOpener: healed.leavesOpener,
      openDestination: healed.openDestination)
  }

  // MARK: Parsing

  /// Parses `region` after the definitions it uses. The document's lines count from the region's
  /// first line; blocks from the preamble are left out, and so are footnote definitions unless
  /// `keepFootnoteDefinitions` (they form the footnote section at the end).
  ///
  /// With `locatingFootnoteDefinitions`, the region's own footnote definitions stay in the
  /// document where cmark-gfm puts them (at the end, with their positions): a probe paragraph in
  /// the preamble references them, since cmark-gfm drops a definition nothing references, and the
  /// stream needs to see where each one ends.
  ///
  /// `openPartLine`: the region's 1-based line where the open part starts, when it holds that
  /// start; a paragraph starting there has ``definitionRunBytes`` before it for the input guard.
  mutating func parseRegion(
    _ region: ArraySlice<UInt8>, keepFootnoteDefinitions: Bool = false, locatingFootnoteDefinitions: Bool = false,
    startingAt regionStart: Int = .max, openPartLine: Int? = nil
  ) -> MarkdownDocument {
    var preamble = definitions.preamble(for: region, regionStart: regionStart, footnoteText: keepFootnoteDefinitions)
    if locatingFootnoteDefinitions && options.contains(.footnotes) {
      let labels = ReferenceLabels.defined(in: region).filter { $0.hasPrefix("^") }
      if !labels.isEmpty {
        // A paragraph that opens with a letter: a line opening `[^\]:` is a footnote definition
        // to cmark-gfm (its label scan reads no escapes), which took the region's indented code
        // for its own text (`\t[^\]:`, `]:` streamed without the code block: a generator).
        let probe = Array(("x " + labels.map { "[" + $0 + "]" }.joined(separator: " ") + "\n\n").utf8)
        preamble.bytes = probe + preamble.bytes
        preamble.lines += 2
      }
    }
    outbox.lookback += preamble.bytes.count
    if preamble.isPartial { committedInexactly = true }
    let lead = definitionRunOpen ? openPartLine.map { (line: preamble.lines + $0, bytes: definitionRunBytes) } : nil
    var document = parseText(preamble.bytes.isEmpty ? Array(region) : preamble.bytes + region, paragraphLead: lead)
    if preamble.isStubbed { document = definitions.restoringLinks(document) }
    if !preamble.isEmpty || !keepFootnoteDefinitions {
      document = Self.droppingBlocks(document) { node in
        // The final parse keeps every footnote definition (the footnote section); one that
        // locates them keeps the region's own.
        if Self.isFootnoteDefinition(node) {
          if keepFootnoteDefinitions { return false }
          return !locatingFootnoteDefinitions || Self.isPreambleBlock(node, preambleLines: preamble.lines)
        }
        return Self.isPreambleBlock(node, preambleLines: preamble.lines)
      }
    }
    return Self.shifted(document, lines: -preamble.lines)
  }

  /// Whether the whole reply may pass the guard's budget for reference links
  /// (``InputLimits/maxReferenceExpansionBytes``): its brackets, each charged the longest
  /// definition the guard's own scan finds as the guard charges it, pass half of it.
  ///
  /// - Complexity: O(n): a count of brackets and the guard's scan of the lines that hold one.
  static func mayExceedReferenceBudget(_ bytes: [UInt8], footnotes: Bool) -> Bool {
    let brackets = bytes.count { $0 == ASCII.openBracket }
    guard brackets > 1 else { return false }
    let longest = bytes.withUnsafeBufferPointer { buffer in
      var scan = ReferenceDefinitionScan(lines: LineBreaks(buffer), footnotes: footnotes)
      return scan.longestDefinition()
    }
    let charged = longest.multipliedReportingOverflow(by: brackets * ReferenceDefinitionScan.renderedBytesPerByte)
    return charged.overflow || charged.partialValue > InputLimits.default.maxReferenceExpansionBytes / 2
  }

  /// Parses a piece of the reply, noting whether the input guard changed it.
  ///
  /// The received text holds no byte order mark cmark-gfm would drop (the reply's first was
  /// dropped on arrival), so one starting the piece is text: another is put before it for
  /// cmark-gfm to drop, which changes no line. A piece `atReplyStart` gets back the reply's own
  /// mark, if it had one: cmark-gfm reads the first line after it at offsets three bytes past its
  /// columns, and makes no task item there (`- [ ] x`).
  /// `paragraphLead`: see ``GuardScanner/paragraphLead``.
  mutating func parseText<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, atReplyStart: Bool = false, paragraphLead: (line: Int, bytes: Int)? = nil
  ) -> MarkdownDocument {
    var text = String(decoding: bytes, as: UTF8.self)
    if bytes.starts(with: InputGuard.byteOrderMark) || (atReplyStart && received.droppedByteOrderMark) {
      text = "\u{FEFF}" + text
    }
    let document = MarkdownDocument(text, options: options, limits: .default, paragraphLead: paragraphLead)
    if !document.diagnostics.isEmpty { guardChangedInput = true }
    return document
  }
}
