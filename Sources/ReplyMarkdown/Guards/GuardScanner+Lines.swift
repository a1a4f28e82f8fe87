extension GuardScanner {
  /// Handles one line: fenced code, container markers, block starts, tables, then paragraph text.
  ///
  /// The common lines are handled here, the others by ``processBlockLine(start:end:)``.
  @inline(__always) mutating func processLine(start: Int, end: Int) {
    if let fence = openFence {
      if continuesFence(fence, start: start, end: end) { return }
      openFence = nil
    } else if start == end {
      // An empty line: blank, as processBlockLine(start:end:) would find. (It ends every quote.)
      possiblyOpenFence = nil
      endSegment()
      table = nil
      if case .untilBlankLine = htmlRegion { htmlRegion = nil }
      if !continuesHTMLContainer(start: start, end: end, quoteDepth: 0) { htmlRegion = nil }
      previousQuoteDepth = 0
      afterBlankLine = true
      return
    }
    // Most lines of a paragraph start with a letter: a byte that begins no container marker,
    // block, or table row, so the line is paragraph text as it stands.
    if table == nil, start < end, Self.beginsPlainText(bytes[start]), !awaitsHTMLEndMarker {
      // (At the margin, outside every container: the end of a raw HTML block in one.)
      if htmlRegion != nil, !continuesHTMLContainer(start: start, end: end, quoteDepth: 0) {
        htmlRegion = nil
        if itemColumns != nil { itemColumns = [] }
      }
      previousQuoteDepth = 0
      possiblyOpenFence = nil
      if afterBlankLine {
        containerMayBeOpen = false
        itemColumns = []
        quotedItemMayBeOpen = false
      }
      afterBlankLine = false
      appendToSegment(start: start, end: end)
      return
    }
    processBlockLine(start: start, end: end)
  }

  /// Handles a line outside fenced code that may hold container markers or start a block.
  mutating func processBlockLine(start: Int, end: Int) {
    // Markers past the nesting limit are escaped; the first of them starts the line's content.
    let prefix = LinePrefix(
      bytes, start: start, end: end, footnotes: footnotes, limit: limits.maxNestingDepth,
      containerMayBeOpen: containerMayBeOpen)
    if let excess = prefix.excess { escape(at: excess.escapeOffset, for: .nestingDepth, line: lineNumber) }
    let content = prefix.firstNonSpace
    let quoteDepth = prefix.quoteDepth
    defer { previousQuoteDepth = quoteDepth }
    if let fence = possiblyOpenFence, quoteDepth < fence.quoteDepth { possiblyOpenFence = nil }

    // A line outside the containers of a raw HTML block ends it, whatever its end condition
    // (`- <div>`, then a fence at the margin: the fence opens, and the guard that believed the
    // block took its closing line for an opener and every line after it for code; a helper's
    // review). Inside, `>` markers past the block's are its text, not a blank line: a `>` line
    // neither ends a block that a blank line ends nor hides the `>` that ends a declaration.
    var quotesAreText = false
    if htmlRegion != nil {
      if continuesHTMLContainer(start: start, end: end, quoteDepth: prefix.quoteDepth) {
        if case .item(_, let quotes) = htmlContainer { quotesAreText = prefix.quoteDepth > quotes }
      } else {
        // No lazy line either: the items it left are closed.
        htmlRegion = nil
        _ = itemColumn(reachedBy: prefix)
      }
    }

    // Blank: whitespace only, or only `>` markers (a blank line inside a block quote).
    let onlyQuotes = prefix.quoteDepth == prefix.count
    if content >= end && onlyQuotes && !quotesAreText {
      // A line of `>` markers alone is blank inside its quotes, and still a quote's start: it
      // closes the items whose content column its first marker does not reach (`- x`, then `>` at
      // the margin: the item is closed, and a fence indented to the item's column after it is
      // outside every container, as cmark-gfm reads it; the guard took it for the item's, closed
      // by the next line at the margin, and that line for an opener).
      if prefix.count > 0 { noteItemColumns(prefix, start: start, end: end) }
      endSegment()
      table = nil
      if case .untilBlankLine = htmlRegion { htmlRegion = nil }
      afterBlankLine = true
      return
    }
    let hasContent = content < end
    if prefix.count > prefix.quoteDepth {
      containerMayBeOpen = true
    } else if afterBlankLine && !ASCII.isBlank(bytes[start]) && prefix.quoteDepth == 0 {
      containerMayBeOpen = false
      itemColumns = []
      quotedItemMayBeOpen = false
    }
    afterBlankLine = false
    if prefix.count > 0 { noteItemColumns(prefix, start: start, end: end) }

    // A line that starts another block ends a table, as in cmark-gfm (`| a |`, `|-|`, then `# h`:
    // a heading, and a paragraph after it is no row): a heading, a thematic break, a fence, a
    // deeper quote, a list item. Counted as rows, the lines after it hid a long paragraph before
    // the next table's header from ``InputLimits/maxTableHeaderScan`` (a review: a stream's
    // pieces, which start after the heading, were guarded where the whole reply was not).
    if table != nil, endsTable(prefix, content: content, end: end) {
      // The table is a block that ended: the line after it continues no paragraph.
      table = nil
      endSegment()
    }
    if let current = table {
      // Every other non-blank line continues a table: counting a line too many is safe, one too
      // few is not.
      tableRow(current, start: start, contentStart: prefix.contentStart, end: end)
      if table != nil {
        // A table cmark-gfm surely sees parses each row's cells on their own.
        if current.isCertain { endSegment() }
        appendToSegment(start: prefix.contentStart, end: end)
        segmentIsTable = true
        tableSpanBytes += end - prefix.contentStart + 1
        return
      }
    } else if tables, !segment.isEmpty, isDelimiterRow(from: quoteContentStart(start: start, end: end), to: end) {
      if handleDelimiterRow(start: quoteContentStart(start: start, end: end), end: end) {
        segmentIsTable = true
        return
      }
    }

    // Block starts that end the current paragraph for sure.
    let startsBlock =
      quoteDepth > previousQuoteDepth || prefix.hasFootnote
      || (hasContent && (prefix.hasBullet || prefix.hasOrderedOne))
    if hasContent && prefix.indent <= 3 {
      if htmlRegion == nil, table == nil, let fence = fenceOpener(at: content, end: end) {
        endSegment()
        if let ghost = possiblyOpenFence, closesFence(ghost, at: content, end: end) {
          // The closing line of the fence cmark-gfm may still hold open: no opener either way.
          possiblyOpenFence = nil
          return
        }
        // The columns a line needs to stay in the fence's container: none outside containers.
        var indent = containerMayBeOpen ? itemColumn(reachedBy: prefix) ?? prefix.indent : 0
        if prefix.count > 0 || prefix.contentStart != start { indent = columns(from: start, to: content) }
        var opened = OpenFence(character: fence.character, length: fence.length, quoteDepth: quoteDepth, indent: indent)
        var first = start
        while first < end && ASCII.isBlank(bytes[first]) { first += 1 }
        if prefix.count == 0 {
          // No quote: the items opened in quotes are closed.
          quotedItemMayBeOpen = false
          opened.knowsContainers = itemColumns != nil || !containerMayBeOpen
        } else if prefix.count == quoteDepth, itemColumns != nil || !containerMayBeOpen, !quotedItemMayBeOpen {
          // In quotes only, which may sit in a list item.
          opened.lead = containerMayBeOpen ? itemColumn(reachedBy: columns(from: start, to: first)) ?? 0 : 0
          opened.knowsContainers = true
        } else if prefix.count == quoteDepth ? quotedItemMayBeOpen : bytes[first] == UInt8(ascii: ">") {
          // In quotes that may hold an item the fence is in, or in items this line opens inside its
          // quotes: it ends with that item.
          opened.quotedIndent = quotedIndent(start: start, content: content, end: end, quotes: quoteDepth)
        } else if prefix.count == quoteDepth + 1, bytes[first] != UInt8(ascii: ">") {
          // In quotes inside the list item or footnote definition this line opens: a line left of
          // its content leaves it, whatever items hold it (known or not: `1. 1) x`, then `- > ~~~~`
          // and `> |h|` at the margin, a table cmark-gfm forms, was read as the fence's code; a
          // generated prefix).
          opened.lead = prefix.hasFootnote ? itemColumns?.last ?? 4 : itemContentColumn(lineStart: start, end: end)
          opened.knowsContainers = true
        }
        openFence = opened
        return
      }
      if isThematicBreak(from: content, to: end) {
        endSegment()
        _ = itemColumn(reachedBy: prefix)
        return
      }
      if isATXHeading(at: content, end: end) {
        endSegment()
        _ = itemColumn(reachedBy: prefix)
        appendToSegment(start: content, end: end)
        endSegment()
        return
      }
      if bytes[content] == UInt8(ascii: "<") {
        let continues = continuesTopLevelParagraph(prefix, quoteDepth: quoteDepth, startsBlock: startsBlock)
        noteHTMLStart(at: content, end: end, continuesParagraph: continues, prefix: prefix, lineStart: start)
      }
    }
    if case .untilMarker(let blockEnd) = htmlRegion,
      contains(blockEnd, from: quotesAreText ? htmlTextStart(start: start, end: end) : content, to: end)
    {
      htmlRegion = nil
    }
    if startsBlock { endSegment() }
    appendToSegment(start: prefix.contentStart, end: end)
  }

  /// Whether a line (its container markers `prefix`, its content from `content`) starts a block
  /// that cmark-gfm does not take as a table's row: a list item or footnote definition (empty
  /// too, and an ordered one from any number: a table is no paragraph to interrupt), a deeper
  /// quote, or, indented at most three columns, an ATX heading, a thematic break, a fence or a
  /// raw HTML block; and indented code after a table outside every container. (Counted as a
  /// row, `<a>` hid the fence under it, whose closing line the guard then took for an opener: a
  /// helper's review.) Where unsure the line is a row: one too many is safe, one too few is not.
  func endsTable(_ prefix: LinePrefix, content: Int, end: Int) -> Bool {
    if prefix.count > prefix.quoteDepth { return true }
    guard content < end else { return false }
    if prefix.quoteDepth > previousQuoteDepth { return true }
    guard prefix.indent <= 3 else { return prefix.count == 0 && previousQuoteDepth == 0 && !containerMayBeOpen }
    return isATXHeading(at: content, end: end) || isThematicBreak(from: content, to: end)
      || fenceOpener(at: content, end: end) != nil
      || (bytes[content] == UInt8(ascii: "<") && htmlBlockStart(content, end: end, continuesParagraph: false) != nil)
  }

  /// Whether a line that starts with `byte` (at its very start) is plain paragraph text for
  /// ``processLine(start:end:)``: `byte` is not whitespace, and begins no container marker
  /// (``LinePrefix``), fence, thematic break, heading, HTML block, or table delimiter row.
  @inline(__always) static func beginsPlainText(_ byte: UInt8) -> Bool {
    switch byte {
    // space tab > - * + digits [ | : ` ~ _ # <, and vertical tab and form feed (blanks of a
    // table's delimiter row to cmark-gfm)
    case 0x20, 0x09, 0x3E, 0x2D, 0x2A, 0x2B, 0x30...0x39, 0x5B, 0x7C, 0x3A, 0x60, 0x7E, 0x5F, 0x23, 0x3C, 0x0B, 0x0C:
      return false
    default: return true
    }
  }

  /// Inside an HTML block that ends at a marker, which every line is checked for.
  var awaitsHTMLEndMarker: Bool {
    if case .untilMarker = htmlRegion { return true }
    return false
  }

  @inline(__always) mutating func appendToSegment(start: Int, end: Int) {
    if segment.isEmpty, let lead = paragraphLead, lead.line == lineNumber { segmentBytes = lead.bytes }
    segment.append(SegmentLine(start: start, end: end, line: lineNumber))
    segmentBytes += end - start + 1
  }

  /// Where the line's content starts once only block quote markers are taken off (table rows may
  /// start with `-`, which would otherwise read as a list marker).
  @inline(__always) func quoteContentStart(start: Int, end: Int) -> Int {
    var position = start
    while true {
      // (Four spaces before a first marker too: in a list item its indentation comes first, and
      // a delimiter row read as one too many is safe, one too few is not.)
      let step = quoteMarker(from: position, end: end, first: false)
      guard step.found else { return step.next }
      position = step.next
    }
  }

  /// One block quote marker at `position`: up to three spaces or tabs (four after another marker,
  /// whose optional space comes first), then `>`. When found, `next` is just past the `>`;
  /// otherwise it is where the whitespace ended.
  @inline(__always) func quoteMarker(from position: Int, end: Int, first: Bool) -> (found: Bool, next: Int) {
    var position = position
    var spaces = 0
    while position < end && ASCII.isBlank(bytes[position]) && spaces < (first ? 3 : 4) {
      position += 1
      spaces += 1
    }
    guard position < end, bytes[position] == UInt8(ascii: ">") else { return (false, position) }
    return (true, position + 1)
  }

  @inline(__always) func columns(from start: Int, to end: Int) -> Int {
    var columns = 0
    for index in start..<end { columns += bytes[index] == ASCII.tab ? 4 - columns % 4 : 1 }
    return columns
  }

  // MARK: Fenced code

  @inline(__always) func fenceOpener(at position: Int, end: Int) -> (character: UInt8, length: Int)? {
    let character = bytes[position]
    guard character == UInt8(ascii: "`") || character == UInt8(ascii: "~") else { return nil }
    var runEnd = position
    while runEnd < end && bytes[runEnd] == character { runEnd += 1 }
    guard runEnd - position >= 3 else { return nil }
    if character == UInt8(ascii: "`") && bytes[runEnd..<end].contains(character) { return nil }
    return (character, runEnd - position)
  }

  /// Whether the line is still inside (or closes) the open fence; `false` hands it back to the
  /// ordinary processing: a line indented less than the list item or footnote definition the
  /// fence may sit in ends it. A fence outside containers is not ended that way: its closing
  /// fence, unindented, would then be read as an opener, and everything after it as code left
  /// unguarded (40 KB of delimiter-like lines after a fence opened one space in, holding an
  /// unindented line, took 20 s and 4.9 GB to parse).
  @inline(__always) mutating func continuesFence(_ fence: OpenFence, start: Int, end: Int) -> Bool {
    var position = start
    if fence.lead > 0 {
      // In quotes inside a list item: a line left of the item's content leaves it, the quotes and
      // the fence with it (cmark-gfm continues no item lazily around code).
      while position < end && ASCII.isBlank(bytes[position]) { position += 1 }
      if position < end && columns(from: start, to: position) < fence.lead { return false }
    }
    var quotes = 0
    while quotes < fence.quoteDepth {
      let step = quoteMarker(from: position, end: end, first: quotes == 0 && fence.knowsContainers && fence.lead == 0)
      guard step.found else { return false }
      position = step.next
      quotes += 1
    }
    var text = position
    while text < end && ASCII.isBlank(bytes[text]) { text += 1 }
    if text == end { return true }  // blank lines stay in the code
    if fence.quotedIndent > 0 {
      let space = position < text && ASCII.isBlank(bytes[position]) ? 1 : 0
      if columns(from: start, to: text) - columns(from: start, to: position) - space < fence.quotedIndent {
        possiblyOpenFence = fence
        return false
      }
    }
    if fence.indent > 0 && fence.quoteDepth == 0 && columns(from: start, to: text) < fence.indent { return false }
    // A closing fence is indented at most three columns in the fence's containers: one indented
    // more is code (`    ```` closed the guard's fence, and the next fence line opened one where
    // cmark-gfm closed it). Where the guard does not know the containers, any indentation closes.
    var closes = true
    if fence.knowsContainers {
      if fence.quoteDepth == 0 {
        closes = columns(from: start, to: text) - fence.indent <= 3
      } else {
        let space = position < text && ASCII.isBlank(bytes[position]) ? 1 : 0
        closes = columns(from: start, to: text) - columns(from: start, to: position) - space <= 3
      }
    }
    if closes && closesFence(fence, at: text, end: end) { openFence = nil }
    return true
  }

  /// Whether the text at `position` (a line's content) is a closing line for `fence`: a run of its
  /// character as long as its opener's at least (255 close a longer one, as cmark-gfm keeps an
  /// opener's length in a byte: ``FenceLine/keptLength(_:)``), then blanks only.
  func closesFence(_ fence: OpenFence, at position: Int, end: Int) -> Bool {
    guard position < end, bytes[position] == fence.character else { return false }
    var runEnd = position
    while runEnd < end && bytes[runEnd] == fence.character { runEnd += 1 }
    var rest = runEnd
    while rest < end && ASCII.isBlank(bytes[rest]) { rest += 1 }
    return runEnd - position >= FenceLine.keptLength(fence.length) && rest == end
  }

  /// How far a line's content at `content` is indented after its `quotes` quote markers and the
  /// space that belongs to the last of them, in columns.
  func quotedIndent(start: Int, content: Int, end: Int, quotes: Int) -> Int {
    var position = start
    for index in 0..<quotes {
      let step = quoteMarker(from: position, end: end, first: index == 0)
      guard step.found else { return 0 }
      position = step.next
    }
    let space = position < content && ASCII.isBlank(bytes[position]) ? 1 : 0
    return max(0, columns(from: start, to: content) - columns(from: start, to: position) - space)
  }

  // MARK: Other blocks

  @inline(__always) func isThematicBreak(from start: Int, to end: Int) -> Bool {
    let character = bytes[start]
    guard character == UInt8(ascii: "-") || character == UInt8(ascii: "*") || character == UInt8(ascii: "_") else {
      return false
    }
    var count = 0
    for index in start..<end {
      if bytes[index] == character {
        count += 1
      } else if !ASCII.isBlank(bytes[index]) {
        return false
      }
    }
    return count >= 3
  }

  @inline(__always) func isATXHeading(at start: Int, end: Int) -> Bool {
    var position = start
    while position < end && bytes[position] == UInt8(ascii: "#") && position - start < 7 { position += 1 }
    let level = position - start
    return level >= 1 && level <= 6 && (position == end || ASCII.isBlank(bytes[position]))
  }

  /// Notes a line that opens a raw HTML block: until it ends, fence openers are not believed.
  ///
  /// The block's start as cmark-gfm 0.29.0.gfm.6 reads it (``htmlBlockStart(_:end:continuesParagraph:)``):
  /// a line the guard took for a block that cmark-gfm read as a paragraph hid the fence that
  /// opened under it, the guard took its closer for an opener, and every line after it for code
  /// (`<x`, a fence line, a blank line, a fence line, then 10 KB of table rows made 6.5 MB of HTML:
  /// a helper's review).
  mutating func noteHTMLStart(
    at start: Int, end: Int, continuesParagraph: Bool, prefix: LinePrefix, lineStart: Int
  ) {
    // Inside a raw HTML block no other block starts: only its own end ends it (`<p>`, then
    // `<?` and a blank line: the blank line ends it, where a region taken for a `?>` one hid
    // the fence after it).
    guard htmlRegion == nil,
      let region = htmlBlockStart(start, end: end, continuesParagraph: continuesParagraph)
    else { return }
    htmlRegion = region
    htmlContainer = htmlContainer(of: prefix, lineStart: lineStart, end: end)
  }

  /// The containers of a raw HTML block that opens on the line from `lineStart`, with container
  /// markers `prefix`, as far as the guard follows them.
  mutating func htmlContainer(of prefix: LinePrefix, lineStart: Int, end: Int) -> HTMLContainer {
    var position = lineStart
    var outer = 0
    while case let step = quoteMarker(from: position, end: end, first: outer == 0), step.found {
      position = step.next
      outer += 1
    }
    let items = prefix.count - prefix.quoteDepth
    if items == 0 {
      // Quotes only, or none: in the deepest item their start reaches (none at the margin).
      var first = lineStart
      while first < end && ASCII.isBlank(bytes[first]) { first += 1 }
      let start = columns(from: lineStart, to: first)
      guard containerMayBeOpen, start >= 2 else { return .item(column: 0, quotes: prefix.quoteDepth) }
      guard let column = itemColumn(reachedBy: start) else { return .unknown(quotes: 0) }
      return .item(column: column, quotes: prefix.quoteDepth)
    }
    // One item opened first on this line, then quotes inside it, if any.
    guard items == 1, outer == 0 else { return .unknown(quotes: outer) }
    if prefix.hasFootnote {
      guard let column = itemColumns?.last else { return .unknown(quotes: 0) }
      return .item(column: column, quotes: prefix.quoteDepth)
    }
    return .item(column: itemContentColumn(lineStart: lineStart, end: end), quotes: prefix.quoteDepth)
  }

  /// Whether a line stays in the containers of the open raw HTML block (``htmlContainer``): it
  /// reaches the item's content column with its first byte (a `>` too; a line of blanks stays in
  /// an item), then holds the quotes inside the item; or, in containers the guard does not
  /// follow, holds the quotes around them (`quoteDepth` of them at least).
  func continuesHTMLContainer(start: Int, end: Int, quoteDepth: Int) -> Bool {
    switch htmlContainer {
    case .unknown(let quotes): return quoteDepth >= quotes
    case .item(let column, let quotes):
      var position = start
      while position < end && ASCII.isBlank(bytes[position]) { position += 1 }
      if position == end { return quotes == 0 }
      if columns(from: start, to: position) < column { return false }
      var found = 0
      while found < quotes, case let step = quoteMarker(from: position, end: end, first: found == 0), step.found {
        position = step.next
        found += 1
      }
      return found == quotes
    }
  }

  /// Where the text of a line of the open raw HTML block starts: after the block's own quote
  /// markers (later ones are its text).
  func htmlTextStart(start: Int, end: Int) -> Int {
    guard case .item(_, let depth) = htmlContainer else { return start }
    var position = start
    while position < end && ASCII.isBlank(bytes[position]) { position += 1 }
    for index in 0..<depth {
      let step = quoteMarker(from: position, end: end, first: index == 0)
      guard step.found else { break }
      position = step.next
    }
    return position
  }

  /// Keeps ``itemColumns`` for a line with container markers: a marker closes the items whose
  /// content starts right of it, and a list item or footnote definition opened first on a line,
  /// outside quotes, is open from its content's column (``itemContentColumn(lineStart:end:)``; a
  /// footnote definition's is four past its container's, as cmark-gfm reads them). Quotes inside
  /// it change no item's column; an item in a quote, or a second one on the line, makes them
  /// unknown.
  mutating func noteItemColumns(_ prefix: LinePrefix, start: Int, end: Int) {
    guard var open = itemColumns else { return }
    var first = start
    while first < end && ASCII.isBlank(bytes[first]) { first += 1 }
    let marker = columns(from: start, to: first)
    while let last = open.last, last > marker { open.removeLast() }
    let items = prefix.count - prefix.quoteDepth
    guard items > 0 else {
      itemColumns = open
      return
    }
    guard items == 1, first < end else {
      itemColumns = nil
      return
    }
    guard bytes[first] != UInt8(ascii: ">") else {
      // In a quote: its lines are the quote's, whose columns the guard does not follow.
      quotedItemMayBeOpen = true
      itemColumns = open
      return
    }
    open.append(prefix.hasFootnote ? (open.last ?? 0) + 4 : itemContentColumn(lineStart: start, end: end))
    itemColumns = open
  }

  /// The content column of the list item whose marker opens the line from `lineStart`: after one
  /// to four spaces past the marker, else one past it.
  func itemContentColumn(lineStart: Int, end: Int) -> Int {
    var position = lineStart
    while position < end && ASCII.isBlank(bytes[position]) { position += 1 }
    if position < end && ASCII.isDigit(bytes[position]) {
      while position < end && ASCII.isDigit(bytes[position]) { position += 1 }
    }
    position += 1  // the bullet, or the `.` or `)` after the digits
    let markerEnd = columns(from: lineStart, to: min(position, end))
    var content = min(position, end)
    while content < end && ASCII.isBlank(bytes[content]) { content += 1 }
    let gap = columns(from: lineStart, to: content) - markerEnd
    return content == end || gap > 4 ? markerEnd + 1 : markerEnd + gap
  }

  /// For a line without container markers that starts a block, which no item continues lazily:
  /// closes the items whose content starts right of its indentation and returns the content
  /// column of the deepest still open (0: none); `nil` when the columns are unknown.
  mutating func itemColumn(reachedBy prefix: LinePrefix) -> Int? {
    guard prefix.count == 0 else { return nil }
    return itemColumn(reachedBy: prefix.indent)
  }

  /// ``itemColumn(reachedBy:)`` for a block starting at `column`.
  mutating func itemColumn(reachedBy column: Int) -> Int? {
    guard var open = itemColumns else { return nil }
    while let last = open.last, last > column { open.removeLast() }
    itemColumns = open
    return open.last ?? 0
  }

  /// Whether the line (its container markers `prefix`) surely continues, to cmark-gfm, a paragraph
  /// outside every container: the lines before it are paragraph text (no table, no setext underline
  /// last, no indented code first), and no container is open or marked. Only then does a complete
  /// tag on it open no raw HTML block: where the paragraph is in a container the line does not
  /// match, cmark-gfm opens one (`> p`, then `<a>`: a review of 5b31330 found the guard believing
  /// the fence under it). Unsure, the answer is no, as the guard read every `<` line before.
  func continuesTopLevelParagraph(_ prefix: LinePrefix, quoteDepth: Int, startsBlock: Bool) -> Bool {
    guard let last = segment.last, table == nil, !startsBlock, !containerMayBeOpen, quoteDepth == 0,
      previousQuoteDepth == 0, prefix.count == 0
    else { return false }
    // The paragraph's first line holds no container marker (its later lines may be lazy: `> p`,
    // `lazy`, then `<a>` is a block to cmark-gfm, the quote's paragraph not matching).
    let first = segment[0]
    var index = lineStart(of: first.start)
    var columns = 0
    while index < first.end, ASCII.isBlank(bytes[index]) {
      columns += bytes[index] == ASCII.tab ? 4 - columns % 4 : 1
      index += 1
    }
    if index < first.start || columns >= 4 { return false }  // a marker, or indented code
    var content = last.start
    while content < last.end, ASCII.isBlank(bytes[content]) { content += 1 }
    if content < last.end, bytes[content] == UInt8(ascii: "=") || bytes[content] == ASCII.hyphen {
      let marker = bytes[content]
      if bytes[content..<last.end].allSatisfy({ $0 == marker || ASCII.isBlank($0) }) { return false }  // an underline
    }
    return true
  }

  /// The raw HTML block the line from `start` (at a `<`) to `end` opens, as cmark-gfm 0.29.0.gfm.6's
  /// seven start conditions read it, and what ends it; nil when it opens none. The seventh, a
  /// complete open or closing tag alone on its line, does not interrupt a paragraph: with
  /// `continuesParagraph` (``continuesTopLevelParagraph(_:quoteDepth:startsBlock:)`` is sure the
  /// line continues one) it opens none.
  func htmlBlockStart(_ start: Int, end: Int, continuesParagraph: Bool) -> HTMLRegion? {
    func lowered(_ offset: Int) -> UInt8? { start + offset < end ? ASCII.lower(bytes[start + offset]) : nil }
    func starts(with text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard end - start >= count else { return false }
      let pattern = text.utf8Start
      for offset in 0..<count where ASCII.lower(bytes[start + offset]) != pattern[offset] { return false }
      return true
    }
    // After a tag name: a blank, `>`, or the line's end (`/>` too for the sixth).
    func endsName(at offset: Int, slash: Bool) -> Bool {
      guard let byte = lowered(offset) else { return true }
      if ASCII.isSpace(byte) || byte == ASCII.greaterThan { return true }
      return slash && byte == ASCII.slash && lowered(offset + 1) == ASCII.greaterThan
    }
    for name: StaticString in ["<script", "<pre", "<style"] where starts(with: name) {
      if endsName(at: name.utf8CodeUnitCount, slash: false) { return .untilMarker(.rawText) }
    }
    if starts(with: "<!--") { return .untilMarker(.comment) }
    if starts(with: "<?") { return .untilMarker(.processingInstruction) }
    if starts(with: "<![cdata[") { return .untilMarker(.cdata) }
    if starts(with: "<!") {
      // An uppercase letter after `<!` (cmark-gfm 0.29 reads no other declaration).
      let next = start + 2
      return next < end && bytes[next] >= UInt8(ascii: "A") && bytes[next] <= UInt8(ascii: "Z")
        ? .untilMarker(.declaration) : nil
    }
    var nameStart = 1
    if lowered(1) == ASCII.slash { nameStart = 2 }
    var nameEnd = nameStart
    while let byte = lowered(nameEnd), ASCII.isAlphanumeric(byte) || byte == ASCII.hyphen { nameEnd += 1 }
    let name = (start + nameStart..<start + nameEnd).map { ASCII.lower(bytes[$0]) }
    if nameEnd > nameStart, endsName(at: nameEnd, slash: true),
      Self.blockTagNames.contains(String(decoding: name, as: UTF8.self))
    {
      return .untilBlankLine
    }
    guard !continuesParagraph else { return nil }
    let line = Array(bytes[start..<end])
    guard case .complete(let tagEnd) = InlineHealScanner.htmlTag(line, from: 1, end: line.count),
      line[1] == ASCII.slash || ASCII.isLetter(line[1]),
      // Then only spaces, tabs and form feeds (`[\t\n\f ]*` before the line's end: no vertical tab).
      line[tagEnd...].allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab || $0 == 0x0C || $0 == ASCII.carriageReturn })
    else { return nil }
    return .untilBlankLine
  }

  /// The tag names of cmark-gfm 0.29.0.gfm.6's sixth start condition of a raw HTML block.
  static let blockTagNames: Set<String> = [
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
    "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
    "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li",
    "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "section",
    "source", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
  ]

  /// Whether one of the markers that end `blockEnd` occurs in `bytes[start..<end]`.
  func contains(_ blockEnd: HTMLBlockEnd, from start: Int, to end: Int) -> Bool {
    switch blockEnd {
    case .rawText:
      return contains("</script>", from: start, to: end) || contains("</pre>", from: start, to: end)
        || contains("</style>", from: start, to: end)
    case .comment: return contains("-->", from: start, to: end)
    case .processingInstruction: return contains("?>", from: start, to: end)
    case .cdata: return contains("]]>", from: start, to: end)
    case .declaration: return contains(">", from: start, to: end)
    }
  }

  /// Whether `marker` (lowercase) occurs, ASCII case-insensitively, in `bytes[start..<end]`.
  func contains(_ marker: StaticString, from start: Int, to end: Int) -> Bool {
    let count = marker.utf8CodeUnitCount
    guard start < end, end - start >= count else { return false }
    let pattern = marker.utf8Start
    var index = start
    while index + count <= end {
      var matched = true
      for offset in 0..<count where ASCII.lower(bytes[index + offset]) != pattern[offset] {
        matched = false
        break
      }
      if matched { return true }
      index += 1
    }
    return false
  }
}
