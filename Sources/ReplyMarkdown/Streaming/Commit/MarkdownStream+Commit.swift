extension MarkdownStream {
  /// Top-level blocks that close together: usually one block; a paragraph and the table that grew
  /// out of its last line (cmark-gfm gives that paragraph no position and starts the table at the
  /// paragraph's first line).
  struct Unit {
    var blocks: [Int]
    /// The first and last line (1-based, in the parsed region).
    var startLine: Int
    var endLine: Int
    /// Whether the unit is a footnote definition: text to keep as a definition, not a block.
    var isDefinition = false
    /// The lines of footnote definitions written inside the unit's block (a quote, a list item):
    /// kept as definitions when the unit closes, the block staying whole.
    var nestedDefinitions: [ClosedRange<Int>] = []
  }

  /// The units of a region's top-level blocks, and whether blocks without a position came last
  /// (they belong to whatever follows, so nothing after the last unit is certain). `text` is the
  /// region and `lines` its line starts (a setext heading's end is read there).
  static func units(of document: MarkdownDocument, text: [UInt8], lines: [Int]) -> (units: [Unit], unplaced: Bool) {
    var units: [Unit] = []
    var unplaced: [Int] = []
    var notes: [Unit] = []
    for block in document.topLevelBlocks {
      // Footnote definitions come last in the tree (cmark-gfm moves them); they go in by position.
      if isFootnoteDefinition(document.nodes[block]) {
        if let range = document.nodes[block].range, range.start.line >= 1 {
          notes.append(
            Unit(
              blocks: [block], startLine: range.start.line, endLine: max(range.end.line, range.start.line),
              isDefinition: true))
        }
        continue
      }
      guard let range = document.nodes[block].range, range.start.line >= 1 else {
        unplaced.append(block)
        continue
      }
      // cmark-gfm leaves the end of an HTML block that closes on its first line at 0:0.
      var endLine = max(range.end.line, range.start.line)
      if case .heading = document.nodes[block].kind, endLine > range.start.line {
        endLine = setextUnderlineLine(text, lines: lines, startLine: range.start.line, cmarkEnd: endLine)
      }
      if let last = units.indices.last, range.start.line <= units[last].endLine {
        units[last].blocks += unplaced + [block]
        units[last].endLine = max(units[last].endLine, endLine)
      } else {
        units.append(Unit(blocks: unplaced + [block], startLine: range.start.line, endLine: endLine))
      }
      unplaced = []
    }
    // A definition that cannot start a top-level block (after other text on its line, or
    // indented four columns or more) was written inside an earlier definition, which cmark-gfm
    // dropped when nothing references it (a definition of its own label inside it took the
    // label: `[^a]: [^a]: y`, then `    [^1]: z`): it is part of the definition unit before it,
    // or starts one right after the last unit (a review: the nested definition alone became an
    // indented code block).
    var merged: [Unit] = []
    for var note in notes.sorted(by: { $0.startLine < $1.startLine }) {
      let nested = note.blocks.first.flatMap { document.nodes[$0].range }.map {
        definitionStartsInsideLine(text, lines: lines, line: $0.start.line, column: $0.start.column)
      }
      // Blank lines may come between (a definition's later paragraphs); no other block may.
      if nested == true, let last = merged.indices.last,
        !units.contains(where: { $0.startLine > merged[last].endLine && $0.startLine < note.startLine })
      {
        merged[last].blocks += note.blocks
        merged[last].endLine = max(merged[last].endLine, note.endLine)
        continue
      }
      // With no unit before it to join, it starts where the definition it was written in starts,
      // which cmark-gfm dropped: the nearest line after the unit before it that starts a footnote
      // definition (the lines between are that definition's, lazy ones too), and they close as
      // one piece (`x`, `[^b]:`, then `     [^2]: [^b]:`: the inner `[^b]` took the label; the
      // line `[^b]:` kept apart, `[^2]` read as indented code; the outer label may be one no scan
      // keys, `[^[]:`; link definitions may come before it: fuzz seed 1337). Not another line:
      // cmark-gfm's range of a raw HTML block can end before its last line (`<!--`, `-->`, then
      // `[^1]:[^1]:` took `-->` for the definition's: fuzz seed 1336).
      if nested == true {
        let floor = max(
          merged.last?.endLine ?? 0, units.lazy.filter { $0.startLine < note.startLine }.map(\.endLine).max() ?? 0)
        var line = note.startLine - 1
        while line > floor {
          let start = lineStart(line, lines: lines, count: text.count)
          let end = lineStart(line + 1, lines: lines, count: text.count)
          let label = ASCII.afterBlockIndent(text, from: start, to: end)
          if opensFootnoteDefinition(text[label..<end]) {
            note.startLine = line
            break
          }
          line -= 1
        }
      }
      merged.append(note)
    }
    for note in merged {
      // A definition written inside a block (a quote, a list item) is part of that block's unit.
      if let inside = units.firstIndex(where: { $0.startLine <= note.startLine && note.startLine <= $0.endLine }) {
        units[inside].nestedDefinitions.append(note.startLine...note.endLine)
        continue
      }
      let position = units.firstIndex { $0.startLine > note.startLine } ?? units.count
      var note = note
      note.endLine = indentedContinuationEnd(
        text, lines: lines, after: note.endLine,
        before: position < units.count ? units[position].startLine : lines.count + 1)
      units.insert(note, at: position)
    }
    return (units, !unplaced.isEmpty)
  }

  /// The last line of a footnote definition that cmark-gfm ends on `endLine`, counting the lines
  /// after it (up to `before`, where another unit starts) that are indented four columns or more,
  /// blank lines between: they continue it, and their text is its own, though cmark-gfm may have
  /// dropped it (a definition inside it of a label defined before, which nothing then
  /// references: `[^1]:  [^1]:`, then `     [^a]: x` twice; the second, left outside the unit,
  /// streamed as an indented code block). A line indented less that comes right after such a
  /// line, no blank between, continues its paragraph lazily: it is the definition's too (`[^A]:`
  /// then `[^a]:` on one line, one label, an indented `c`, then `[`: the `[`, which no block of
  /// the parse holds, streamed as a paragraph where render drops it with the definition).
  ///
  /// - Complexity: O(n) in the bytes of the lines read.
  static func indentedContinuationEnd(_ text: [UInt8], lines: [Int], after endLine: Int, before: Int) -> Int {
    var last = endLine
    var line = endLine + 1
    var continuesParagraph = false
    while line < before && line <= lines.count {
      let start = lineStart(line, lines: lines, count: text.count)
      let end = lineStart(line + 1, lines: lines, count: text.count)
      if SourceLines.isBlank(text, start..<end) {
        continuesParagraph = false
      } else {
        let indented = indentColumns(text[start..<end]) >= 4
        guard indented || continuesParagraph else { break }
        continuesParagraph = true
        last = line
      }
      line += 1
    }
    return last
  }

  /// The columns of the blanks that start `line` (a tab to the next multiple of four).
  static func indentColumns(_ line: ArraySlice<UInt8>) -> Int {
    var columns = 0
    for byte in line {
      guard byte == ASCII.space || byte == ASCII.tab else { break }
      columns = byte == ASCII.tab ? columns + 4 - columns % 4 : columns + 1
    }
    return columns
  }

  /// The line of the underline of the setext heading that starts on `startLine` and that
  /// cmark-gfm ends on `cmarkEnd`, in `text` (line starts `lines`). cmark-gfm ends a setext heading
  /// on the line after its underline (`a`, `-`, `b` gives the heading lines 1 to 3), except at the
  /// end of the text; taken as it stands, a definition starting on that line was cut in two: its
  /// first line went with the heading, and a title on the next line (`[f]:l "`, `"`) became a
  /// paragraph (fuzz seed 1221). The underline is the line before `cmarkEnd` when that line is a
  /// run of `=` or `-` after the heading's first line (no other line of a heading's content can
  /// be one), else `cmarkEnd`. (Inline positions cannot tell: after a definition at the start of
  /// the paragraph, cmark-gfm numbers the content's lines from the paragraph's first line.)
  static func setextUnderlineLine(_ text: [UInt8], lines: [Int], startLine: Int, cmarkEnd: Int) -> Int {
    let candidate = cmarkEnd - 1
    guard candidate > startLine else { return cmarkEnd }
    let first = Self.lineStart(candidate, lines: lines, count: text.count)
    let lineEnd = Self.lineStart(candidate + 1, lines: lines, count: text.count)
    var index = first
    while index < lineEnd && text[index] == ASCII.space && index - first < 3 { index += 1 }
    guard index < lineEnd, text[index] == UInt8(ascii: "=") || text[index] == ASCII.hyphen else { return cmarkEnd }
    let character = text[index]
    while index < lineEnd && text[index] == character { index += 1 }
    while index < lineEnd && ASCII.isSpace(text[index]) { index += 1 }
    return index == lineEnd ? candidate : cmarkEnd
  }

  /// Parses the open part's complete lines and closes every unit that a later unit started after
  /// (and the last one, when nothing can continue it). Returns whether another pass is needed.
  mutating func closeBlocks(_ completeEnd: Int, mayEnterLongBlock: Bool) -> Bool {
    guard completeEnd > closedEnd else { return false }
    let start = closedEnd
    let firstLine = closedLine
    let text = Array(source[start..<completeEnd])
    // A guard that acted on this parse counts (``guardChangedInput``) once the stream uses what it
    // read, not where it only looked at the open paragraph, which is parsed again when it closes:
    // a paragraph's 404 link openers, most of them code once a backtick arrives lines later, made
    // nothing commit into a pipe until the end (a review). (The flag tells: a parse's document
    // loses its diagnostics where the preamble's lines are taken off.)
    let noted = guardChangedInput
    let document = parseRegion(text[...], locatingFootnoteDefinitions: true, openPartLine: 1)
    let guarded = guardChangedInput
    guardChangedInput = noted
    let lines = SourceLines.lineStarts(text)
    func offset(_ line: Int) -> Int { Self.lineStart(line, lines: lines, count: text.count) }
    let (units, unplaced) = Self.units(of: document, text: text, lines: lines)
    guard let lastUnit = units.last else {
      if guarded { guardChangedInput = true }
      guard !unplaced else { return false }
      if SourceLines.isBlank(text, 0..<text.count) {
        advanceClosed(to: completeEnd)
      } else if Self.endsWithBlankLine(text, at: text.count),
        !SourceLines.contains(text, 0..<text.count, Self.footnoteMarker)
      {
        // Definitions followed by a blank line are complete (a footnote definition is not: an
        // indented line may still continue it).
        define(text[...], base: start)
        advanceClosed(to: completeEnd)
      } else if !SourceLines.contains(text, 0..<text.count, Self.footnoteMarker),
        let split = Self.lastLabelLine(text), split > 0,
        definitionRun(before: split, of: text) > Self.definitionRunLimit,
        case let sure = fastPaths && sureDefinitions.cover(source, from: start, to: completeEnd),
        sure || isOnlyDefinitions(text[..<split])
      {
        takeDefinitions(text, upTo: split, linesAreSure: sure)
      }
      drain()
      return false
    }
    var closedCount = units.count - 1
    if !unplaced, let last = lastUnit.blocks.last,
      isClosedAtEnd(document, block: last, text: text, lines: lines, textEnd: completeEnd)
    {
      closedCount = units.count
    } else if let last = lastUnit.blocks.last, Self.endsAtUnindentedLine(document.nodes[last].kind),
      Self.endsWithBlankLine(text, at: text.count)
    {
      openUntilUnindentedLine = true
    }
    if guarded {
      var onlyLooked = false
      if closedCount == 0, lastUnit.blocks.count == 1, case .paragraph = document.nodes[lastUnit.blocks[0]].kind {
        onlyLooked = true
      }
      if !onlyLooked { guardChangedInput = true }
    }
    // Definitions at the start of the open unit (cmark-gfm counts the paragraph they were taken
    // from from its first line) may still change: a title may run on over the next lines
    // (`[x]: /u`, `"a`, and still to come `b"`). Blocks closed now resolved their labels against
    // them as they stand, so those that use them wait until they close.
    // Likewise definitions after the last block when it closed (`# [x]`, `[x]: l`, and a title
    // still to come on the next line: fuzz seed 1269), which stay open below.
    // In an open part with footnote markers the definitions are not kept when it closes, so
    // nothing ends such a wait but the end. A block closed now that uses one of its labels
    // commits; when a definition there may still take a title (``openDefinitionsMayGrow(_:labels:)``,
    // asked once, when a block uses one), it makes the final update the whole reply parsed at
    // once with ``ReferencePolicy/live``, and waits for the end with
    // ``ReferencePolicy/holdUntilFinish``, whose writers cannot replace (`[x]`, then `[x]:;` whose
    // title `"[^` runs on to a last line `"`, in one chunk, committed the link without its title:
    // fuzz seed 1274; `# [x]`, `[^`, then `[x]:6` and its title: a review).
    var growingLabels: Set<String> = []
    var growingUnkept: Set<String> = []
    var unkeptMayGrow: Bool?
    let openStart =
      closedCount < units.count
      ? offset(units[closedCount].startLine) : units.last.map { offset($0.endLine + 1) } ?? text.count
    if openStart < text.count {
      let growing = Set(ReferenceLabels.defined(in: text[openStart...]))
      if SourceLines.contains(text, openStart..<text.count, Self.footnoteMarker) {
        growingUnkept = Set(growing.filter { !isFootnoteKey($0) })
      } else {
        growingLabels = growing
      }
    }
    var done = 0
    for index in 0..<closedCount {
      let unit = units[index]
      let unitStart = offset(unit.startLine)
      var next = index + 1 < units.count ? offset(units[index + 1].startLine) : text.count
      let blockEnd = min(next, offset(unit.endLine + 1))
      // A definition after the last block may still grow (a title on the next line): it stays open.
      // Other text there is text cmark-gfm's range left out of the block (a setext heading whose
      // paragraph lost its definitions ends its range a line short, fuzz seed 1254): the block
      // stays open with it.
      if index + 1 == units.count && !SourceLines.isBlank(text, blockEnd..<next) {
        guard Self.startsWithLabel(text[blockEnd..<next]) else { break }
        next = blockEnd
      }
      guard next > done, blockEnd > unitStart else { break }
      // Text between blocks is blank or definitions; a block may hold definitions too (in a
      // quote or a list item).
      if unit.isDefinition {
        define(text[done..<next], base: start)
        advanceClosed(to: start + next)
        done = next
        continue
      }
      if done < unitStart { define(text[done..<unitStart], base: start) }
      // Definitions in reply order, those in the block before those after it: a held block that
      // a later definition of its label resolves first would commit with that one, where
      // cmark-gfm keeps the first (fuzz seed 1233: `[x]: /a`, `text`, then `[x]: /b`). The labels
      // this unit makes unkept: its own parse resolves them.
      // (Code and raw HTML define nothing: a reply showing markdown source in a fence, `[x]: u`
      // or `[^]:` at a line start, made the end parse the whole reply again.)
      var ownUnkept =
        unit.blocks.allSatisfy { Self.definesNothing(document.nodes[$0].kind) }
        ? [] : defineInside(text[unitStart..<blockEnd], base: start)
      for lines in unit.nestedDefinitions {
        let piece = text[offset(lines.lowerBound)..<min(offset(lines.upperBound + 1), blockEnd)]
        // Indented four columns or more (under a list item's marker), out of their container the
        // lines read as indented code, and what follows as something else (`- t`, a tab and
        // `[^1]:|`, then `[X]:"`: after the code, a definition of `X`; fuzz seed 1334): only the
        // whole reply parsed at once knows what they define.
        guard Self.indentColumns(piece) < 4 else {
          committedInexactly = true
          let labels = Set(ReferenceLabels.defined(in: piece))
          ownUnkept.formUnion(labels.subtracting(unkeptLabels))
          keepOut(labels)
          continue
        }
        define(piece, base: start)
      }
      if blockEnd < next {
        // cmark-gfm's range of a raw HTML block can end before the line that ends it, and that
        // line is not kept in the block's text either (`<!x`, `[a]:>`): what looks like a
        // definition after it may be part of it, so only the final replacement may use it.
        // A footnote definition there whose label the scan cannot key makes footnotes referenced
        // all the same (`<div`, a blank, `[^[]:[^1]`, then a quote: the footnote section was
        // left out; fuzz seed 1358).
        if let last = unit.blocks.last, case .htmlBlock = document.nodes[last].kind {
          let unkept = ReferenceLabels.defined(in: text[blockEnd..<next])
          if options.contains(.footnotes) && Self.hasUnkeyedFootnoteDefinition(text[blockEnd..<next]) {
            committedInexactly = true
          }
          if !unkept.isEmpty {
            committedInexactly = true
            // Its own only when no earlier block defined it first.
            ownUnkept.formUnion(Set(unkept).subtracting(unkeptLabels))
            keepOut(unkept)
          }
        } else {
          define(text[blockEnd..<next], base: start)
        }
      }
      var waitsFor = growingLabels
      // (Link labels only: a footnote label spanning lines never matches one.)
      if !growingUnkept.isEmpty
        && ReferenceLabels.used(in: text[unitStart..<blockEnd]).contains(where: growingUnkept.contains)
      {
        if unkeptMayGrow == nil { unkeptMayGrow = openDefinitionsMayGrow(text[openStart...], labels: growingUnkept) }
        if unkeptMayGrow == true {
          if referencePolicy == .holdUntilFinish {
            waitsFor.formUnion(growingUnkept)
          } else {
            committedInexactly = true
          }
        }
      }
      hold(
        Self.extract(document, blocks: unit.blocks, lineShift: firstLine - 1), used: text[unitStart..<blockEnd],
        sourceRange: (start + done)..<(start + next), alsoWaiting: waitsFor, ownUnkept: ownUnkept)
      done = next
    }
    drain()
    guard closedCount < units.count, offset(lastUnit.startLine) == done else { return false }
    // The open unit.
    if lastUnit.blocks.count > 1 {
      return splitGluedTable(lastUnit, document: document, text: text, lines: lines, start: start)
    }
    if mayEnterLongBlock, let block = lastUnit.blocks.first {
      enterLongBlock(document, block: block, text: text, lines: lines, completeEnd: completeEnd)
    }
    return false
  }

  /// Whether a top-level block of this kind holds no definition whatever its text: a code block
  /// or a raw HTML block.
  static func definesNothing(_ kind: MarkdownNode.Kind) -> Bool {
    switch kind {
    case .codeBlock, .htmlBlock: true
    default: false
    }
  }

  /// Whether a line of `text` starts (after container markers and spaces: a block quote's `>`,
  /// a list item's marker) a footnote definition to cmark-gfm (`[^`, a label of anything but `]`,
  /// blanks and NUL, then `]:`) whose label ``DefinitionStore/footnoteDefined(atStartOf:)`` does
  /// not read (one holding `[` or `\`), also where a footnote definition's content opens it on
  /// the definition's line (`[^b]:[^[]:[x]:/`, whose link definition the stream never saw: fuzz
  /// seed 1368). May answer yes for a line that only looks so (indented code, a lazy line): the
  /// caller then trusts the whole reply's parse, never less.
  static func hasUnkeyedFootnoteDefinition(_ text: ArraySlice<UInt8>) -> Bool {
    var index = text.startIndex
    while index < text.endIndex {
      var start = index
      while start < text.endIndex && ReferenceLabels.isContainerPrefix(text[start]) { start += 1 }
      var end = start
      while end < text.endIndex && text[end] != ASCII.newline && text[end] != ASCII.carriageReturn { end += 1 }
      var line = text[start..<end]
      while let contentStart = ReferenceLabels.footnoteContentStart(line, at: line.startIndex) {
        guard DefinitionStore.footnoteDefined(atStartOf: line) != nil else { return true }
        var content = contentStart
        while content < line.endIndex && ReferenceLabels.isContainerPrefix(line[content]) { content += 1 }
        line = line[content...]
      }
      index = end < text.endIndex ? end + 1 : end
    }
    return false
  }

  /// Whether `line` opens with what cmark-gfm takes for a footnote definition's start: `[^`, a
  /// label of anything but `]`, blanks and NUL, then `]:`.
  static func opensFootnoteDefinition(_ line: ArraySlice<UInt8>) -> Bool {
    guard line.starts(with: DefinitionStore.footnoteOpener),
      let close = line.dropFirst(2).firstIndex(where: { $0 == ASCII.closeBracket }),
      close > line.startIndex + 2, close + 1 < line.endIndex, line[close + 1] == ASCII.colon
    else { return false }
    return !line[(line.startIndex + 2)..<close].contains(where: { ASCII.isBlank($0) || $0 == 0 })
  }

  /// Moves the start of the open part to `end`.
  mutating func advanceClosed(to end: Int) {
    guard end > closedEnd else { return }
    closedLine += received.lineBreaks(in: closedEnd..<end)
    closedEnd = end
    definitionRunBytes = 0
  }

  // MARK: Held and committed blocks

  /// Closes a block: it joins the held blocks (and commits from there when nothing waits).
  /// `sourceRange` starts at `closedEnd`.
  ///
  /// `alsoWaiting`: labels whose definition is not closed yet; the block waits for those it uses.
  mutating func hold(
    _ document: MarkdownDocument, used: ArraySlice<UInt8>, sourceRange: Range<Int>, alsoWaiting: Set<String> = [],
    ownUnkept: Set<String> = []
  ) {
    let firstLine = closedLine
    advanceClosed(to: sourceRange.upperBound)
    var waiting = waitingLabels(document, used: used)
    if !alsoWaiting.isEmpty {
      let labels = ReferenceLabels.used(in: used)
      waiting.formUnion(labels.intersection(alsoWaiting))
      if labels.contains(ReferenceLabels.anyFootnote) && alsoWaiting.contains(where: { $0.hasPrefix("^") }) {
        waiting.insert(ReferenceLabels.anyFootnote)
      }
    }
    // A label whose first definition the stream did not keep: only the whole reply resolves it
    // (`[foo]`, `[foo]:"` and `[^` in one unit, then `[foo]:]`: fuzz seed 1275), also for a
    // block that defines it again (a review). Not the block whose definitions made it unkept:
    // its own parse has them.
    if referencePolicy == .holdUntilFinish && !unkeptLabels.isEmpty && usesUnkept(used, except: ownUnkept) {
      waiting.insert(Self.unkeptDefinitionWait)
    }
    if sourceRange.lowerBound == 0 && received.droppedByteOrderMark && Self.mayHoldTaskMarker(firstLineOf: source) {
      // After the reply's byte order mark cmark-gfm makes no task item on the first line; the
      // stream, which dropped the mark, would. The block waits for the end, where the whole
      // reply is parsed with its mark.
      waiting.insert(Self.byteOrderMarkWait)
      committedInexactly = true
    }
    held.append(
      HeldQueue.Entry(
        id: nextBlockID, document: document, sourceRange: sourceRange, lines: firstLine..<closedLine,
        waiting: waiting, hasFootnoteReferences: FootnoteNumbering.hasReferences(document), ownUnkept: ownUnkept))
    nextBlockID += 1
  }

  /// What the first block of a reply that started with a byte order mark waits for, when its
  /// first line may hold a task marker: no label, so only the end (or the policy's budget) ends
  /// the wait.
  static let byteOrderMarkWait = "\u{FEFF}"

  /// What a block waits for under ``ReferencePolicy/holdUntilFinish`` when it uses a label of
  /// ``unkeptLabels``: no label (a NUL starts it), so only the end ends the wait.
  static let unkeptDefinitionWait = "\u{0}unkept"

  /// Whether the first line of `text` holds `[ ]`, `[x]` or `[X]` (or a blank other than a space
  /// between the brackets): it may make a task item.
  static func mayHoldTaskMarker(firstLineOf text: [UInt8]) -> Bool {
    let end = text.firstIndex { $0 == ASCII.newline || $0 == ASCII.carriageReturn } ?? text.count
    guard end >= 3 else { return false }
    for index in 0..<(end - 2) where text[index] == ASCII.openBracket && text[index + 2] == UInt8(ascii: "]") {
      let mark = text[index + 1]
      if ASCII.isBlank(mark) || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") || mark == 0x0B || mark == 0x0C {
        return true
      }
    }
    return false
  }

  /// The labels a closed block uses that may still be defined later and change it.
  func waitingLabels(_ document: MarkdownDocument, used: ArraySlice<UInt8>) -> Set<String> {
    let nodes = document.nodes
    let mayChange =
      PendingReferences.hasCandidate(document, in: 0..<nodes.count) || Self.mayBecomeReferenceLink(nodes[...])
      || nodes.contains { node in
        if case .text(let string) = node.kind { return StreamHealer.containsFootnoteOpener(string) }
        return false
      }
    guard mayChange else { return [] }
    // Every label it uses: a definition seen already may not be a real one (`[x]:` inside a
    // code block), so only a parse that resolves the brackets ends the wait.
    return ReferenceLabels.used(in: used)
  }

  /// Commits held blocks from the oldest while none waits, or while the held bytes exceed the
  /// policy's budget.
  mutating func drain() {
    // The whole reply's guard acted, or a piece's did (its budgets are per parse): blocks from
    // here on may differ from one-shot rendering, which the final update's replacement gives
    // (a table whose closing parse escaped a pipe where render does not committed its last row
    // as `|-` into a pipe: fuzz seed 1341).
    if (replyGuard.hasActed || guardChangedInput) && referencePolicy.budget == nil { return }
    while let first = held.first {
      // Nothing commits while the whole reply's guard may still change closed text: a block in
      // its open paragraph (to the guard it runs on: fuzz seed 1309, a paragraph after an HTML
      // comment committed with `**man**` as strong emphasis where the guard escapes it past the
      // runs in its paragraph), or a definition there that a block uses (definitions taken one
      // by one past 1 KB: a review).
      if referencePolicy.budget == nil && closedEnd > replyGuard.settledEnd { return }
      let waits = !first.waiting.isEmpty || (referencePolicy.budget == nil && first.hasFootnoteReferences)
      if waits {
        guard let budget = referencePolicy.budget, held.bytes > budget else { return }
      }
      commit(held.removeFirst(), forced: waits)
    }
  }

  private mutating func commit(_ entry: HeldQueue.Entry, forced: Bool) {
    let document = footnotes.renumber(entry.document)
    if forced && options.contains(.footnotes) { footnotes.noteShownUnresolved(in: document) }
    // The footnote section at the end needs the whole reply, and a forced block may change.
    if forced || entry.hasFootnoteReferences { committedInexactly = true }
    outbox.committed.append(
      MarkdownStreamBlock(
        id: entry.id, document: document, sourceRange: entry.sourceRange, isReferenceSensitive: forced))
    outbox.heldChanged = true
  }

  /// Keeps the definitions in closed text; held blocks waiting for one of them are parsed again.
  /// `base` is where the array that `text` slices starts in the received text.
  mutating func define(_ text: ArraySlice<UInt8>, base: Int) {
    guard text.contains(UInt8(ascii: "[")) else { return }
    // A footnote definition whose label the scan cannot key, beside others it can (`[^[]:u`, a
    // lazy line citing `[^a]`, then `[^:]:`: fuzz seed 1275): its references too make footnotes
    // referenced, which only the whole reply parsed at once knows.
    if options.contains(.footnotes) && Self.hasUnkeyedFootnoteDefinition(text) { committedInexactly = true }
    guard !ReferenceLabels.defined(in: text).isEmpty else {
      // Text between blocks with a `[^` and no label the scan reads: a footnote definition whose
      // label it cannot key (`[^[]:`, which cmark-gfm takes), whose own references make footnotes
      // referenced that nothing else cites (`[^[]:[^a]`, then `[^a]:`: fuzz seed 1272). Only the
      // whole reply parsed at once knows: the final update is that.
      if options.contains(.footnotes), Array(text).firstRange(of: Self.footnoteMarker) != nil {
        committedInexactly = true
      }
      return
    }
    // Kept only when it parses closed: cut short (cmark-gfm's range of a raw HTML block can end
    // before its last lines), it would swallow what follows it in a preamble.
    guard let blocks = probeAfter(text) else {
      // Its labels are resolved by no later definition either (`[x]: /a` glued to a footnote
      // definition citing itself, whose section comes after the probe; then `[x]: /b` and `[x]`:
      // a review).
      committedInexactly = true
      keepOut(ReferenceLabels.defined(in: text).filter { !$0.hasPrefix("^") })
      return
    }
    let linkLabels = Array(Set(ReferenceLabels.defined(in: text).filter { !$0.hasPrefix("^") }))
    // A definition alone on its line defines its label; otherwise a parse tells which labels the
    // text really defines (a table whose header starts `[x]:` defines none).
    let oneDefinition = blocks == 2 && linkLabels.count == 1 && text.count(where: { $0 == ASCII.newline }) <= 1
    let defined = oneDefinition ? Set(linkLabels) : definedLinkLabels(text, linkLabels)
    let kept = definitionsOnly(text, labels: defined)
    let added = definitions.add(
      kept, at: base + text.startIndex, definingLinkLabels: defined, footnotes: options.contains(.footnotes))
    let labels = Set(added)
    // A long piece of link definitions stands in preambles as a stub (``DefinitionStore/Piece/stub``).
    if !labels.isEmpty, kept.count > DefinitionStore.stubLength, !labels.contains(where: { $0.hasPrefix("^") }),
      definitions.pieces.last?.makesBlocks == false
    {
      let sorted = labels.sorted()
      definitions.stubLinks(ofLastPiece: sorted, targets: resolvedLinks(kept, sorted))
    }
    if definitions.pieces.last?.isAlwaysIncluded == true
      && definitions.alwaysIncludedBytes > DefinitionStore.alwaysIncludedLimit
    {
      committedInexactly = true
    }
    if footnotes.numberShownUnresolved(definedNow: labels) && !held.isEmpty { outbox.heldChanged = true }
    guard !labels.isEmpty, !held.isEmpty else { return }
    // A footnote label spanning lines waits as any footnote label.
    let footnote = labels.contains { $0.hasPrefix("^") }
    // A label first defined where the stream keeps nothing stays as it was resolved: this later
    // definition is not the one cmark-gfm uses.
    var taken = footnote ? labels.union([ReferenceLabels.anyFootnote]) : labels
    if !unkeptLabels.isEmpty { taken = taken.filter { !unkeptLabels.contains($0) } }
    guard !taken.isEmpty else { return }
    for position in held.takePositionsWaiting(for: taken) {
      var entry = held[position]
      // A block waiting for many labels (a sentence citing [^1] … [^200], defined one by one at
      // the end) is parsed again once the definitions that arrived since its last parse reach
      // half of what that parse took: the parses then cost about twice the definitions, not one
      // parse of all of them per definition. The final parse is exact anyway.
      entry.deferredDefinitionBytes += text.count
      guard entry.deferredDefinitionBytes * 2 >= entry.lastParseBytes else {
        held.replace(at: position, with: entry, relisting: taken)
        continue
      }
      let used = source[entry.sourceRange]
      let before = ParseMeter.total
      let reparsed = Self.keepingListLooseness(
        of: entry.document,
        in: Self.shifted(
          parseRegion(used, startingAt: entry.sourceRange.lowerBound), lines: entry.lines.lowerBound - 1))
      var updated = entry
      updated.document = reparsed
      updated.waiting = waitingLabels(reparsed, used: used)
      // What only the end ends stays: the byte order mark's wait, and a label whose first
      // definition the stream did not keep, also one kept out after the block was held (`[^a][a]`,
      // then `[a]:/` and `[^` in one paragraph, then `[a]:b` and `[^a]:`: the footnote's
      // definition parsed the block again with `[a]:b` first, and it committed with that link
      // into a pipe; a review).
      if entry.waiting.contains(Self.byteOrderMarkWait) { updated.waiting.insert(Self.byteOrderMarkWait) }
      if referencePolicy == .holdUntilFinish && !unkeptLabels.isEmpty && usesUnkept(used, except: entry.ownUnkept) {
        updated.waiting.insert(Self.unkeptDefinitionWait)
      }
      updated.hasFootnoteReferences = FootnoteNumbering.hasReferences(reparsed)
      updated.lastParseBytes = ParseMeter.total &- before
      updated.deferredDefinitionBytes = 0
      held.replace(at: position, with: updated, relisting: taken)
      outbox.heldChanged = true
    }
  }

  /// Keeps the definitions inside a block (in a quote, a list item, after a table) for later
  /// parses. A block that also has footnote references is not kept: in a preamble its references
  /// would count again, and change the numbers. Its definitions then reach later blocks only
  /// through the final replacement, whatever the policy: a block using them waits until the end
  /// (nothing defines its labels before), and what follows the committed blocks then comes from
  /// the whole reply's parse. (Holding until the end, the block itself need not be held: its
  /// `[^` may be no footnote reference, as in `> [^a ]: u`, a link definition in a quote.)
  ///
  /// Returns the link labels the block defines first and the stream does not keep
  /// (``unkeptLabels``), those a parse finds defined (a lazy line that only looks like a definition
  /// defines nothing); a label an earlier block left unkept is not among them.
  /// Text without a `]:` defines nothing and costs only that scan.
  @discardableResult
  mutating func defineInside(_ text: ArraySlice<UInt8>, base: Int) -> Set<String> {
    guard zip(text, text.dropFirst()).contains(where: { $0 == ASCII.closeBracket && $1 == ASCII.colon }) else {
      return []
    }
    guard SourceLines.contains(Array(text), 0..<text.count, Self.footnoteMarker) else {
      define(text, base: base)
      return []
    }
    // A footnote definition in a container whose label the scan cannot key (`- [^[]:[^a]`, then
    // `[^a]:`: its reference makes `a` referenced; fuzz seed 1302): only the whole reply parsed
    // at once knows.
    if options.contains(.footnotes) && Self.hasUnkeyedFootnoteDefinition(text) { committedInexactly = true }
    let scanned = ReferenceLabels.defined(in: text)
    guard !scanned.isEmpty else { return [] }
    committedInexactly = true
    let links = Array(Set(scanned.filter { !isFootnoteKey($0) }))
    let unkept = links.isEmpty ? [] : definedLinkLabels(text, links)
    // A label an earlier block defined first is not this block's own: its own parse resolves it
    // to its own definition, the wrong one (`- [^a]:K`, then `>[^a]:L` and `[^a]` in the quote,
    // with footnotes off).
    let own = unkept.subtracting(unkeptLabels)
    keepOut(unkept)
    return own
  }

  /// Whether the label `key` names a footnote: with footnotes on, `^` and a label cmark-gfm can
  /// define one for (not empty, no blank). Else it is a link label like any other (`[^a]` with
  /// footnotes off, `[^]`, `[^a b]`).
  func isFootnoteKey(_ key: String) -> Bool {
    options.contains(.footnotes) && DefinitionStore.isFootnoteLabel(key)
  }

  /// Adds `labels` to ``unkeptLabels``.
  mutating func keepOut(_ labels: some Sequence<String>) {
    for label in labels {
      unkeptLabels.insert(label)
      if label.hasPrefix("^") { unkeptHasFootnoteLabel = true }
    }
  }

  /// Whether `text` uses a label of ``unkeptLabels`` other than those in `own`.
  ///
  /// - Complexity: O(`text`) plus a lookup per label it uses.
  func usesUnkept(_ text: ArraySlice<UInt8>, except own: Set<String>) -> Bool {
    for label in ReferenceLabels.used(in: text) where !own.contains(label) {
      if unkeptLabels.contains(label) { return true }
      if label == ReferenceLabels.anyFootnote && unkeptHasFootnoteLabel { return true }
    }
    return false
  }

  /// Whether a link definition among `labels` in the open part `open` (complete lines) may still
  /// change with lines to come: a title that starts on the next line (`"t"`), or one left open
  /// that a closing `"`, `'` or `)` ends; or a table's header and delimiter row in the paragraph
  /// the definitions open, which makes them text to cmark-gfm (`[^A B]`, then `[^a b]:b`, `x`,
  /// `|a|` and `-|`: a pipe wrote the link the final parse does not have; fuzz seed 1381). Each
  /// probe is a parse of the open part and the probe's lines with the labels looked up after it;
  /// the table's lines go under the container markers of the open part's last line too.
  mutating func openDefinitionsMayGrow(_ open: ArraySlice<UInt8>, labels: Set<String>) -> Bool {
    let keys = Array(labels)
    let now = resolvedLinks(open, keys)
    var probes = Self.growthProbes
    let lines = Array(open)
    let lastLine = lines[SourceLines.lineStart(lines, endingAt: lines.count)...]
    let markers = lastLine.prefix(while: ReferenceLabels.isContainerPrefix).map { byte in
      byte == UInt8(ascii: ">") || ASCII.isBlank(byte) ? byte : ASCII.space
    }
    if !markers.isEmpty { probes.append(markers + Self.tableHeader + markers + Self.tableDelimiterRow) }
    for probe in probes where resolvedLinks(Array(open + probe)[...], keys) != now {
      return true
    }
    return false
  }

  /// The lines ``openDefinitionsMayGrow(_:labels:)`` tries after the open part: titles, and a
  /// table's two lines.
  static let growthProbes: [[UInt8]] =
    ["\"t\"\n", "\"\n", "'\n", ")\n"].map { Array($0.utf8) } + [tableHeader + tableDelimiterRow]

  /// A table's header line and delimiter row, for ``openDefinitionsMayGrow(_:labels:)``.
  static let tableHeader = Array("|t|\n".utf8)
  static let tableDelimiterRow = Array("|-|\n".utf8)

  /// Whether `text` parses as closed blocks: a paragraph after it (and the line that closes
  /// containers) is a paragraph of its own.
  private mutating func isClosed(_ text: ArraySlice<UInt8>) -> Bool {
    probeAfter(text) != nil
  }

  /// Whether `text` parses as nothing but link reference definitions, closed: a definition cut
  /// short by a split (a title running on over the next line) would leave a paragraph.
  private mutating func isOnlyDefinitions(_ text: ArraySlice<UInt8>) -> Bool {
    // The probe's comment block and its paragraph are all there is.
    probeAfter(text) == 2
  }

  /// `text` parsed with ``closedProbe`` after it: the number of top-level blocks when the probe's
  /// paragraph stands alone as the last one but for footnote definitions, else nil. cmark-gfm
  /// moves a referenced footnote definition to the end, after the probe: one citing itself
  /// (`[^a]:[^a]`) is closed all the same, and kept (unkept, a repeated definition of its label
  /// showed in the live display instead: fuzz seeds 1341 and 1345).
  private mutating func probeAfter(_ text: ArraySlice<UInt8>) -> Int? {
    let probe = parseText(Array(text) + Self.closedProbe)
    let blocks = Array(probe.topLevelBlocks)
    guard
      let last = blocks.last(where: { block in
        if case .footnoteDefinition = probe.nodes[block].kind { return false }
        return true
      }), case .paragraph = probe.nodes[last].kind, probe.nodes[last].subtreeEnd == last + 2,
      case .text("\u{1}closed") = probe.nodes[last + 1].kind
    else { return nil }
    return blocks.count
  }

  static let closedProbe = Array("\n\n<!---->\n\n\u{1}closed\n".utf8)

  /// Which of `labels` (link labels, as keys) closed `text` defines: each is looked up in a
  /// paragraph of its own after it.
  private mutating func definedLinkLabels(_ text: ArraySlice<UInt8>, _ labels: [String]) -> Set<String> {
    Set(resolvedLinks(text, labels).keys)
  }

  /// What each of `labels` (link labels, as keys) that closed `text` defines resolves to: each is
  /// looked up in a paragraph of its own after it.
  private mutating func resolvedLinks(_ text: ArraySlice<UInt8>, _ labels: [String]) -> [String: MarkdownNode
    .LinkInfo]
  {
    guard !labels.isEmpty else { return [:] }
    var probe = Array(text) + Array("\n\n<!---->\n\n".utf8)
    for label in labels { probe += Array(("[" + label + "]\n\n").utf8) }
    let document = parseText(probe)
    // cmark-gfm moves a referenced footnote definition to the end, after the probe's paragraphs
    // (`> [S]:/a`, `> [^T]:[^T]`: the probe read the footnote for `S`'s paragraph).
    let blocks = document.topLevelBlocks.filter { block in
      if case .footnoteDefinition = document.nodes[block].kind { return false }
      return true
    }
    guard blocks.count >= labels.count else { return [:] }
    var resolved: [String: MarkdownNode.LinkInfo] = [:]
    for (label, block) in zip(labels, blocks.suffix(labels.count)) where block + 1 < document.nodes.count {
      guard case .paragraph = document.nodes[block].kind, case .link(let link) = document.nodes[block + 1].kind
      else { continue }
      resolved[label] = link
    }
    return resolved
  }

  /// The longest pieces kept whole (1 KB): a longer one is cut after its leading definitions when
  /// the cut resolves every label as the whole piece does (``definitionsOnly(_:labels:)``).
  static let definitionPieceLimit = 1024

  /// `text` (closed, defining `labels`, no footnotes) cut after its leading run of definition
  /// lines, when the cut defines every label as `text` does; else `text`.
  ///
  /// A paragraph that starts with a definition (`[x]: u`, then text) closes as one piece, and
  /// every later parse that uses the label carries the piece in its preamble: a paragraph of
  /// several KB before a table whose rows use the label made every row's update parse it again
  /// (fuzz seed 1250: 18 KB of preamble per update). Two parses check the cut, once per piece.
  private mutating func definitionsOnly(_ text: ArraySlice<UInt8>, labels: Set<String>) -> ArraySlice<UInt8> {
    guard text.count > Self.definitionPieceLimit, !labels.isEmpty,
      !SourceLines.contains(Array(text), 0..<text.count, DefinitionStore.footnoteOpener)
    else { return text }
    // The leading lines that may be definitions (`[label]:`) or their continuation (a
    // destination or title on a line of its own).
    var cut = text.startIndex
    while cut < text.endIndex {
      let line = text[cut..<(text[cut...].firstIndex(of: ASCII.newline).map { $0 + 1 } ?? text.endIndex)]
      let content = line.drop { $0 == ASCII.space }
      guard let first = content.first,
        ReferenceLabels.definitionLabelEnd(in: content) != nil || first == ASCII.tab || first == UInt8(ascii: "\"")
          || first == UInt8(ascii: "'") || first == ASCII.openParenthesis || first == ASCII.lessThan
      else { break }
      cut = line.endIndex
    }
    guard cut > text.startIndex, cut < text.endIndex else { return text }
    let sorted = labels.sorted()
    let whole = resolvedLinks(text, sorted)
    guard whole.count == labels.count, resolvedLinks(text[..<cut], sorted) == whole else { return text }
    return text[..<cut]
  }

  /// Where the last line that starts a link label (`[`, after up to three spaces, not `[^`)
  /// starts in `text`, or nil.
  static func lastLabelLine(_ text: [UInt8]) -> Int? {
    var lineStart = text.count
    while lineStart > 0 {
      let start = SourceLines.lineStart(text, endingAt: lineStart)
      if startsLabel(text, line: start) { return start }
      lineStart = start
    }
    return nil
  }

  /// Whether the line starting at `start` starts a link label (`[`, after up to three spaces,
  /// not `[^`).
  static func startsLabel(_ text: [UInt8], line start: Int) -> Bool {
    var index = start
    while index < text.count, index - start < 3, text[index] == ASCII.space { index += 1 }
    return index < text.count && text[index] == ASCII.openBracket
      && (index + 1 >= text.count || text[index + 1] != ASCII.caret)
  }

  /// Takes the link definitions written one per line that start the open part (`text`, from
  /// `closedEnd`) before `split`, the start of its last line starting a label, past
  /// ``definitionRunLimit``: all but the last are complete once a line starting a new label
  /// follows them (the last may still get its title on the next line). They stay in an open
  /// paragraph, though, and a delimiter row may yet make its last line a table's header and
  /// every line before it text; below the limit they stay open, so that case is exact. The open
  /// part moves to `split`, and its paragraph's bytes before it are kept for the guard.
  mutating func takeDefinitions(_ text: [UInt8], upTo split: Int, linesAreSure: Bool) {
    let start = closedEnd
    let run = definitionRun(before: split, of: text)
    defineOneByOne(text, upTo: split, base: start, linesAreSure: linesAreSure)
    advanceClosed(to: start + split)
    definitionRunBytes = run
  }

  /// The bytes of the open part's paragraph before `split` in `text` (the open part), with those
  /// of its lines taken before, as the input guard counts a paragraph: a line's bytes without its
  /// line ending, and one for the end. Past ``definitionRunLimit`` the guard splits a table's
  /// header line after them off the paragraph (at the limit it does not: a review).
  func definitionRun(before split: Int, of text: [UInt8]) -> Int {
    guard split > 1 else { return definitionRunBytes + split }
    let crlf = zip(text[..<split], text[1..<split]).count { $0 == ASCII.carriageReturn && $1 == ASCII.newline }
    return definitionRunBytes + split - crlf
  }

  /// Keeps closed link definitions written one per line (`text`, nothing but definitions) a
  /// definition at a time where a parse confirms one ends before a line starting a new label, so
  /// that a later preamble carries only the definitions it cites (a label defined 300 times
  /// is carried once). A title running on over lines keeps its lines together.
  ///
  /// With `linesAreSure`, every line is one whole definition (``SureDefinitionLines``): no parse
  /// checks it.
  ///
  /// - Complexity: a few parses of each definition, once.
  mutating func defineOneByOne(_ text: [UInt8], upTo end: Int, base: Int, linesAreSure: Bool = false) {
    var start = 0
    var failedProbes = 0
    for line in SourceLines.lineStarts(text, to: end) where line > start && line < end {
      guard Self.startsLabel(text, line: line) else { continue }
      if linesAreSure || isOnlyDefinitions(text[start..<line]) {
        define(text[start..<line], base: base)
        start = line
        failedProbes = 0
      } else {
        // Each probe reads from `start` again: a title running on over hundreds of lines that
        // start labels (`[x]: u`) made one update parse 23 times its open part (fuzz seed 1312).
        // Past a few, the rest is kept as one group, as a parse confirmed it is.
        failedProbes += 1
        if failedProbes >= Self.probesPerDefinition { break }
      }
    }
    if start < end { define(text[start..<end], base: base) }
  }

  /// How many lines starting a label ``defineOneByOne(_:upTo:base:linesAreSure:)`` tries as the
  /// end of one definition before it keeps the rest as one group.
  static let probesPerDefinition = 4

  /// The held blocks as shown: pending links marked, unresolved footnote references hidden,
  /// footnotes numbered after the committed blocks.
  mutating func heldDisplay(from position: Int) -> [MarkdownStreamHeldBlock] {
    if position == 0 { outbox.heldFootnotes = FootnoteNumbering.Overlay() }
    var blocks: [MarkdownStreamHeldBlock] = []
    blocks.reserveCapacity(max(0, held.count - position))
    for offset in min(position, held.count)..<held.count {
      let entry = held.entry(atOffset: offset)
      let numbered = footnotes.number(entry.document, overlay: &outbox.heldFootnotes)
      let display: MarkdownDocument
      // The same numbered document as last shown (the same array, or equal after a renumbering
      // that gave the same numbers): the same display.
      if let shown = entry.shown, shown.numbered == numbered {
        display = shown.display
      } else {
        display = markingPending(
          Self.hidingFootnoteText(numbered), firstLine: entry.lines.lowerBound, in: entry.sourceRange)
        held.setShown((numbered, display), atOffset: offset)
      }
      blocks.append(MarkdownStreamHeldBlock(id: entry.id, document: display, sourceRange: entry.sourceRange))
    }
    return blocks
  }

  /// `document`, a closed block numbered by the reply's lines from `firstLine` and read from
  /// `source[sourceRange]`, with its pending links marked: none at brackets that source escapes
  /// (`- \\[a]` in a held list showed a pending link; a review).
  ///
  /// - Complexity: O(n) in the block's bytes.
  func markingPending(_ document: MarkdownDocument, firstLine: Int, in sourceRange: Range<Int>) -> MarkdownDocument {
    let text = Array(source[sourceRange])
    guard EscapedBrackets.mayEscapeBrackets(text) else { return PendingReferences.mark(document) }
    let local = Self.shifted(document, lines: 1 - firstLine)
    return Self.shifted(PendingReferences.mark(local, source: text), lines: firstLine - 1)
  }

  // MARK: Glued tables

  /// A sentence glued to a table (`Intro:` right above `| a | b |`): once the delimiter row has
  /// made the table, the paragraph before its header line is final. It closes on its own, so
  /// the table starts the open part and settles its rows like any table. Returns whether it
  /// split (another pass then looks at the table).
  private mutating func splitGluedTable(
    _ unit: Unit, document: MarkdownDocument, text: [UInt8], lines: [Int], start: Int
  ) -> Bool {
    guard let table = unit.blocks.last, case .table = document.nodes[table].kind else { return false }
    let before = unit.blocks.dropLast()
    guard before.allSatisfy({ if case .paragraph = document.nodes[$0].kind { true } else { false } }) else {
      return false
    }
    func offset(_ line: Int) -> Int { Self.lineStart(line, lines: lines, count: text.count) }
    // The header is the line above the first delimiter row.
    var header: Int?
    var line = unit.startLine + 1
    while line <= unit.endLine && line < lines.count {
      let row = text[offset(line)..<offset(line + 1)]
      if Self.isDelimiterRow(row) && row.contains(UInt8(ascii: "-"))
        && text[offset(line - 1)..<offset(line)].contains(ASCII.pipe)
      {
        header = line - 1
        break
      }
      line += 1
    }
    guard let header, header > unit.startLine else { return false }
    let unitStart = offset(unit.startLine)
    let headerStart = offset(header)
    let alone = parseRegion(text[unitStart..<headerStart])
    let aloneBlocks = Array(alone.topLevelBlocks)
    guard aloneBlocks.count == before.count,
      zip(aloneBlocks, before).allSatisfy({ Self.sameSubtree(alone, $0, document, $1) })
    else { return false }
    // The table must be the same table without the paragraph: a header line that continued the
    // paragraph lazily (indented by four columns or more) would start indented code on its own.
    let tableAlone = parseRegion(text[headerStart..<min(offset(unit.endLine + 1), text.count)])
    let tableBlocks = Array(tableAlone.topLevelBlocks)
    guard tableBlocks.count == 1, Self.sameSubtree(tableAlone, tableBlocks[0], document, table) else { return false }
    // `closedEnd` is at the unit's start, `closedLine` its line. Definitions that the paragraph
    // lost before the table grew out of it (cmark-gfm takes them when a `=` line may underline it)
    // are kept as any block's: the table's rows use them (`[foo]:l`, `=`, `o||`, `-|-`, `[foo]`
    // ended with `[foo]` as text under `.live`: fuzz seed 1385).
    let ownUnkept = defineInside(text[unitStart..<headerStart], base: start)
    hold(
      Self.extract(alone, blocks: aloneBlocks, lineShift: closedLine - 1),
      used: text[unitStart..<headerStart], sourceRange: (start + unitStart)..<(start + headerStart),
      ownUnkept: ownUnkept)
    drain()
    return true
  }

  static func isDelimiterRow(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy {
      $0 == ASCII.pipe || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || ASCII.isSpace($0)
    }
  }

  /// Whether two subtrees hold the same nodes (positions aside).
  static func sameSubtree(_ a: MarkdownDocument, _ x: Int, _ b: MarkdownDocument, _ y: Int) -> Bool {
    let count = a.nodes[x].subtreeEnd - x
    guard b.nodes[y].subtreeEnd - y == count else { return false }
    for step in 0..<count {
      let left = a.nodes[x + step]
      let right = b.nodes[y + step]
      guard left.kind == right.kind, left.depth - a.nodes[x].depth == right.depth - b.nodes[y].depth else {
        return false
      }
    }
    return true
  }

  // MARK: Closing

  static let definitionMarker = Array("]:".utf8)

  /// How many bytes of link definitions written one per line stay open before all but the last
  /// are taken as definitions: the input guard's ``InputLimits/maxTableHeaderScan`` (1 KB), as
  /// the guard counts them (``definitionRun(before:of:)``). Up to it, a delimiter row after them
  /// may make them text, and they stay open so that the stream ends as one-shot; past it the
  /// guard splits such a paragraph off the table's header line, so they are definitions after
  /// all, and the open part stays about one definition long.
  static let definitionRunLimit = InputLimits.default.maxTableHeaderScan
  static let footnoteMarker = Array("[^".utf8)

  /// Whether the line that ends at `end` (a line start) is blank.
  static func endsWithBlankLine(_ text: [UInt8], at end: Int) -> Bool {
    guard end > 0 else { return false }
    return SourceLines.isBlank(text, SourceLines.lineStart(text, endingAt: end)..<end)
  }

  /// Whether the footnote definition whose content cmark-gfm starts at `line` and byte `column`
  /// (1-based) of `text` starts inside its line: its `[^label]:` (found back from the content
  /// over blanks) comes after other text, or is indented four columns or more (a tab to the next
  /// multiple of four), so that it cannot be a top-level block of its own. False when no such
  /// marker is found there.
  static func definitionStartsInsideLine(_ text: [UInt8], lines: [Int], line: Int, column: Int) -> Bool {
    let start = lineStart(line, lines: lines, count: text.count)
    var index = min(text.count, start + max(0, column - 1))
    while index > start, ASCII.isBlank(text[index - 1]) { index -= 1 }
    guard index - 2 >= start, text[index - 1] == UInt8(ascii: ":"), text[index - 2] == ASCII.closeBracket else {
      return false
    }
    // The label holds no `]` but may hold `[` (`[^\[]:`, whose escaped `[` was taken for the
    // opener: the nested definition streamed as indented code, a review): its `[^` is the first
    // after the last `]` before its end.
    let close = index - 2
    let floor = text[start..<close].lastIndex(of: ASCII.closeBracket).map { $0 + 1 } ?? start
    guard
      let open = (floor..<close).first(where: {
        text[$0] == ASCII.openBracket && $0 + 1 < close && text[$0 + 1] == ASCII.caret
      })
    else { return false }
    let lead = text[start..<open]
    guard lead.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) else { return true }
    return indentColumns(lead) >= 4
  }

  /// The offset where 1-based `line` starts: lines before the text clamp to 0, lines past it to `count`.
  static func lineStart(_ line: Int, lines: [Int], count: Int) -> Int {
    line < 1 ? 0 : line - 1 < lines.count ? lines[line - 1] : count
  }

  /// Whether a block of this kind, after a blank line, is continued only by an indented line
  /// (a footnote definition, indented code): it ends when the next line begins without one.
  static func endsAtUnindentedLine(_ kind: MarkdownNode.Kind) -> Bool {
    switch kind {
    case .footnoteDefinition: true
    case .codeBlock(let info): !info.isFenced
    default: false
    }
  }

  /// Whether the last block of the complete lines can no longer change; `textEnd` is where those
  /// lines end in the received text (what follows them may decide).
  /// Whether `text` opens, after blank lines and blanks, with `[` (a definition may start there).
  static func startsWithLabel(_ text: ArraySlice<UInt8>) -> Bool {
    var index = text.startIndex
    while index < text.endIndex,
      ASCII.isBlank(text[index]) || text[index] == ASCII.newline
        || text[index] == ASCII.carriageReturn
    {
      index += 1
    }
    return index < text.endIndex && text[index] == ASCII.openBracket
  }

  /// Whether the complete lines `lines` (at least one) all open with up to three spaces and `>`:
  /// then they are one block quote that no line of them closes (each continues it), so a parse of
  /// them would close no block.
  ///
  /// - Complexity: O(n).
  static func isOneOpenQuote(_ lines: ArraySlice<UInt8>) -> Bool {
    guard !lines.isEmpty else { return false }
    var index = lines.startIndex
    while index < lines.endIndex {
      var spaces = 0
      while index < lines.endIndex, lines[index] == ASCII.space, spaces < 3 {
        spaces += 1
        index += 1
      }
      guard index < lines.endIndex, lines[index] == ASCII.greaterThan else { return false }
      while index < lines.endIndex, lines[index] != ASCII.newline, lines[index] != ASCII.carriageReturn { index += 1 }
      if index < lines.endIndex, lines[index] == ASCII.carriageReturn { index += 1 }
      if index < lines.endIndex, lines[index] == ASCII.newline { index += 1 }
    }
    return true
  }

  func isClosedAtEnd(_ document: MarkdownDocument, block: Int, text: [UInt8], lines: [Int], textEnd: Int) -> Bool {
    if Self.endsAtUnindentedLine(document.nodes[block].kind) {
      // cmark-gfm may count the blank lines in its range: read the text's last line instead.
      // A footnote definition opening the next line ends it without a blank line too.
      return Self.endsWithBlankLine(text, at: text.count) && nextLineStarted(after: textEnd)
        || nextLineOpensFootnote(after: textEnd)
    }
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
      let openerStart = Self.lineStart(range.start.line, lines: lines, count: text.count)
      guard let opener = FenceLine(text[openerStart...]) else { return false }
      return Self.isClosingFence(lastLine, fence: opener.character, length: opener.length)
    default:
      return false
    }
  }

  /// Whether the text of a leaf block holds a bracketed span (`[x]`) that a later definition
  /// could link: a `[` and a later `]` in its text nodes, whatever inline nodes lie between or
  /// around them (`*[*][ref]`: parsed without the definition, the `[` stands in an emphasis and
  /// the `]` after it; with it, `[*]` is the link's text: fuzz seed 1263).
  static func mayBecomeReferenceLink(_ nodes: ArraySlice<MarkdownNode>) -> Bool {
    var open = false
    for node in nodes {
      switch node.kind {
      case .text(let string):
        for byte in string.utf8 {
          if byte == UInt8(ascii: "[") { open = true }
          if byte == UInt8(ascii: "]") && open { return true }
        }
      case let kind where kind.isBlock:
        open = false
      default:
        break
      }
    }
    return false
  }

  static func isClosingFence(_ line: ArraySlice<UInt8>, fence: UInt8, length: Int) -> Bool {
    FenceLine(line)?.closes(character: fence, length: length) ?? false
  }
}
