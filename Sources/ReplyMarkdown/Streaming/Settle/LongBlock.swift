/// The open long block of a stream — a fenced code block, a table or a list that started the open
/// part — and the parts of it that are finished.
///
/// Finished lines of code, rows and items settle: they are rendered once and kept, so an update
/// costs the open line, row or item, not the whole block.
struct LongBlock: Sendable {
  enum Kind: Sendable {
    /// A fenced code block: its opening line, fence character and length, and that line parsed.
    case fence(opener: [UInt8], fence: UInt8, length: Int, head: MarkdownDocument)
    /// A table: what its rows are parsed after (``rowsHeader(_:alignments:)``), and its header and
    /// delimiter rows parsed.
    case table(header: [UInt8], head: MarkdownDocument)
    /// A list: its payload (tight until an item says otherwise).
    case list(info: MarkdownNode.ListInfo)
  }

  var kind: Kind
  /// Whether the block is a fenced code block.
  var isFence: Bool {
    if case .fence = kind { return true }
    return false
  }
  /// The costliest head (a table's header and delimiter rows, by ``RefreshSchedule/parseCost(_:)``)
  /// a settled table may have: every update parses the head again before the open row, so a
  /// costlier one (a 5 KB header row, or a 2 KB one of `a@a@…` that cmark-gfm's autolinker reads a
  /// thousand times) would cost that much per update. Such a table stays the open block, parsed
  /// whole under the refresh schedule (``RefreshSchedule``), which keeps it linear. (A fence's
  /// open lines need no parse of its opening line.)
  static let maximumHeadBytes = RefreshSchedule.threshold
  /// Where the unsettled remainder starts.
  var settledEnd: Int
  /// A long table's rows header (``Kind/table(header:head:)``) parsed on its own, once, for the
  /// rows made without a parse of the header and the row (``KnownTableRow``).
  var rowsHead: MarkdownDocument?
  /// The settled parts, in order.
  var parts = SettledParts()
  /// How far the lines of a long list's open item, which starts at `start`, were read for a
  /// possible delimiter row, and whether one was found (``MarkdownStream/openItemMayHoldTable(to:)``).
  var itemTableScan = (start: -1, end: -1, found: false)
  /// The complete end at which the line being received was found to open a long list's next item
  /// (`MarkdownStream.nextItemOpened(completeEnd:)`): the item before it settles then, once.
  var nextItemCheckedAt = -1

  /// What a long table's rows are parsed after, `header` being its header and delimiter rows with
  /// `alignments`: a stand-in of as many columns with the same alignments (`|a|a|`, `|:-|-:|`)
  /// when the header row holds plain words only (``holdsPlainWordsOnly(_:)``), else `header`
  /// itself. cmark-gfm's table extension reads a body row by the number of columns alone (cells
  /// past it are dropped, missing ones added), and the stand-in's delimiter row gives the table the
  /// same alignments, so the rows parse alike, at a smaller cost per update: the header is parsed
  /// again before the open row on every update.
  static func rowsHeader(_ header: [UInt8], alignments: [MarkdownNode.TableAlignment]) -> [UInt8] {
    guard !alignments.isEmpty,
      let lineEnd = header.firstIndex(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn }),
      holdsPlainWordsOnly(header[..<lineEnd])
    else { return header }
    var standIn: [UInt8] = Array(String(repeating: "|a", count: alignments.count).utf8) + [ASCII.pipe, ASCII.newline]
    for alignment in alignments {
      standIn.append(ASCII.pipe)
      switch alignment {
      case .none: standIn.append(ASCII.hyphen)
      case .left: standIn += [ASCII.colon, ASCII.hyphen]
      case .center: standIn += [ASCII.colon, ASCII.hyphen, ASCII.colon]
      case .right: standIn += [ASCII.hyphen, ASCII.colon]
      }
    }
    standIn += [ASCII.pipe, ASCII.newline]
    return standIn.count < header.count ? standIn : header
  }

  /// Whether a header row is words that nothing in a body row depends on: plain bytes
  /// (``PlainTextExtension/isPlain(_:)``), pipes and `#`, `=`, `;`, `$`, `^`, and no `www.`. A
  /// footnote it cites would number those of the rows; brackets, delimiter runs, tags and autolink
  /// candidates count toward the input guard's limits for the whole parse.
  static func holdsPlainWordsOnly(_ row: ArraySlice<UInt8>) -> Bool {
    let inert: Set<UInt8> = [
      ASCII.pipe, UInt8(ascii: "#"), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "^"),
    ]
    guard row.allSatisfy({ PlainTextExtension.isPlain($0) || inert.contains($0) }) else { return false }
    let lower = row.map(ASCII.lower)
    let www = Array("www.".utf8)
    return lower.count < www.count
      || !(0...(lower.count - www.count)).contains { lower[$0..<($0 + www.count)].elementsEqual(www) }
  }
}

