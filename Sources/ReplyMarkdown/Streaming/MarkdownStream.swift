/// Formats a markdown reply incrementally while it streams in.
///
/// Feed chunks (`String`s, or bytes with incremental UTF-8 decoding), then call ``finish()``. Every
/// call returns a ``MarkdownStreamUpdate``: the top-level blocks that became final (committed with
/// stable ids, never changed again) and the healed tail (unclosed emphasis, code and links closed;
/// text the next characters could still change held back).
///
/// Guarantees:
/// - The final output (committed blocks, plus the ``MarkdownStreamUpdate/replacement`` when one is
///   given) renders byte-identical to one-shot rendering of the whole text, whatever the chunking.
/// - Committed blocks render as they do in the whole document. The one exception is documented on
///   ``MarkdownStreamBlock/isReferenceSensitive``: a link reference definition arriving after a
///   committed block that uses its label; the final update then carries the replacement.
/// - Work per chunk is proportional to the chunk plus the open block; long fenced code blocks,
///   lists and tables settle their finished lines, items and rows, so total work stays linear.
///
/// Not thread-safe for concurrent mutation (it is a value); parsing goes through the library's
/// global cmark-gfm lock.
public struct MarkdownStream: Sendable {
  /// The parse options, as for ``MarkdownDocument``.
  public let options: ParseOptions

  private var decoder = UTF8StreamDecoder()
  /// Everything received and decoded so far.
  private(set) var source: [UInt8] = []
  private var receivedBytes = 0
  /// Where the committed blocks end (the first held block starts).
  private var committedOffset = 0
  private var committedLines = 0
  /// Where the committed and held blocks end: the open part starts here.
  private var parsedOffset = 0
  private var parsedLines = 0
  /// `parsedLines` when the region being parsed began.
  private var regionLines = 0
  /// Whether a block is held: every later block is held too, until ``finish()``.
  private var holding = false
  private var nextBlockID = 0
  private var checkedEnd = 0
  /// Link reference definitions seen between blocks, each ending with a newline; every parse of
  /// the open part starts with them so their labels resolve.
  private var preamble: [UInt8] = []
  private var preambleLines = 0
  /// The preamble as it was before the first held block: the final parse starts with this.
  private var finishPreambleLength = 0
  private var finishPreambleLines = 0
  private var newlyHeld: [MarkdownStreamHeldBlock] = []
  /// The tail of the last update (an update that adds no character shows it again).
  private var lastTail = MarkdownStreamTail.empty
  /// Every block held so far (shown between the committed blocks and the tail).
  private var heldBlocks: [MarkdownStreamHeldBlock] = []
  /// Whether a held block was re-rendered since the last update (the update then lists them all).
  private var heldChanged = false
  /// The preamble's length when the held blocks were last resolved against it.
  private var heldPreambleLength = 0
  private var firstSensitiveOffset: Int?
  private var lastDefinitionOffset = -1
  private var definitionScanEnd = 0
  /// Where the definition text already in the preamble ends in the reply.
  private var definitionsEnd = 0
  private var newlyCommitted: [MarkdownStreamBlock] = []
  private(set) var isFinished = false
  /// Whether updates take the shortcuts that skip cmark-gfm where its result is certain (tests
  /// turn them off to compare against the parsed result).
  var fastPaths = true

  private enum Mode {
    case general
    case fence(opener: [UInt8], fence: UInt8, length: Int, head: MarkdownDocument)
    case table(header: [UInt8], head: MarkdownDocument)
    case list(info: MarkdownNode.ListInfo)
  }

  private var mode: Mode = .general
  private var settledEnd = 0
  private var settledRevision = 0
  private var sentRevision = -1
  private var settledParts: [MarkdownStreamSettledPart] = []
  private var newSettled: [MarkdownStreamSettledPart] = []
  private var nextPartID = 0

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
  public private(set) var guardChangedInput = false

  /// Creates a stream that parses with `options` (GitHub's flavour by default).
  public init(options: ParseOptions = .github) {
    self.options = options
  }

  /// The text received so far (complete characters only).
  public var text: String { String(decoding: source, as: UTF8.self) }

  /// Feeds the next chunk of text and returns the update.
  ///
  /// - Complexity: proportional to the chunk plus the open block.
  public mutating func feed(_ chunk: String) -> MarkdownStreamUpdate {
    precondition(!isFinished, "MarkdownStream.feed after finish()")
    receivedBytes += chunk.utf8.count
    guard !chunk.isEmpty else { return unchanged() }
    source.append(contentsOf: chunk.utf8)
    return update()
  }

  /// Feeds the next chunk of UTF-8 bytes; a character split across chunks is held until it
  /// completes (it never shows as U+FFFD).
  public mutating func feed<Bytes: Collection>(bytes: Bytes) -> MarkdownStreamUpdate where Bytes.Element == UInt8 {
    precondition(!isFinished, "MarkdownStream.feed after finish()")
    receivedBytes += bytes.count
    let decoded = decoder.decode(bytes)
    // Only part of a character: nothing new to show.
    guard !decoded.isEmpty else { return unchanged() }
    source.append(contentsOf: decoded.utf8)
    return update()
  }

  /// Ends the stream: held bytes are flushed (an incomplete character becomes U+FFFD), unclosed
  /// constructs render as CommonMark renders them, and every remaining block is committed.
  public mutating func finish() -> MarkdownStreamUpdate {
    guard !isFinished else {
      return MarkdownStreamUpdate(
        committed: [], tail: .empty, isFinal: true, replacement: nil, receivedBytes: receivedBytes)
    }
    source.append(contentsOf: decoder.flush().utf8)
    isFinished = true
    scanDefinitions(upTo: source.count)
    if !holding {
      finishPreambleLength = preamble.count
      finishPreambleLines = preambleLines
    }
    let prefix = finishPreambleLength == 0 ? [] : Array(preamble[..<finishPreambleLength]) + [SourceLines.newline]
    let shift = committedLines - (finishPreambleLength == 0 ? 0 : finishPreambleLines + 1)
    let document = parseText(prefix + source[committedOffset...])
    newlyHeld = []
    heldBlocks = []
    newlyCommitted.append(
      MarkdownStreamBlock(
        id: nextBlockID, document: Self.shifted(document, lines: shift),
        sourceRange: committedOffset..<source.count,
        isReferenceSensitive: Self.isReferenceSensitive(document.nodes[...])))
    nextBlockID += 1
    committedOffset = source.count
    parsedOffset = source.count
    var replacement: MarkdownDocument?
    if let sensitive = firstSensitiveOffset, lastDefinitionOffset > sensitive {
      replacement = parseText(source)
    }
    mode = .general
    settledRevision += 1
    let committed = newlyCommitted
    newlyCommitted = []
    return MarkdownStreamUpdate(
      committed: committed,
      tail: MarkdownStreamTail(
        container: nil, settledRevision: settledRevision, newSettled: [],
        document: MarkdownDocument(nodes: [MarkdownNode(kind: .document, subtreeEnd: 1, depth: 0)], options: options),
        pendingLinks: []),
      isFinal: true, replacement: replacement, receivedBytes: receivedBytes)
  }

  // MARK: Updates

  private mutating func update() -> MarkdownStreamUpdate {
    structuralStep()
    let tail: MarkdownStreamTail
    if showsTail {
      tail = makeTail()
    } else {
      // Parts settled meanwhile go out with the next shown tail (all of them, under a revision
      // that differs from this one's, so a consumer renders them afresh).
      newSettled = []
      sentRevision = -1
      tail = MarkdownStreamTail(
        container: nil, settledRevision: -1, newSettled: [],
        document: MarkdownStreamTail.empty.document, pendingLinks: [])
      lastTail = tail
    }
    let committed = newlyCommitted
    newlyCommitted = []
    let held = heldChanged ? heldBlocks : newlyHeld
    let replacesHeld = heldChanged
    newlyHeld = []
    heldChanged = false
    return MarkdownStreamUpdate(
      committed: committed, held: held, replacesHeld: replacesHeld, tail: tail, isFinal: false, replacement: nil,
      receivedBytes: receivedBytes)
  }