extension MarkdownStream {
  /// Starts settling the open block when it is a long block at the start of the open part.
  mutating func enterLongBlock(
    _ document: MarkdownDocument, block: Int, text: [UInt8], lines: [Int], completeEnd: Int
  ) {
    guard let range = document.nodes[block].range, range.start.line == 1 else { return }
    let base = closedEnd
    switch document.nodes[block].kind {
    case .codeBlock(let info) where info.isFenced:
      guard lines.count > 1 else { return }
      let opener = Array(text[..<lines[1]])
      guard let fence = FenceLine(opener[...]) else { return }
      let head = parseText(opener)
      begin(
        LongBlock(
          kind: .fence(opener: opener, fence: fence.character, length: fence.length, head: head),
          settledEnd: base + lines[1]))
      if !settleLongBlock(completeEnd) { leaveLongBlock() }
    case .table:
      guard lines.count > 2 else { return }
      let header = Array(text[..<lines[2]])
      guard RefreshSchedule.parseCost(header[...]) <= LongBlock.maximumHeadBytes else { return }
      let head = parseText(header)
      guard Array(head.topLevelBlocks).count == 1, let first = head.topLevelBlocks.first(where: { _ in true }),
        case .table(let alignments) = head.nodes[first].kind
      else { return }
      begin(
        LongBlock(
          kind: .table(header: fastPaths ? LongBlock.rowsHeader(header, alignments: alignments) : header, head: head),
          settledEnd: base + lines[2]))
      if !settleLongBlock(completeEnd) { leaveLongBlock() }
    case .list(let info):
      begin(LongBlock(kind: .list(info: info), settledEnd: base))
      if !settleLongBlock(completeEnd) { leaveLongBlock() }
    default:
      break
    }
  }

  private mutating func begin(_ block: LongBlock) {
    longBlock = block
    outbox.newSettled = []
    settledRevision += 1
  }

  mutating func leaveLongBlock() {
    longBlock = nil
    outbox.newSettled = []
    settledRevision += 1
  }

  private mutating func settle(_ part: MarkdownStreamSettledPart) {
    longBlock?.parts.append(part)
    outbox.newSettled.append(part)
    nextPartID += 1
  }

  /// Settles what the new complete lines finished; returns whether the long block is still open.
  mutating func settleLongBlock(_ completeEnd: Int) -> Bool {
    guard let block = longBlock else { return false }
    guard completeEnd > block.settledEnd else { return true }
    switch block.kind {
    case .fence(let opener, let fence, let length, let head):
      return settleFence(completeEnd, from: block.settledEnd, opener: opener, fence: fence, length: length, head: head)
    case .table(let header, _):
      return settleTable(completeEnd, from: block.settledEnd, header: header)
    case .list(let info):
      return settleList(completeEnd, from: block.settledEnd, info: info)
    }
  }