  /// The update for a chunk that added no character: the same tail, nothing new settled.
  private func unchanged() -> MarkdownStreamUpdate {
    var tail = lastTail
    tail.newSettled = []
    return MarkdownStreamUpdate(
      committed: [], tail: tail, isFinal: false, replacement: nil, receivedBytes: receivedBytes)
  }

  private mutating func makeTail() -> MarkdownStreamTail {
    let healer = StreamHealer(options: options)
    let healed: StreamHealer.Healed
    var container: MarkdownStreamTail.Container?
    switch mode {
    case .general:
      let prefix = healPrefix
      healed = healer.heal(prefix + source[parsedOffset...], protectedLength: prefix.count, context: .blocks)
    case .fence(let opener, let fence, let length, let head):
      if fastPaths,
        let document = OpenFenceCode.openDocument(
          source[settledEnd...], head: head, fence: fence, indent: OpenFenceCode.indent(ofOpener: opener))
      {
        // No line here can close the fence: the open line is code, no parse needed.
        healed = StreamHealer.Healed(document: document, pendingLinks: [])
      } else {
        healed = healer.heal(
          opener + source[settledEnd...], protectedLength: opener.count,
          context: .fencedCode(fence: fence, length: length))
      }
      container = .codeBlock(head)
    case .table(let header, let head):
      let prefix = healPrefix + header
      healed = healer.heal(prefix + source[settledEnd...], protectedLength: prefix.count, context: .blocks)
      container = .table(head)
    case .list(let info):
      let prefix = healPrefix
      healed = healer.heal(prefix + source[settledEnd...], protectedLength: prefix.count, context: .blocks)
      container = .list(info)
    }
    let parts: [MarkdownStreamSettledPart]
    if sentRevision != settledRevision {
      parts = settledParts
      sentRevision = settledRevision
    } else {
      parts = newSettled
    }
    newSettled = []
    lastTail = MarkdownStreamTail(
      container: container, settledRevision: settledRevision, newSettled: parts, document: healed.document,
      pendingLinks: healed.pendingLinks)
    return lastTail
  }

  // MARK: Structure

  private mutating func structuralStep() {
    let completeEnd = SourceLines.completeEnd(source, from: parsedOffset, to: source.count)
    guard completeEnd > checkedEnd else { return }
    defer { resolveHeldBlocks() }
    checkedEnd = completeEnd
    scanDefinitions(upTo: completeEnd)
    var allowEntry = true
    for _ in 0..<4 {
      switch mode {
      case .general:
        generalStep(completeEnd, allowEntry: allowEntry)
        if case .general = mode { return }
      case .fence(let opener, let fence, let length, let head):
        if fenceStep(completeEnd, opener: opener, fence: fence, length: length, head: head) { return }
        leaveMode()
        allowEntry = false
      case .table(let header, _):
        if tableStep(completeEnd, header: header) { return }
        leaveMode()
        allowEntry = false
      case .list(let info):
        if listStep(completeEnd, info: info) { return }
        leaveMode()
        allowEntry = false
      }
    }
  }

  private mutating func leaveMode() {
    mode = .general
    settledParts = []
    newSettled = []
    settledRevision += 1
  }

  /// Re-renders the held blocks that show pending links once new definitions joined the
  /// preamble: a label defined now becomes a real link before ``finish()``. Held blocks were
  /// never committed, so they may change; committed blocks never do.
  private mutating func resolveHeldBlocks() {
    guard preamble.count != heldPreambleLength else { return }
    heldPreambleLength = preamble.count
    for index in heldBlocks.indices where !heldBlocks[index].pendingLinks.isEmpty {
      let block = heldBlocks[index]
      guard let firstLine = block.document.nodes.dropFirst().first?.range?.start.line else { continue }
      let document = parse(source[block.sourceRange])
      let blocks = Array(document.topLevelBlocks)
      guard blocks.count == 1 else { continue }
      let extracted = Self.extract(document, block: blocks[0], lineShift: firstLine - 1)
      let marked = PendingReferences.mark(Self.hidingFootnoteText(extracted))
      guard marked.document != block.document || marked.pending != block.pendingLinks else { continue }
      heldBlocks[index] = MarkdownStreamHeldBlock(
        id: block.id, document: marked.document, sourceRange: block.sourceRange, pendingLinks: marked.pending)
      heldChanged = true
    }
  }