  private mutating func settleFence(
    _ completeEnd: Int, from start: Int, opener: [UInt8], fence: UInt8, length: Int, head: MarkdownDocument
  ) -> Bool {
    outbox.lookback += opener.count
    if closingFenceLine(from: start, to: completeEnd, fence: fence, length: length) != nil { return false }
    // No line can close the fence: the lines are code, settled without a parse when certain.
    if fastPaths,
      let code = OpenFenceCode.code(source[start..<completeEnd], indent: OpenFenceCode.indent(ofOpener: opener)),
      let document = OpenFenceCode.document(head: head, code: code)
    {
      settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: 1, parent: 0))
      longBlock?.settledEnd = completeEnd
      return true
    }
    let document = parseText(opener + source[start..<completeEnd])
    guard let first = document.topLevelBlocks.first(where: { _ in true }), case .codeBlock = document.nodes[first].kind
    else { return false }
    settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: first, parent: 0))
    longBlock?.settledEnd = completeEnd
    return true
  }

  /// Closes the open long fence that a complete line closed without parsing its code: the block
  /// goes to the held blocks (and commits from there) with the code of its lines as they settled
  /// (``OpenFenceCode``), and its info and positions are those of a parse of the opening line, the
  /// closing line and a line after them, which also makes sure that line closes the fence
  /// (whatever lies between, only those two lines decide). Parsing the whole fence again instead
  /// cost more than a one-shot rendering of a reply that is one long fence. Returns false, having
  /// changed nothing, when unsure: the caller parses the open part.
  ///
  /// - Complexity: O(n) in the fence's bytes, once.
  mutating func commitClosedFence(_ completeEnd: Int) -> Bool {
    guard fastPaths, let block = longBlock, case .fence(let opener, let fence, let length, _) = block.kind else {
      return false
    }
    let closer = closingFenceLine(from: block.settledEnd, to: completeEnd, fence: fence, length: length)
    // The code from the opening line on (the settled parts hold it in pieces), where a parse is
    // not needed for it.
    guard let closer,
      let code = OpenFenceCode.code(
        source[(closedEnd + opener.count)..<closer.lowerBound], indent: OpenFenceCode.indent(ofOpener: opener))
    else { return false }
    let probe = parseText(opener + source[closer] + [UInt8(ascii: "x"), ASCII.newline])
    let blocks = Array(probe.topLevelBlocks)
    guard blocks.count == 2, case .codeBlock(var info) = probe.nodes[blocks[0]].kind, info.isFenced,
      info.code.isEmpty, case .paragraph = probe.nodes[blocks[1]].kind, var range = probe.nodes[blocks[0]].range,
      range.start.line == 1, range.end.line == 2
    else { return false }
    info.code = code
    range.start.line = closedLine
    range.end.line = closedLine + received.lineBreaks(in: closedEnd..<closer.lowerBound)
    let document = MarkdownDocument(
      nodes: [
        MarkdownNode(kind: .document, subtreeEnd: 2, depth: 0),
        MarkdownNode(kind: .codeBlock(info), subtreeEnd: 2, depth: 1, range: range),
      ], options: probe.options)
    leaveLongBlock()
    hold(document, used: source[closedEnd..<closer.upperBound], sourceRange: closedEnd..<closer.upperBound)
    drain()
    return true
  }

  /// The first complete line of `source[start..<end]` (complete lines only) that closes a fence of
  /// `length` `fence` characters, with its line end; nil when none does.
  private func closingFenceLine(from start: Int, to end: Int, fence: UInt8, length: Int) -> Range<Int>? {
    var lineStart = start
    var index = start
    while index < end {
      let byte = source[index]
      if byte == ASCII.newline || byte == ASCII.carriageReturn {
        if byte == ASCII.carriageReturn && index + 1 < end && source[index + 1] == ASCII.newline { index += 1 }
        if Self.isClosingFence(source[lineStart..<(index + 1)], fence: fence, length: length) {
          return lineStart..<(index + 1)
        }
        lineStart = index + 1
      }
      index += 1
    }
    return nil
  }

  private mutating func settleTable(_ completeEnd: Int, from start: Int, header: [UInt8]) -> Bool {
    let rowLines = SourceLines.lineStarts(source, from: start, to: completeEnd)
    let lineCount = rowLines.count - 1
    for line in 0..<lineCount where SourceLines.isBlank(source, (start + rowLines[line])..<(start + rowLines[line + 1]))
    {
      return false
    }
    let document: MarkdownDocument
    if lineCount == 1, let known = settledTableRow(header: header, line: source[start..<(completeEnd - 1)]) {
      // One row, its line ended by `\n`, made as the open row is: its plain cells without a parse,
      // the others parsed on their own, not after the header.
      document = known
    } else {
      outbox.lookback += header.count
      let region = header + source[start..<completeEnd]
      document = PendingReferences.mark(Self.hidingFootnoteText(parseRegion(region[...])), source: region)
    }
    let blocks = Array(document.topLevelBlocks)
    guard blocks.count == 1, case .table = document.nodes[blocks[0]].kind,
      Array(document.children(of: blocks[0])).count == lineCount + 1
    else { return false }
    settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: blocks[0], parent: 0))
    longBlock?.settledEnd = completeEnd
    return true
  }

  private mutating func settleList(_ completeEnd: Int, from start: Int, info: MarkdownNode.ListInfo) -> Bool {
    let region = Array(source[start..<completeEnd])
    let document = PendingReferences.mark(Self.hidingFootnoteText(parseRegion(region[...])), source: region)
    let blocks = Array(document.topLevelBlocks)
    guard blocks.count == 1, case .list(let found) = document.nodes[blocks[0]].kind,
      found.type == info.type, found.delimiter == info.delimiter
    else { return false }
    if !found.isTight && info.isTight {
      var loose = info
      loose.isTight = false
      longBlock?.kind = .list(info: loose)
      settledRevision += 1
    }
    let lines = SourceLines.lineStarts(region)
    // Text after the list's last line that made no block (definitions: the parse leaves them
    // out) ended the list; without this the list would stay open, its last item growing with
    // every definition after it.
    if let listEnd = document.nodes[blocks[0]].range?.end.line, listEnd >= 1,
      !SourceLines.isBlank(region, Self.lineStart(listEnd + 1, lines: lines, count: region.count)..<region.count)
    {
      return false
    }
    let items = Array(document.children(of: blocks[0]))
    guard let last = items.last, let lastRange = document.nodes[last].range else { return true }
    guard lastRange.start.line >= 1, lastRange.start.line - 1 < lines.count else { return false }
    let lastStart = lines[lastRange.start.line - 1]
    // The last item is finished too once the line being received surely opens the next one (its
    // own lines are then all here), unless the lines of a tight list end in one cmark-gfm may
    // take for blank (``mayEndBlank(_:)``: a blank line, or an empty footnote definition `[^1]:`):
    // the next item would make the list loose, which a parse of that item alone cannot see (a
    // review: `- a`, `  [^1]:`, `- b` showed tight). Otherwise it waits for the next line's end,
    // and every heal meanwhile parses it again before the open item.
    let loose = !found.isTight || !info.isTight
    if lines.count >= 2, loose || !Self.mayEndBlank(region[lines[lines.count - 2]...]),
      Self.opensNextItem(source[completeEnd...], after: region[lastStart...], in: info)
    {
      for item in items {
        settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: item, parent: blocks[0]))
      }
      longBlock?.settledEnd = completeEnd
      return true
    }
    guard items.count >= 2 else { return true }
    for item in items.dropLast() {
      settle(MarkdownStreamSettledPart(id: nextPartID, document: document, node: item, parent: blocks[0]))
    }
    longBlock?.settledEnd = start + lastStart
    return true
  }

  /// Whether `line`, the incomplete last line, surely opens the next item of the long list whose
  /// last item's first line is `itemLine`, unindented: it starts with the same bullet, or with
  /// digits and the same delimiter, then a blank and content (not the bullet again: `- -` may
  /// still be a thematic break) whose block is settled (``PlainTextExtension/isSettled(line:)``).
  /// Nothing else starts so — no break, setext underline or table row — and at the list's own
  /// column it nests in no item: it ends the item before it.
  static func opensNextItem(
    _ line: ArraySlice<UInt8>, after itemLine: ArraySlice<UInt8>, in info: MarkdownNode.ListInfo
  ) -> Bool {
    guard let marker = itemLine.first, let first = line.first else { return false }
    var index = line.startIndex
    switch info.type {
    case .bullet:
      guard first == marker, marker == ASCII.hyphen || marker == ASCII.star || marker == ASCII.plus else {
        return false
      }
      index += 1
    case .ordered:
      guard ASCII.isDigit(marker) else { return false }
      while index < line.endIndex, ASCII.isDigit(line[index]) { index += 1 }
      let delimiter = info.delimiter == .paren ? ASCII.closeParenthesis : ASCII.period
      guard (1...9).contains(index - line.startIndex), index < line.endIndex, line[index] == delimiter else {
        return false
      }
      index += 1
    }
    guard index < line.endIndex, line[index] == ASCII.space || line[index] == ASCII.tab,
      let content = line[index...].first(where: { !ASCII.isBlank($0) }), !(info.type == .bullet && content == marker)
    else { return false }
    // And what block its content is, is settled: a line the heal holds back (`- 2`, a nested
    // marker to be) leaves the item before it the open one, healed as such.
    return PlainTextExtension.isSettled(line: line)
  }
}