  /// Remembers where link reference or footnote definitions (`]:`) appear.
  private mutating func scanDefinitions(upTo end: Int) {
    let start = max(definitionScanEnd - 1, 0)
    if end > start && SourceLines.contains(source, start..<end, Array("]:".utf8)) {
      lastDefinitionOffset = end
    }
    definitionScanEnd = end
  }

  private mutating func generalStep(_ completeEnd: Int, allowEntry: Bool) {
    guard completeEnd > parsedOffset else { return }
    let start = parsedOffset
    regionLines = parsedLines
    let text = Array(source[start..<completeEnd])
    let document = parse(text[...])
    let nodes = document.nodes
    let lines = SourceLines.lineStarts(text)
    let blocks = Array(document.topLevelBlocks)
    // Lines before the region (a preamble of definitions) clamp to its start, lines past it to its end.
    func lineOffset(_ line: Int) -> Int { line < 1 ? 0 : line - 1 < lines.count ? lines[line - 1] : text.count }
    guard !blocks.isEmpty else {
      // Only blank lines so far (or a definition, which must stay for what follows).
      if SourceLines.isBlank(text, 0..<text.count) {
        advance(to: completeEnd, lines: lines, base: start)
      } else if Self.endsWithBlankLine(text, at: text.count),
        !SourceLines.contains(text, 0..<text.count, Self.footnoteMarker)
      {
        // Definitions followed by a blank line are complete: held links resolve at once
        // (footnote definitions, which cmark-gfm drops when unreferenced, wait as before).
        addDefinitions(text, 0..<text.count, base: start)
      }
      return
    }
    var doneUpTo = 0
    var index = 0
    while index < blocks.count {
      let block = blocks[index]
      guard let range = nodes[block].range else { break }
      // cmark-gfm leaves the end of an HTML block that closes on its first line at 0:0.
      let endLine = max(range.end.line, range.start.line)
      let isLast = index == blocks.count - 1
      // Definitions before this block, a blank line after them, are complete even while the
      // block is not: held links resolve at once.
      if range.start.line >= 1, case let blockFirst = lineOffset(range.start.line), doneUpTo < blockFirst,
        Self.endsWithBlankLine(text, at: blockFirst),
        !SourceLines.contains(text, doneUpTo..<blockFirst, Self.footnoteMarker)
      {
        addDefinitions(text, doneUpTo..<blockFirst, base: start)
      }
      var nextStart: Int
      if isLast {
        nextStart = text.count
      } else if let nextRange = nodes[blocks[index + 1]].range, nextRange.start.line > endLine {
        nextStart = lineOffset(nextRange.start.line)
      } else {
        // cmark-gfm starts a table at the paragraph it grew from: wait until the next block.
        break
      }
      guard nextStart > doneUpTo else { break }
      if isLast && !isClosedAtEnd(document, block: block, text: text, lines: lines) { break }
      let blockStart = lineOffset(range.start.line)
      let blockEnd = min(nextStart, lineOffset(endLine + 1))
      // A definition after the last block may still grow (a title on the next line): it stays.
      if isLast && !SourceLines.isBlank(text, blockEnd..<nextStart) { nextStart = blockEnd }
      // A byte order mark starting the next block would be dropped by a fresh parse.
      if nextStart + 2 < text.count && text[nextStart] == 0xEF && text[nextStart + 1] == 0xBB
        && text[nextStart + 2] == 0xBF
      {
        break
      }
      let subtree = block..<nodes[block].subtreeEnd
      let mustHold = holding || needsHold(document, block: block, text: text, lines: blockStart..<blockEnd)
      if mustHold && !holding {
        if doneUpTo > 0 { advance(to: start + doneUpTo, lines: lines, base: start) }
        holding = true
        finishPreambleLength = preamble.count
        finishPreambleLines = preambleLines
      }
      // Link reference definitions between blocks resolve labels in everything parsed later.
      if doneUpTo < blockStart { addDefinitions(text, doneUpTo..<blockStart, base: start) }
      if blockEnd < nextStart { addDefinitions(text, blockEnd..<nextStart, base: start) }
      let extracted = Self.extract(document, block: block, lineShift: regionLines)
      let sourceRange = (start + doneUpTo)..<(start + nextStart)
      if mustHold {
        let marked = PendingReferences.mark(Self.hidingFootnoteText(extracted))
        let held = MarkdownStreamHeldBlock(
          id: nextBlockID, document: marked.document, sourceRange: sourceRange, pendingLinks: marked.pending)
        newlyHeld.append(held)
        heldBlocks.append(held)
      } else {
        let sensitive = Self.isReferenceSensitive(nodes[subtree])
        if sensitive && firstSensitiveOffset == nil { firstSensitiveOffset = sourceRange.lowerBound }
        newlyCommitted.append(
          MarkdownStreamBlock(
            id: nextBlockID, document: extracted, sourceRange: sourceRange, isReferenceSensitive: sensitive))
      }
      nextBlockID += 1
      doneUpTo = nextStart
      index += 1
    }
    if doneUpTo > 0 { advance(to: start + doneUpTo, lines: lines, base: start) }
    guard allowEntry, index == blocks.count - 1 else { return }
    enterMode(document, block: blocks[index], text: text, lines: lines, base: start, completeEnd: completeEnd)
  }

  /// Whether a closed block must be held: a later definition could still change how it shows.
  private func needsHold(_ document: MarkdownDocument, block: Int, text: [UInt8], lines: Range<Int>) -> Bool {
    let nodes = document.nodes
    switch nodes[block].kind {
    case .footnoteDefinition:
      return true
    case .codeBlock, .htmlBlock, .thematicBreak:
      return false
    default:
      break
    }
    // Definitions inside the block (in a container, or leading a paragraph) resolve labels that
    // only the final parse sees; footnote references are numbered by the whole reply.
    if SourceLines.contains(text, lines, Self.definitionMarker)
      || SourceLines.contains(text, lines, Self.footnoteMarker)
    {
      return true
    }
    let subtree = block..<nodes[block].subtreeEnd
    for index in subtree {
      if case .footnoteReference = nodes[index].kind { return true }
    }
    return PendingReferences.hasCandidate(document, in: subtree) || Self.mayBecomeReferenceLink(nodes[subtree])
  }

  static let definitionMarker = Array("]:".utf8)
  static let footnoteMarker = Array("[^".utf8)

  /// Whether the line that ends at `end` (a line start) is blank.
  static func endsWithBlankLine(_ text: [UInt8], at end: Int) -> Bool {
    guard end > 0 else { return false }
    return SourceLines.isBlank(text, SourceLines.lineStart(text, before: end - 1)..<end)
  }

  /// Appends the definitions in `text[range]` (the region's text, starting at `base` in the
  /// reply) to the preamble, except what an earlier call already added.
  private mutating func addDefinitions(_ text: [UInt8], _ range: Range<Int>, base: Int) {
    let lower = max(range.lowerBound, definitionsEnd - base)
    guard lower < range.upperBound, !SourceLines.isBlank(text, lower..<range.upperBound) else { return }
    definitionsEnd = base + range.upperBound
    addDefinitions(text[lower..<range.upperBound])
  }