extension MarkdownStream {
  /// Whether the complete lines `source[from..<to]` all stay inside the open last item of the
  /// long list whose remainder starts at `itemStart`, so that a parse of the remainder could settle
  /// nothing new: each line is not blank and is indented by spaces at least as far as the item's
  /// content, and the line before them is not blank either (content after a blank line may make
  /// the list loose, which a parse must see), nor is any of them or the line before what cmark-gfm
  /// may take for a blank line of a block it opens (``mayEndBlank(_:)``). Such lines belong to the
  /// item whatever they hold (CommonMark continues a list item on any line indented that far), so
  /// the item, and with it everything the long list settles, stays open.
  ///
  /// - Complexity: O(`to - itemStart`).
  func linesContinueOpenItem(itemStart: Int, from: Int, to: Int) -> Bool {
    guard from > itemStart, from < to, let indent = Self.contentIndent(ofItemAt: itemStart, in: source, end: from),
      case let before = SourceLines.lineStart(source, endingAt: from, floor: itemStart)..<from,
      !Self.mayEndBlank(source[before])
    else { return false }
    var index = from
    while index < to {
      var spaces = 0
      let lineStart = index
      while index < to, source[index] == ASCII.space {
        spaces += 1
        index += 1
      }
      guard index < to, spaces >= indent, !ASCII.isBlank(source[index]), source[index] != ASCII.newline,
        source[index] != ASCII.carriageReturn
      else { return false }
      while index < to, source[index] != ASCII.newline, source[index] != ASCII.carriageReturn { index += 1 }
      guard !Self.mayEndBlank(source[lineStart..<index]) else { return false }
      if index < to, source[index] == ASCII.carriageReturn { index += 1 }
      if index < to, source[index] == ASCII.newline { index += 1 }
    }
    return true
  }