  /// Appends definition lines to the preamble that every later parse starts with, a blank line
  /// after the ones before.
  private mutating func addDefinitions(_ lines: ArraySlice<UInt8>) {
    var text = Array(lines)
    // Only text that starts like a definition (cmark-gfm's ranges of raw HTML blocks can stop
    // short of the block's last lines, which are no definitions).
    let body = text.drop { $0 == 0x20 || $0 == SourceLines.newline || $0 == SourceLines.carriageReturn }
    guard body.first == UInt8(ascii: "["), SourceLines.contains(text, 0..<text.count, Self.definitionMarker) else {
      return
    }
    while let last = text.last, last == SourceLines.newline || last == SourceLines.carriageReturn || last == 0x20 {
      text.removeLast()
    }
    guard !text.isEmpty else { return }
    text.append(SourceLines.newline)
    // A blank line between pieces: joined directly, a definition would continue the paragraph of
    // a footnote definition before it (lazily) and stop being a definition.
    if !preamble.isEmpty {
      preamble.append(SourceLines.newline)
      preambleLines += 1
    }
    preamble += text
    preambleLines += SourceLines.lineStarts(text).count - 1
  }

  /// Parses `region` after the known definitions, numbering lines from the region's first.
  private mutating func parse(_ region: ArraySlice<UInt8>) -> MarkdownDocument {
    guard !preamble.isEmpty else { return parseText(region) }
    let document = parseText(preamble + [SourceLines.newline] + region)
    return Self.shifted(document, lines: -(preambleLines + 1))
  }

  /// Parses a piece of the reply, noting whether the input guard changed it.
  private mutating func parseText<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> MarkdownDocument {
    let document = MarkdownDocument(String(decoding: bytes, as: UTF8.self), options: options)
    if !document.diagnostics.isEmpty { guardChangedInput = true }
    return document
  }

  /// The known definitions as a protected prefix for the healer (empty, or ending in a blank line).
  private var healPrefix: [UInt8] { preamble.isEmpty ? [] : preamble + [SourceLines.newline] }

  /// Footnote references whose definition has not arrived show nothing yet.
  static func hidingFootnoteText(_ document: MarkdownDocument) -> MarkdownDocument {
    guard document.options.contains(.footnotes) else { return document }
    var nodes = document.nodes
    var changed = false
    for index in nodes.indices {
      if case .text(let string) = nodes[index].kind, StreamHealer.containsFootnoteOpener(string) {
        nodes[index].kind = .text(StreamHealer.hidingFootnoteReferences(string))
        changed = true
      }
    }
    return changed ? MarkdownDocument(nodes: nodes, options: document.options) : document
  }

  private mutating func advance(to offset: Int, lines: [Int], base: Int) {
    let relative = offset - base
    var passed = 0
    for line in lines where line < relative { passed += 1 }
    parsedLines = regionLines + passed
    parsedOffset = offset
    if !holding {
      committedLines = parsedLines
      committedOffset = parsedOffset
    }
  }

  /// Whether the last block of the complete lines can no longer change.
  private func isClosedAtEnd(_ document: MarkdownDocument, block: Int, text: [UInt8], lines: [Int]) -> Bool {
    guard let range = document.nodes[block].range else { return false }
    let after = Self.lineStart(range.end.line + 1, lines: lines, count: text.count)
    let blankFollows = after < text.count && SourceLines.isBlank(text, after..<text.count)
    switch document.nodes[block].kind {
    case .heading, .thematicBreak:
      return true
    case .paragraph, .table, .blockQuote:
      return blankFollows
    case .codeBlock(let info) where info.isFenced:
      guard range.end.line > range.start.line else { return false }
      let lastLine = text[min(Self.lineStart(range.end.line, lines: lines, count: text.count), after)..<after]
      let opener = text[Self.lineStart(range.start.line, lines: lines, count: text.count)...].drop { $0 == 0x20 }
      guard let fence = opener.first else { return false }
      let length = opener.prefix { $0 == fence }.count
      return Self.isClosingFence(lastLine, fence: fence, length: length)
    default:
      return false
    }
  }

  static func isReferenceSensitive(_ nodes: ArraySlice<MarkdownNode>) -> Bool {
    for node in nodes {
      if case .text(let string) = node.kind,
        string.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
      {
        return true
      }
    }
    return false
  }

  /// Whether a text node holds a bracketed span (`[x]`) that a later definition could link.
  static func mayBecomeReferenceLink(_ nodes: ArraySlice<MarkdownNode>) -> Bool {
    for node in nodes {
      guard case .text(let string) = node.kind else { continue }
      var open = false
      for byte in string.utf8 {
        if byte == UInt8(ascii: "[") { open = true }
        if byte == UInt8(ascii: "]") && open { return true }
      }
    }
    return false
  }

  /// The offset where 1-based `line` starts: lines before the text clamp to 0, lines past it to `count`.
  static func lineStart(_ line: Int, lines: [Int], count: Int) -> Int {
    line < 1 ? 0 : line - 1 < lines.count ? lines[line - 1] : count
  }

  static func isClosingFence(_ line: ArraySlice<UInt8>, fence: UInt8, length: Int) -> Bool {
    let body = line.drop { $0 == 0x20 }
    guard line.count - body.count <= 3 else { return false }
    let run = body.prefix { $0 == fence }.count
    guard run >= length else { return false }
    return body.dropFirst(run).allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }

  // MARK: Long blocks

  private mutating func enterMode(
    _ document: MarkdownDocument, block: Int, text: [UInt8], lines: [Int], base: Int, completeEnd: Int
  ) {
    guard let range = document.nodes[block].range, range.start.line >= 1, range.start.line - 1 < lines.count
    else { return }
    let blockStart = lines[range.start.line - 1]
    guard base + blockStart == parsedOffset else { return }
    switch document.nodes[block].kind {
    case .codeBlock(let info) where info.isFenced:
      guard range.start.line < lines.count else { return }
      let opener = Array(text[blockStart..<lines[range.start.line]])
      let body = opener.drop { $0 == 0x20 }
      guard let fence = body.first else { return }
      let head = parseText(opener)
      mode = .fence(opener: opener, fence: fence, length: body.prefix { $0 == fence }.count, head: head)
      settledEnd = base + lines[range.start.line]
      beginSettling()
      _ = fenceStep(completeEnd, opener: opener, fence: fence, length: body.prefix { $0 == fence }.count, head: head)
    case .table:
      guard range.start.line + 1 < lines.count else { return }
      let header = Array(text[blockStart..<lines[range.start.line + 1]])
      let head = parseText(header)
      guard head.topLevelBlocks.map({ head.nodes[$0].kind }).count == 1,
        let first = head.topLevelBlocks.first(where: { _ in true }), case .table = head.nodes[first].kind
      else { return }
      mode = .table(header: header, head: head)
      settledEnd = base + lines[range.start.line + 1]
      beginSettling()
      if !tableStep(completeEnd, header: header) { leaveMode() }
    case .list(let info):
      mode = .list(info: info)
      settledEnd = parsedOffset
      beginSettling()
      if !listStep(completeEnd, info: info) { leaveMode() }
    default:
      break
    }
  }

  private mutating func beginSettling() {
    settledParts = []
    newSettled = []
    settledRevision += 1
  }

  private mutating func settle(_ part: MarkdownStreamSettledPart) {
    settledParts.append(part)
    newSettled.append(part)
  }