  /// Whether the open item of the long list, from its start to `end` (a line start), holds a line
  /// that may be a table's delimiter row (``mayBeDelimiterRow(_:)``). A table in a list item that a
  /// later line of the item ends (a heading, a quote, a line of only `|`) makes cmark-gfm's list
  /// loose, with no blank line: ``linesContinueOpenItem(itemStart:from:to:)`` cannot see that
  /// without a parse, so such an item takes no lines without one (`- l`, ``*||` ``, `  -|-|-`,
  /// `  |` showed the item tight for an update where a parse shows it loose).
  ///
  /// - Complexity: amortised O(new lines): each line of an item is read once.
  mutating func openItemMayHoldTable(to end: Int) -> Bool {
    guard let itemStart = longBlock?.settledEnd else { return false }
    if longBlock?.itemTableScan.start != itemStart { longBlock?.itemTableScan = (itemStart, itemStart, false) }
    guard var scan = longBlock?.itemTableScan else { return false }
    while !scan.found, scan.end < end {
      var lineEnd = scan.end
      while lineEnd < end, source[lineEnd] != ASCII.newline, source[lineEnd] != ASCII.carriageReturn { lineEnd += 1 }
      scan.found = Self.mayBeDelimiterRow(source[scan.end..<lineEnd])
      if lineEnd < end, source[lineEnd] == ASCII.carriageReturn { lineEnd += 1 }
      if lineEnd < end, source[lineEnd] == ASCII.newline { lineEnd += 1 }
      scan.end = lineEnd
    }
    longBlock?.itemTableScan = scan
    return scan.found
  }

  /// Whether `line` may be a table's delimiter row, in a quote or list item too: after its quote
  /// markers and blanks, only `-`, `:`, `|` and blanks, with a `-` and a `|` or `:` (`-|-`, `:-`;
  /// `---` is a thematic break or a heading's underline). Errs towards yes (a list marker before
  /// one is let in).
  static func mayBeDelimiterRow(_ line: ArraySlice<UInt8>) -> Bool {
    let row = TableHeaderHold.rowText(line)
    // The candidate test first: most lines fail it at their first byte.
    return TableHeaderHold.isDelimiterRowCandidate(row) && row.contains(ASCII.hyphen)
      && (row.contains(ASCII.pipe) || row.contains(ASCII.colon))
  }

  /// Whether cmark-gfm may take `line` for a blank line of the block it opens: a footnote
  /// definition with nothing after its `]:` on the line (`[^a]:`, also after a quote or list
  /// marker). Such a line ending a nested block makes the list holding it loose once anything
  /// follows in the item, as a blank line does (a nested item, `     [^a]: `, then a line of the
  /// outer item showed the list tight: fuzz seed 1358). Errs towards yes, which costs a parse:
  /// any line ending with `]:` and blanks, or holding nothing but marker characters and blanks
  /// (a blank line too).
  static func mayEndBlank(_ line: ArraySlice<UInt8>) -> Bool {
    var end = line.endIndex
    while end > line.startIndex,
      ASCII.isBlank(line[end - 1]) || line[end - 1] == ASCII.carriageReturn || line[end - 1] == ASCII.newline
    {
      end -= 1
    }
    let content = line[line.startIndex..<end]
    if content.count >= 2, content[end - 1] == ASCII.colon, content[end - 2] == ASCII.closeBracket { return true }
    return content.allSatisfy { byte in
      ASCII.isBlank(byte) || ASCII.isDigit(byte) || byte == ASCII.greaterThan || byte == ASCII.hyphen
        || byte == ASCII.plus || byte == ASCII.star || byte == ASCII.period || byte == ASCII.closeParenthesis
    }
  }

  /// The column where the content of the list item whose first line starts at `start` begins, for
  /// an item marked with spaces only (nil for a tab before its content, or no item marker): its
  /// indentation, marker and the one to four spaces after it (one when five or more follow, or the
  /// line ends after the marker).
  static func contentIndent(ofItemAt start: Int, in source: [UInt8], end: Int) -> Int? {
    var index = start
    while index < end, index - start < 4, source[index] == ASCII.space { index += 1 }
    guard index - start < 4, index < end else { return nil }
    if source[index] == ASCII.hyphen || source[index] == ASCII.plus || source[index] == ASCII.star {
      index += 1
    } else {
      let digits = index
      while index < end, index - digits < 10, ASCII.isDigit(source[index]) { index += 1 }
      guard index > digits, index - digits <= 9, index < end,
        source[index] == ASCII.period || source[index] == ASCII.closeParenthesis
      else { return nil }
      index += 1
    }
    let marker = index - start
    var spaces = 0
    while index < end, source[index] == ASCII.space {
      spaces += 1
      index += 1
    }
    guard index < end else { return nil }
    if source[index] == ASCII.newline || source[index] == ASCII.carriageReturn { return marker + 1 }
    guard !ASCII.isBlank(source[index]), spaces >= 1 else { return nil }
    return spaces >= 5 ? marker + 1 : marker + spaces
  }
}