  private mutating func fenceStep(
    _ completeEnd: Int, opener: [UInt8], fence: UInt8, length: Int, head: MarkdownDocument
  ) -> Bool {
    guard completeEnd > settledEnd else { return true }
    var lineStart = settledEnd
    var index = settledEnd
    while index < completeEnd {
      let byte = source[index]
      if byte == SourceLines.newline || byte == SourceLines.carriageReturn {
        if byte == SourceLines.carriageReturn && index + 1 < completeEnd && source[index + 1] == SourceLines.newline {
          index += 1
        }
        if Self.isClosingFence(source[lineStart..<(index + 1)], fence: fence, length: length) { return false }
        lineStart = index + 1
      }
      index += 1
    }
    // No line can close the fence: the lines are code, settled without a parse when the code is
    // certain.
    if fastPaths,
      let code = OpenFenceCode.code(
        source[settledEnd..<completeEnd], indent: OpenFenceCode.indent(ofOpener: opener)),
      let document = OpenFenceCode.document(head: head, code: code)
    {
      settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: 1, parent: 0))
      nextPartID += 1
      settledEnd = completeEnd
      return true
    }
    let document = parseText(opener + source[settledEnd..<completeEnd])
    guard let block = document.topLevelBlocks.first(where: { _ in true }), case .codeBlock = document.nodes[block].kind
    else {
      return false
    }
    settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: block, parent: 0))
    nextPartID += 1
    settledEnd = completeEnd
    return true
  }

  private mutating func tableStep(_ completeEnd: Int, header: [UInt8]) -> Bool {
    guard completeEnd > settledEnd else { return true }
    let rows = source[settledEnd..<completeEnd]
    let rowLines = SourceLines.lineStarts(source, from: settledEnd, to: completeEnd)
    let lineCount = rowLines.count - 1
    for line in 0..<lineCount
    where SourceLines.isBlank(source, (settledEnd + rowLines[line])..<(settledEnd + rowLines[line + 1])) {
      return false
    }
    let marked = PendingReferences.mark(Self.hidingFootnoteText(parse((header + rows)[...])))
    let document = marked.document
    let blocks = Array(document.topLevelBlocks)
    guard blocks.count == 1, case .table = document.nodes[blocks[0]].kind,
      Array(document.children(of: blocks[0])).count == lineCount + 1
    else { return false }
    settle(
      MarkdownStreamSettledPart(
        id: nextPartID, document: document, node: blocks[0], parent: 0, pendingLinks: marked.pending))
    nextPartID += 1
    settledEnd = completeEnd
    return true
  }

  private mutating func listStep(_ completeEnd: Int, info: MarkdownNode.ListInfo) -> Bool {
    guard completeEnd > settledEnd else { return true }
    let region = Array(source[settledEnd..<completeEnd])
    let marked = PendingReferences.mark(Self.hidingFootnoteText(parse(region[...])))
    let document = marked.document
    let blocks = Array(document.topLevelBlocks)
    guard blocks.count == 1, case .list(let found) = document.nodes[blocks[0]].kind,
      found.type == info.type, found.delimiter == info.delimiter
    else { return false }
    if !found.isTight && info.isTight {
      var loose = info
      loose.isTight = false
      mode = .list(info: loose)
      settledRevision += 1
    }
    let items = Array(document.children(of: blocks[0]))
    guard items.count >= 2, let lastRange = document.nodes[items[items.count - 1]].range else { return true }
    let lines = SourceLines.lineStarts(region)
    guard lastRange.start.line >= 1, lastRange.start.line - 1 < lines.count else { return false }
    for item in items.dropLast() {
      let pending = marked.pending.filter { $0 >= item && $0 < document.nodes[item].subtreeEnd }
      settle(
        MarkdownStreamSettledPart(
          id: nextPartID, document: document, node: item, parent: blocks[0], pendingLinks: pending))
      nextPartID += 1
    }
    settledEnd += lines[lastRange.start.line - 1]
    return true
  }

  // MARK: Documents

  /// A standalone document of one top-level block, its lines shifted to the whole reply's.
  static func extract(_ document: MarkdownDocument, block: Int, lineShift: Int) -> MarkdownDocument {
    let end = document.nodes[block].subtreeEnd
    var nodes: [MarkdownNode] = [MarkdownNode(kind: .document, subtreeEnd: end - block + 1, depth: 0)]
    nodes.reserveCapacity(end - block + 1)
    for index in block..<end {
      var node = document.nodes[index]
      node.subtreeEnd = node.subtreeEnd - block + 1
      if var range = node.range {
        range.start.line += lineShift
        range.end.line += lineShift
        node.range = range
      }
      nodes.append(node)
    }
    return MarkdownDocument(nodes: nodes, options: document.options)
  }

  static func shifted(_ document: MarkdownDocument, lines: Int) -> MarkdownDocument {
    guard lines != 0 else { return document }
    var nodes = document.nodes
    for index in nodes.indices {
      if var range = nodes[index].range {
        range.start.line += lines
        range.end.line += lines
        nodes[index].range = range
      }
    }
    return MarkdownDocument(nodes: nodes, options: document.options)
  }
}
