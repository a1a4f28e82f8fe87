/// Turns the open part of a streaming reply into a displayable document: holds back what the next
/// characters could still turn into something else, closes what is unclosed (innermost first), and
/// parses the result.
///
/// Every hold and close is a named ``HealRule`` (the table, with a line on each); this type only
/// runs them in order: received bytes, the last line, the parsed open block, its inline content,
/// whether the open paragraph or heading kept its kind, then the parsed display. Holds never reach before the
/// current line (the line just ended, when the input ends with a line break), except for a table
/// header waiting for its delimiter row and a definition's label over lines (at most 1,000 bytes)
/// closed on the last line. Nothing before `protectedLength` (complete context
/// lines) is ever changed.
///
/// - Complexity: one or two parses of `input` and scans linear in it (the inline scan repeats
///   only after a cut, at most ``maximumInlinePasses`` times); two more when the open
///   paragraph's last line is held (``HealRule/leafKeepsItsKind``).
struct StreamHealer {
  /// How the open part's last line is read.
  enum Context {
    /// Markdown blocks (the general case, list items and table rows).
    case blocks
    /// The last line is inside an open fenced code block with this fence.
    case fencedCode(fence: UInt8, length: Int)
  }

  let options: ParseOptions

  /// The answers of the probes for where an open paragraph's inline content starts, from earlier
  /// heals (a stream keeps them from one heal to the next).
  var probes = InlineStartProbes()

  /// The bytes this heal may still parse for probes not answered before (set by the first
  /// ``inlineStart(_:leaf:)`` of a heal: ``probeBudget`` times its paragraph).
  private var probeBytesLeft: Int?

  /// How many parses of the whole input (its protected part included) the heals so far made: the
  /// stream counts the protected part as context parsed once per parse (``MarkdownStreamStatistics/lookbackBytes``).
  private(set) var wholeParses = 0

  /// The input of the heal under way, as received: its task items are checked as it checks them
  /// (``ReceivedTaskStates``).
  private var received: [UInt8] = []

  /// Whether an inline heal of this heal left an opener as text (``Healed/leavesOpener``).
  private var leftOpener = false

  /// Where the destination of an inline link still arriving starts in the input, when the open
  /// leaf's heal cut at that link's `]` and changed nothing else after the scan
  /// (``Healed/openDestination``).
  private var openDestination: Int?

  /// Whether the last inline heal wrote a pending link's placeholder or a separator, which
  /// ``HealRule/closersNeverShow`` looks for in the parse.
  private var wroteMarks = false

  init(options: ParseOptions, probes: InlineStartProbes = InlineStartProbes()) {
    self.options = options
    self.probes = probes
  }

  /// The healed document; its links whose destination has not arrived are pending
  /// (``MarkdownNode/LinkInfo/isPending``).
  struct Healed {
    var document: MarkdownDocument
    /// Where the open paragraph this heal found starts in the healed input, when its last line
    /// was not held: a later heal of the same paragraph, grown on the same line, may pass it as
    /// `knownParagraph` and skip the parse that finds it.
    var paragraphStart: Int?
    /// Whether the heal left a run that can open emphasis, or a bracket, unmatched, as text (an
    /// intraword `2*3`, a `[` before a link: ``InlineHealScanner/Result/heal(truncateAt:closers:leavesOpener:)``):
    /// text after the healed text may read differently (a closer matches the run; no address is
    /// linked after the bracket), so no clean point follows it.
    var leavesOpener = false
    /// Where the destination of an inline link still arriving starts in the input (after its
    /// `(`), when the heal cut the open paragraph, heading or row at that link's `]` and its
    /// parse stood: bytes that continue the destination and keep it incomplete change nothing
    /// shown (``OpenDestination``). ``MarkdownStream`` hands it on as a received offset.
    var openDestination: Int?
  }

  /// How many times the inline content is scanned again after a cut (an image, tag or entity
  /// still arriving) before its closers are taken as they stand.
  static let maximumInlinePasses = 16

  mutating func heal(_ input: [UInt8], protectedLength: Int, context: Context) -> Healed {
    var applied = AppliedHealRules()
    return heal(input, protectedLength: protectedLength, context: context, applied: &applied)
  }

  /// ``heal(_:protectedLength:context:)``, recording in `applied` the rules that changed the display.
  ///
  /// With `knownParagraph`, the open block is taken to be the paragraph whose inline content
  /// starts there (a ``Healed/paragraphStart`` of an earlier heal whose input this one extends on
  /// the same, settled line): the parse that finds the open block is skipped, so the heal parses
  /// once.
  ///
  /// With `endsBeforeBlank`, the input is received text that a blank follows (a clean point's
  /// heal, ``MarkdownStream``'s `TailCheckpoint`): what ends it is final — markers at the end are
  /// not held back, and a `]` there waits for nothing.
  ///
  /// With `readsFirstLine`, an open part that is one line whose first bytes open a paragraph
  /// (``OpenLeaf/firstLineParagraph(_:lineStart:)``) is that paragraph, and the parse that finds
  /// the open block is skipped too.
  ///
  /// With `continuesTable`, the protected part ends in a table held open (a long table's head and
  /// settled rows): an open part that is one line sure to continue it
  /// (``OpenLeaf/continuingTableRow(_:lineStart:)``) is that table's open row, and the parse that
  /// finds the open block is skipped too.
  mutating func heal(
    _ input: [UInt8], protectedLength: Int, context: Context, knownParagraph: Int? = nil,
    continuesTable: Bool = false, readsFirstLine: Bool = false, endsBeforeBlank: Bool = false,
    applied: inout AppliedHealRules
  ) -> Healed {
    var text = input
    received = input
    defer { received = [] }
    probeBytesLeft = nil
    leftOpener = false
    openDestination = nil
    // Received bytes.
    if ByteHolds.trimCarriageReturn(&text, floor: protectedLength) { applied.insert(.trailingCarriageReturn) }
    // Before a received blank, the last character is complete.
    if !endsBeforeBlank && ByteHolds.trimGrowableGrapheme(&text, floor: protectedLength) {
      applied.insert(.growableGrapheme)
    }
    // The last line.
    let lineStart = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
    var lineHeld = false
    switch context {
    case .fencedCode(let fence, let length):
      if lineStart < text.count && ByteHolds.isFenceCloserPrefix(text[lineStart...], fence: fence, length: length) {
        text.removeSubrange(lineStart...)
        applied.insert(.fenceCloserPrefix)
      }
      return finish(text, applied: &applied)
    case .blocks:
      // The last line inside a fence the open part opened (not yet settled as a long block): code,
      // which no marker makes another block (a review: `# H`, a fence, `ab`, then `*` hid the `*`).
      // The scan reads a fence line inside a raw HTML block, or in a list item that has ended, as
      // a top-level fence: the parse confirms it, or the last line is read as blocks (`<div>`,
      // a fence line, a blank, then `_a` showed `_a` where a lone `_a` shows emphasis: fuzz seed
      // 1354). A confirmed fence's parse is the display's; only a misread line costs a parse more.
      if let fence = Self.openFence(text, from: protectedLength, to: lineStart) {
        var code = text
        var codeRules = applied
        if lineStart < code.count
          && ByteHolds.isFenceCloserPrefix(code[lineStart...], fence: fence.character, length: fence.length)
        {
          code.removeSubrange(lineStart...)
          codeRules.insert(.fenceCloserPrefix)
        }
        let document = parse(code)
        if OpenLeaf.endsInFencedCode(document) {
          applied = codeRules
          return finish(code, document: document, applied: &applied)
        }
      }
      if lineStart < text.count, let rule = LineHold(text[lineStart...]).rule {
        text.removeSubrange(lineStart...)
        applied.insert(rule)
        lineHeld = true
      } else if let cut = DefinitionLabelOverLinesHold.cut(text, lineStart: lineStart, protectedLength: protectedLength)
      {
        text.removeSubrange(cut...)
        applied.insert(.definitionLabelOverLines)
        lineHeld = true
      } else if let cut = DefinitionTitleHold.cut(text, lineStart: lineStart, protectedLength: protectedLength) {
        text.removeSubrange(cut...)
        applied.insert(.definitionTitleAfterDefinition)
        lineHeld = true
      }
    }
    // Not where the byte holds left nothing of the paragraph (`- [ ] é`, its last character still
    // growable, showed nothing where the parse shows the empty item: the fast-path sweep).
    // The open block without a parse: the paragraph an earlier heal found, or a long table's row.
    var known: OpenLeaf?
    if !lineHeld {
      if let start = knownParagraph, start < text.count {
        known = OpenLeaf(kind: .paragraph, start: start, contentEnd: text.count, isOpen: true)
      } else if continuesTable && lineStart == protectedLength {
        known = OpenLeaf.continuingTableRow(text, lineStart: lineStart)
      } else if readsFirstLine && lineStart == protectedLength {
        known = OpenLeaf.firstLineParagraph(text, lineStart: lineStart)
      }
    }
    if let open = known {
      var trial = applied
      let (healedText, document, held) = healLeaf(
        text, leaf: open, document: nil, protectedLength: protectedLength, endsBeforeBlank: endsBeforeBlank,
        applied: &trial)
      // Held, the paragraph may have ended since the last heal found it (its last line grew into
      // a list item that interrupts it), or the row made another block: the open block is looked
      // for again, below.
      if !held {
        applied = trial
        var healed = finish(healedText, document: document, applied: &applied)
        if open.kind == .paragraph { healed.paragraphStart = open.start }
        healed.openDestination = openDestination
        return healed
      }
    }
    // The parsed open block.
    var document = parse(text)
    if !document.diagnostics.isEmpty {
      // Past a limit the parse read the guarded text, whose positions are not the input's: the
      // heal goes on from the guarded text (what the final rendering shows too; the parse is its
      // parse), when the guard left the protected part alone.
      let guarded = Array(InputGuard.apply(String(decoding: text, as: UTF8.self), options: options).text.utf8)
      if guarded.count >= protectedLength && guarded[..<protectedLength] == text[..<protectedLength] {
        text = guarded
      }
    }
    var leaf = OpenLeaf.find(in: document, text: text)
    if let found = leaf, let cut = TableHeaderHold.cut(text, leaf: found, protectedLength: protectedLength) {
      text.removeSubrange(cut...)
      applied.insert(.tableHeaderUntilDelimiterRow)
      document = parse(text)
      leaf = OpenLeaf.find(in: document, text: text)
    }
    if let open = leaf, open.kind == .html, open.isOpen,
      let cut = Self.unterminatedTag(text, leaf: open, protectedLength: protectedLength)
    {
      text.removeSubrange(cut...)
      while let last = text.last, ASCII.isBlank(last), text.count > protectedLength { text.removeLast() }
      applied.insert(.unterminatedHTMLBlockTag)
      Self.dropEmptiedMarkers(&text, leafStart: open.start, protectedLength: protectedLength, applied: &applied)
      return finish(text, applied: &applied)
    }
    // A leaf whose content ends in the protected part is context, not the open part: where the
    // holds left nothing after a preamble (a line `[bar]` held as a possible definition after a
    // preamble ending in a setext heading), the heading was healed as the open leaf, cut below
    // the protected length, and the cut trapped (fuzz seed 1401).
    guard let open = leaf, open.isInline, open.isOpen, open.contentEnd > protectedLength else {
      return finish(text, document: document, applied: &applied)
    }
    // The open block's inline content.
    let (healedText, healedDocument, held) = healLeaf(
      text, leaf: open, document: document, protectedLength: protectedLength, endsBeforeBlank: endsBeforeBlank,
      applied: &applied)
    var healed = finish(healedText, document: healedDocument, applied: &applied)
    if open.kind == .paragraph && !lineHeld && !held { healed.paragraphStart = open.start }
    if !lineHeld && !held { healed.openDestination = openDestination }
    return healed
  }

  /// Heals the inline content of `leaf` in `text` (whose parse is `document`, when known) and
  /// parses the result; whether ``HealRule/leafKeepsItsKind`` held the last line (or heading).
  ///
  /// A line reduced to list or quote markers by the inline holds shows nothing yet. And an open
  /// paragraph stays a paragraph that ends the display: where the holds and closers made its last
  /// line another block (a trailing backtick held back from `===`` or `---``, a setext underline;
  /// `**` closing after `**`, a break; `` ```/` `` less its backtick plus a pending link's closer, a
  /// fence whose info string showed the closer: fuzz seed 1285), the line is held whole, and
  /// the lines before it are healed again; should that fail too, they show as received (a
  /// paragraph's lines before its last are a paragraph as received). An open heading stays a
  /// heading, or waits whole; so does a table's last row (`---*` less its held `*` is a break).
  ///
  /// - Complexity: one parse, or up to three when the last line is held.
  private mutating func healLeaf(
    _ text: [UInt8], leaf: OpenLeaf, document: MarkdownDocument?, protectedLength: Int, endsBeforeBlank: Bool,
    applied: inout AppliedHealRules
  ) -> (text: [UInt8], document: MarkdownDocument, held: Bool) {
    func holdMarkerLine(_ bytes: inout [UInt8], applied: inout AppliedHealRules) {
      let last = SourceLines.lineStart(bytes, before: bytes.count, floor: protectedLength)
      if last < bytes.count, let rule = LineHold(bytes[last...]).rule {
        bytes.removeSubrange(last...)
        applied.insert(rule)
      }
    }
    var healed = text
    wroteMarks = false
    openDestination = nil
    let destination = healInline(
      &healed, leaf: leaf, protectedLength: protectedLength, endsBeforeBlank: endsBeforeBlank, applied: &applied)
    let inlineHealed = healed.count
    holdMarkerLine(&healed, applied: &applied)
    if leaf.kind == .paragraph {
      Self.dropEmptiedMarkers(&healed, leafStart: leaf.start, protectedLength: protectedLength, applied: &applied)
    }
    // Nothing closed or held back: the first parse stands.
    if healed == text, let document { return (healed, document, false) }
    let parsed = parse(healed)
    guard leaf.kind == .paragraph || leaf.kind == .heading || leaf.kind == .tableRow else {
      return (healed, parsed, false)
    }
    // The inline heal's cut at a link still arriving stands when no line hold followed it.
    if healed.count == inlineHealed { openDestination = destination }
    // A closer the parse read otherwise than the scanner (into an address or a tag the scan
    // ended early, past a container's markers) would show: the line waits as for another block.
    let showsCloser = wroteMarks && HealedDisplayMarks.showsHealMarks(parsed, healed: healed, received: text)
    guard showsCloser || !Self.keepsLeaf(parsed, text: healed, start: leaf.start, kind: leaf.kind) else {
      return (healed, parsed, false)
    }
    openDestination = nil
    applied.insert(showsCloser ? .closersNeverShow : .leafKeepsItsKind)
    var ignored = AppliedHealRules()
    if leaf.kind == .tableRow {
      // A row the holds made another block (`---*` less its held `*` is a break that ends the
      // table: fuzz seed 1328) waits whole; the table shows without it.
      let cut = SourceLines.lineStart(text, before: min(leaf.start, text.count), floor: protectedLength)
      let held = Array(text[..<cut])
      return (held, parse(held), true)
    }
    if leaf.kind == .heading {
      // A heading whose content the holds emptied: a setext underline alone is a break (`<`,
      // then `---`: fuzz seed 1287). It waits whole.
      var held = Array(text[..<max(leaf.start, protectedLength)])
      holdMarkerLine(&held, applied: &ignored)
      return (held, parse(held), true)
    }
    // The received paragraph's last line, held whole.
    let floor = max(leaf.start, protectedLength)
    var end = text.count
    while end > floor, InlineHealScanner.isLineEnd(text[end - 1]) || ASCII.isBlank(text[end - 1]) { end -= 1 }
    let cut = SourceLines.lineStart(text, before: end, floor: floor)
    var shorter = Array(text[..<cut])
    let before = OpenLeaf(kind: .paragraph, start: leaf.start, contentEnd: cut, isOpen: true)
    healInline(&shorter, leaf: before, protectedLength: protectedLength, applied: &ignored)
    holdMarkerLine(&shorter, applied: &ignored)
    let reparsed = parse(shorter)
    if Self.keepsLeaf(reparsed, text: shorter, start: leaf.start, kind: .paragraph),
      !HealedDisplayMarks.showsHealMarks(reparsed, healed: shorter, received: text)
    {
      return (shorter, reparsed, true)
    }
    var received = Array(text[..<cut])
    holdMarkerLine(&received, applied: &ignored)
    return (received, parse(received), true)
  }

  /// ``HealRule/markerOnlyLine`` after a leaf (starting at `leafStart`) that the holds emptied:
  /// the container markers before it on its line alone may make another block (`- - - `, then a
  /// held backtick or tag, is a break; `a`, then `- ` and a held tag, a setext heading: fuzz seed
  /// 1290). They show nothing yet, as on a line of markers alone.
  static func dropEmptiedMarkers(
    _ text: inout [UInt8], leafStart: Int, protectedLength: Int, applied: inout AppliedHealRules
  ) {
    let start = min(leafStart, text.count)
    guard start > protectedLength, SourceLines.isBlank(text, start..<text.count) else { return }
    let lineStart = SourceLines.lineStart(text, before: start, floor: protectedLength)
    guard lineStart < start && !SourceLines.isBlank(text, lineStart..<start) else { return }
    text.removeSubrange(lineStart...)
    applied.insert(.markerOnlyLine)
  }

  /// Whether `document`, a parse of `text`, still ends in a block of `kind` (a paragraph or a
  /// heading) starting at `start`, or shows nothing from there.
  static func keepsLeaf(_ document: MarkdownDocument, text: [UInt8], start: Int, kind: OpenLeaf.Kind) -> Bool {
    if start >= text.count || SourceLines.isBlank(text, start..<text.count) { return true }
    guard let leaf = OpenLeaf.find(in: document, text: text) else { return false }
    return leaf.kind == kind && leaf.start == start
  }

  /// Applies the inline rules to the content of `leaf`: trailing markers are held, what is still
  /// arriving is cut, and the closers of what stays open are appended before the rest of the line.
  /// Returns where the destination of a link still arriving starts, when the scan that stood cut
  /// at that link (``InlineHealScanner/Result/heal(truncateAt:closers:leavesOpener:destination:)``).
  @discardableResult
  private mutating func healInline(
    _ text: inout [UInt8], leaf: OpenLeaf, protectedLength: Int, endsBeforeBlank: Bool = false,
    applied: inout AppliedHealRules
  ) -> Int? {
    let original = text
    // Where a link still arriving is cut, from the pass whose result stands.
    var destination: Int?
    // Trailing markers of a finished construct are trimmed and closed again (`**bold**`): only
    // rules that changed the text count as applied.
    var inline = AppliedHealRules()
    defer { if text != original { applied.formUnion(inline) } }
    var contentEnd = leaf.contentEnd
    let contentStart = inlineStart(text, leaf: leaf)
    // A paragraph's last line ended, and the next may continue it: closers go before the line
    // break (after it a closer starts a line, and closes nothing), and what ends the line is
    // final, as before a blank. A chunk that ended with a line break showed `a **b` raw.
    var lineEnded = false
    if leaf.kind == .paragraph {
      while contentEnd > max(contentStart, protectedLength), InlineHealScanner.isLineEnd(text[contentEnd - 1]) {
        contentEnd -= 1
        lineEnded = true
      }
    }
    let suffix = Array(text[contentEnd...])
    text.removeSubrange(contentEnd...)
    let floor = max(contentStart, protectedLength)
    var closers: [UInt8] = []
    for pass in 0..<Self.maximumInlinePasses {
      let before = text.count
      // Markers before a received blank are final (no later byte joins their run or changes
      // their flanking), and so is a `]` there; at the very end they are held back.
      // Not backticks: a code span may open before a blank (a clean point's count keeps it from
      // ending on an opening run).
      var followed = (endsBeforeBlank || lineEnded) && pass == 0
      // After a cut too: the blanks it left last were received, and what precedes them is
      // followed by a blank, as at the very end (`![foo] ![a` was cut before the second image, and
      // the `]` then read as one a `(` may still follow: the first image was hidden too, where
      // `![foo] ` shows it; fuzz seed 1365).
      if pass > 0 || !endsBeforeBlank {
        // Unicode spaces too: a closer after one would close nothing (`*a`, NBSP).
        while case let space = ByteHolds.trailingSpaceLength(text[...], floor: floor), space > 0 {
          text.removeLast(space)
          followed = true
        }
        // Backticks before the blank, and what they leave at the end of the text: a line break
        // that ended a line of backticks (`[```` then a line of one backtick) would start the
        // closers' own line, where a backtick closer makes a fence opener.
        while followed, text.count > floor, let last = text.last,
          last == ASCII.backtick || ASCII.isBlank(last) || InlineHealScanner.isLineEnd(last)
        {
          text.removeLast()
        }
      }
      contentEnd = followed ? text.count : ByteHolds.trimTrailingMarkers(&text, floor: floor)
      if contentEnd < before { inline.insert(.trailingMarkers) }
      var scanner = InlineHealScanner(
        bytes: text, start: contentStart, end: contentEnd,
        doubleTildeOnly: options.contains(.strikethroughDoubleTilde), strikethrough: options.contains(.strikethrough))
      scanner.footnotes = options.contains(.footnotes)
      scanner.autolinks = options.contains(.autolinks)
      scanner.blockStart = leaf.start
      // After a cut the text ends where the blank followed only if the cut left blanks last (above).
      scanner.followedByBlank = followed
      switch scanner.run(applied: &inline) {
      case .cut(let position, _):
        text.removeSubrange(max(position, protectedLength)...)
        contentEnd = text.count
        continue
      case .heal(let truncateAt, let found, let leavesOpener, let open):
        leftOpener = leftOpener || leavesOpener
        if let truncateAt {
          text.removeSubrange(max(truncateAt, protectedLength)...)
          // The markers the cut left last were read with the `]` after them: read again, they wait
          // (`[*a **](` showed `*a ***`: a review).
          if let last = text.last, !found.isEmpty, ByteHolds.isTrailingMarker(last) {
            contentEnd = text.count
            continue
          }
        }
        // A last backslash (before the line's end, if it came) would escape the first closer, which
        // then shows (`a *b\`, then a line break; `> # *a\` and a break; `*a\`, a break and a
        // held `<`); and where the line's end made the last markers final, a closer after them
        // would join them or make them flank otherwise (`a *b`, a line `*`; `~a ~~ `): the
        // backslash or the markers wait, as at the very end of the text, and what is left is
        // scanned again. Not in code (its closers start with a backtick), where a backslash
        // escapes nothing.
        if let first = found.first, first != ASCII.backtick {
          var end = text.count
          while end > floor, InlineHealScanner.isLineEnd(text[end - 1]) || ASCII.isBlank(text[end - 1]) { end -= 1 }
          let escapes = Self.endsInEscape(text[..<end], floor: floor)
          let last = end > floor ? text[end - 1] : nil
          if escapes || (followed && (last == ASCII.star || last == ASCII.underscore || last == ASCII.tilde)) {
            text.removeSubrange(end...)
            if escapes { text.removeLast() }
            contentEnd = text.count
            continue
          }
        }
        closers = found
        destination = open
      }
      break
    }
    // Closers never start a line: after one, they close nothing and may start a block (a fence,
    // a break). A cut that ended the text at a line start leaves them on the line before.
    if !closers.isEmpty {
      // Unicode spaces too, as spaces (`x [*a`, U+3000, `]`: the cut before the `]` left the
      // space last, and the closer after it closed nothing: a review).
      func trimLineEnd() {
        while text.count > floor, let last = text.last {
          let space = InlineHealScanner.isLineEnd(last) ? 1 : ByteHolds.trailingSpaceLength(text[...], floor: floor)
          guard space > 0 else { break }
          text.removeLast(space)
        }
      }
      trimLineEnd()
      // Nor on a line of quote or list markers alone (a held `<` or `[` left `> ` there), where they
      // would be its content (`>~a`, then `><`, showed `~a` and a line `~`: a trial).
      let lastLine = SourceLines.lineStart(text, before: text.count, floor: floor)
      if lastLine > floor && LineHold(text[lastLine...]).content.isEmpty {
        text.removeSubrange(lastLine...)
        trimLineEnd()
      }
      // Nor follow a tilde directly, should one still end the text (final markers wait above, but
      // not below the floor): a `~~` closer after `~` makes a run of three, which closes nothing,
      // after a line of one tilde a fence opener (fuzz seed 1280), and cmark-gfm reads a `*` or
      // `_` closer's neighbour past tildes. The separator (an HTML comment the display drops) keeps
      // them apart. Backtick closers after a final backtick would make a fence after a line of
      // them, and one run after the opener itself (`` a` ``, then a line `\` held); they end a
      // code span, where a comment would show as text (`` `> `` showed it: a review), and a space
      // keeps them apart.
      if text.last == ASCII.tilde, let first = closers.first,
        first == ASCII.tilde || first == ASCII.star || first == ASCII.underscore
      {
        text += InlineHealScanner.closerSeparator
        wroteMarks = true
      } else if closers.first == ASCII.backtick && text.last == ASCII.backtick {
        text += [ASCII.space]
      }
    }
    // A placeholder destination comes after a `(`; a separator holds its control byte.
    if closers.contains(where: { $0 == ASCII.openParenthesis || $0 == 1 }) { wroteMarks = true }
    text += closers
    text += suffix
    return destination
  }

  /// Whether `text` (after `floor`) ends in an odd run of backslashes: its last escapes what
  /// would follow.
  static func endsInEscape(_ text: ArraySlice<UInt8>, floor: Int) -> Bool {
    var index = text.endIndex
    while index > max(floor, text.startIndex) && text[index - 1] == ASCII.backslash { index -= 1 }
    return (text.endIndex - index) % 2 == 1
  }

  /// Where the inline content of `leaf` starts: after a paragraph's leading link reference
  /// definitions, which cmark-gfm takes out of it though its range starts with them (`[d]: /*x`,
  /// then `See it`, got a closer for the destination's `*`: a trial). A definition may spread
  /// over lines: its label over several, its destination on the line after the label's end, its
  /// title on a line of its own (`[d]: /u`, then `"*t"`). The lines looked at are those starting
  /// `[label]:` (the label ending on that line or a later one), the lines up to the one the label
  /// ends on, those starting a title (`"`, `'` or `(`), and the line after a label's end; the
  /// inline content starts after the last of them up to which the lines parse as nothing but
  /// definitions. (With a label read on one line only, `[a`, then `b]:[` and `]`, showed `[a b]`
  /// as a pending link: the destination's `[` and the `]` after it were taken for a link's text.)
  ///
  /// Among the lines looked at, a definition spans three at most besides its label's lines (the
  /// line after the label's end, a title's first line: a title spread over more lines ends the
  /// lines looked at, the inline content then starting no later than its first line), so three
  /// lines in a row outside a label that leave the lines so far no definitions end the search: no
  /// later line looked at can complete one that started before them (a paragraph whose first
  /// line only looks like a definition, followed by `[x]: u` lines, parsed its lines eight times
  /// per heal: fuzz seed 1304).
  ///
  /// Each question (do the lines so far parse to nothing?) is a parse from the paragraph's start.
  /// Its answer is kept for the next heals of the paragraph (``probes``), and one heal parses at
  /// most ``probeBudget`` times the paragraph for questions not answered before (the heal of a
  /// held last line asks again for the paragraph without it, within the same budget); past that,
  /// the lines looked at count as definitions until a later heal asks (a paragraph whose 2.7 KB
  /// first line only looks like a definition, then lines that look like one, made one update
  /// parse 18 times its open part, over the bound of 16: fuzz seed 1317).
  ///
  /// - Complexity: a parse of the lines so far per such line not asked about before, at most
  ///   ``maximumDefinitionLines`` and ``probeBudget`` times the paragraph's bytes in all; none for
  ///   a paragraph not starting so, nor for lines that are certainly one definition each after
  ///   definitions.
  private mutating func inlineStart(_ text: [UInt8], leaf: OpenLeaf) -> Int {
    guard leaf.kind == .paragraph else { return leaf.start }
    let paragraph = text[leaf.start..<leaf.contentEnd]
    var budget = probeBytesLeft ?? Self.probeBudget * paragraph.count
    defer { probeBytesLeft = budget }
    var asked = false
    var start = leaf.start
    var lineStart = leaf.start
    var afterLabel = false
    // Where the label of the last line starting one ends: the lines before it are inside it.
    var labelEnd = leaf.start
    var linesSinceDefinitions = 0
    // Whether the line before this one may hold a destination (it followed a label's end), and
    // the closer of a title an earlier line opened and no line closed yet: a title starts only on
    // the line after a destination's, and every line goes on with it while it is open.
    var previousAfterLabel = false
    var titleCloser: UInt8?
    for _ in 0..<Self.maximumDefinitionLines {
      guard linesSinceDefinitions < 3 else { break }
      guard let lineEnd = text[lineStart..<leaf.contentEnd].firstIndex(where: InlineHealScanner.isLineEnd) else {
        break
      }
      let insideLabel = lineStart < labelEnd
      let label = ASCII.afterBlockIndent(text, from: lineStart, to: lineEnd)
      let ownLabelEnd =
        insideLabel ? nil : ReferenceLabels.definitionLabelEnd(in: text[label..<leaf.contentEnd], spansLines: true)
      let isLabel = ownLabelEnd != nil
      if let ownLabelEnd { labelEnd = ownLabelEnd }
      let first = text[lineStart..<lineEnd].firstIndex { !ASCII.isBlank($0) }
      let startsTitle =
        first.map { [ASCII.quote, ASCII.apostrophe, ASCII.openParenthesis].contains(text[$0]) } ?? false
      // A line starting with a quote after a closed title, or after a line of text, is no
      // definition's (`[d]: /u`, `w`, `"t"`, `"*x`: probing it spent the budget, and the
      // emphasis after it showed unclosed until a later heal; fuzz seed 1417). Inside an open
      // title every line is the title's, whatever it starts with (a review: `"a`, `(b)`, `"`).
      let insideTitle = titleCloser != nil
      let isTitle = startsTitle && !insideTitle && (afterLabel || previousAfterLabel)
      // Only the first line must start a definition.
      guard isLabel || (lineStart > leaf.start && (isTitle || insideTitle || afterLabel || insideLabel)) else {
        break
      }
      let next =
        lineEnd
        + (text[lineEnd] == ASCII.carriageReturn && lineEnd + 1 < text.count
          && text[lineEnd + 1] == ASCII.newline ? 2 : 1)
      // Nothing but the document: the lines so far are definitions. So they are, with no parse,
      // when they were and this line is certainly one more (``SureDefinitionLines``).
      let sure = start == lineStart && SureDefinitionLines.isSure(text[lineStart..<lineEnd])
      if !sure && !asked {
        probes.begin(paragraph)
        asked = true
      }
      let lines = text[leaf.start..<next]
      let definitions: Bool
      if sure {
        definitions = true
      } else if let known = probes.answer(length: lines.count) {
        definitions = known
      } else if lines.count <= budget {
        budget -= lines.count
        definitions = MarkdownDocument(String(decoding: lines, as: UTF8.self), options: options).nodes.count <= 1
        probes.record(definitions, for: lines)
      } else {
        // Past the budget, the lines looked at count as definitions until a later heal asks: the
        // worst the display shows then is a closer missing after them, where counting them as
        // inline content could cut one (`[d]: /u "![t"` showed as a pending link, the paragraph
        // after it hidden: a review).
        definitions = true
      }
      if let closer = titleCloser {
        if ASCII.containsUnescaped(text[lineStart..<lineEnd], { $0 == closer }) { titleCloser = nil }
      } else if isTitle, let first {
        titleCloser = Self.closesTitle(text[first..<lineEnd]) ? nil : Self.titleCloser(of: text[first])
      } else if let ownLabelEnd, ownLabelEnd <= lineEnd {
        // A title may open after the destination on the label's line (`[d]: /u 'a`) or on the
        // line after it (`[d]:`, `/u 'a`).
        titleCloser = Self.openTitle(text[ownLabelEnd..<lineEnd])
      } else if afterLabel {
        titleCloser = Self.openTitle(text[lineStart..<lineEnd])
      }
      // The label's lines count as one: it ends on the last of them; so do a title's.
      let endsInsideLabel = labelEnd > next
      if definitions {
        start = next
        linesSinceDefinitions = 0
      } else if !endsInsideLabel && titleCloser == nil {
        linesSinceDefinitions += 1
      }
      previousAfterLabel = afterLabel
      // The line after the one the label ends on may hold the destination.
      afterLabel = labelEnd > lineStart && labelEnd <= next
      lineStart = next
    }
    return start
  }

  /// Whether `line`, starting with a title's opener (`"`, `'` or `(`), holds its unescaped closer.
  static func closesTitle(_ line: ArraySlice<UInt8>) -> Bool {
    guard let opener = line.first else { return false }
    let closer = titleCloser(of: opener)
    return ASCII.containsUnescaped(line.dropFirst()) { $0 == closer }
  }

  /// The byte that closes a title `opener` (`"`, `'` or `(`) opens.
  static func titleCloser(of opener: UInt8) -> UInt8 {
    opener == ASCII.openParenthesis ? ASCII.closeParenthesis : opener
  }

  /// The closer of a title that `line` opens after a destination and leaves open (`/u 'a`), if
  /// any: blanks, a destination (`<…>` or bytes up to a blank), blanks, then `"`, `'` or `(`
  /// with no closer after it on the line.
  static func openTitle(_ line: ArraySlice<UInt8>) -> UInt8? {
    var index = line.startIndex
    let end = line.endIndex
    while index < end && ASCII.isBlank(line[index]) { index += 1 }
    guard index < end else { return nil }
    if line[index] == ASCII.lessThan {
      index += 1
      while index < end && line[index] != ASCII.greaterThan {
        if line[index] == ASCII.backslash { index += 1 }
        index += 1
      }
      guard index < end else { return nil }
      index += 1
    } else {
      while index < end && !ASCII.isBlank(line[index]) { index += 1 }
    }
    let destinationEnd = index
    while index < end && ASCII.isBlank(line[index]) { index += 1 }
    guard index > destinationEnd, index < end,
      [ASCII.quote, ASCII.apostrophe, ASCII.openParenthesis].contains(line[index])
    else { return nil }
    let closer = titleCloser(of: line[index])
    return ASCII.containsUnescaped(line[(index + 1)...]) { $0 == closer } ? nil : closer
  }

  /// The opener of the top-level fenced code block that the lines of `text[start..<end]` (whole
  /// lines) leave open, if any: a line of up to three spaces and three or more backticks or
  /// tildes opens one, a line of at least as many of its character and blanks closes it. A
  /// candidate only: such a line inside a raw HTML block is HTML, and one in a list item ends with
  /// the item, which the heal learns from its parse.
  ///
  /// - Complexity: O(n) in the bytes read.
  static func openFence(_ text: [UInt8], from start: Int, to end: Int) -> FenceLine? {
    var open: FenceLine?
    var lineStart = start
    while lineStart < end {
      var lineEnd = lineStart
      while lineEnd < end && !InlineHealScanner.isLineEnd(text[lineEnd]) { lineEnd += 1 }
      var first = lineStart
      while first < lineEnd && first - lineStart < 4 && text[first] == ASCII.space { first += 1 }
      if first < lineEnd && (text[first] == ASCII.backtick || text[first] == ASCII.tilde),
        let line = FenceLine(text[lineStart..<lineEnd])
      {
        if let fence = open {
          if line.closes(character: fence.character, length: fence.length) { open = nil }
        } else if line.opens {
          open = line
        }
      }
      lineStart = lineEnd + 1
    }
    return open
  }

  /// How many leading definition lines ``inlineStart(_:leaf:)`` looks at.
  static let maximumDefinitionLines = 8

  /// How many times its paragraph's bytes one heal parses at most to learn where its inline
  /// content starts (``inlineStart(_:leaf:)``), for questions no earlier heal answered (an
  /// update's heals of the same paragraph share the answers).
  static let probeBudget = 2

  /// ``HealRule/unterminatedHTMLBlockTag``: the `<` of a tag still arriving on the last line of
  /// the open raw HTML block `leaf`.
  static func unterminatedTag(_ text: [UInt8], leaf: OpenLeaf, protectedLength: Int) -> Int? {
    let lineStart = max(SourceLines.lineStart(text, before: text.count, floor: protectedLength), leaf.start)
    guard let less = text[lineStart...].lastIndex(of: ASCII.lessThan), !text[less...].contains(ASCII.greaterThan)
    else { return nil }
    return less
  }

  /// Parses `text`, the whole input healed or held so far (counted in ``wholeParses``).
  private mutating func parse(_ text: [UInt8]) -> MarkdownDocument {
    wholeParses += 1
    return MarkdownDocument(String(decoding: text, as: UTF8.self), options: options)
  }

  private mutating func finish(
    _ text: [UInt8], document: MarkdownDocument? = nil, applied: inout AppliedHealRules
  ) -> Healed {
    let parsed = ReceivedTaskStates.apply(document ?? parse(text), healed: text, received: received)
    let endsWithLine = text.last == ASCII.newline || text.last == ASCII.carriageReturn
    var healed = HealedDisplayMarks.apply(
      parsed, source: text, incompleteLastLine: !text.isEmpty && !endsWithLine, options: options, applied: &applied)
    healed.leavesOpener = leftOpener
    return healed
  }
}

// The rules other streaming parts reuse, under the names they call.
extension StreamHealer {
  /// ``ByteHolds/trimGrowableGrapheme(_:floor:)`` (``HealRule/growableGrapheme``).
  static func trimGrowableGrapheme(_ text: inout [UInt8], floor: Int) {
    ByteHolds.trimGrowableGrapheme(&text, floor: floor)
  }

  /// ``ByteHolds/isFenceCloserPrefix(_:fence:length:)`` (``HealRule/fenceCloserPrefix``).
  static func isFenceCloserPrefix(_ line: ArraySlice<UInt8>, fence: UInt8, length: Int) -> Bool {
    ByteHolds.isFenceCloserPrefix(line, fence: fence, length: length)
  }

  /// ``HealedDisplayMarks/containsFootnoteOpener(_:)``.
  static func containsFootnoteOpener(_ string: String) -> Bool {
    HealedDisplayMarks.containsFootnoteOpener(string)
  }

  /// ``HealedDisplayMarks/hidingFootnoteReferences(_:)`` (``HealRule/unresolvedFootnoteReference``).
  static func hidingFootnoteReferences(_ string: String) -> String {
    HealedDisplayMarks.hidingFootnoteReferences(string)
  }

  /// ``HealedDisplayMarks/apply(_:incompleteLastLine:options:applied:)``: pending links, hidden
  /// footnote references and an open fence's last line, on an already parsed document.
  static func postprocess(_ parsed: MarkdownDocument, incompleteLastLine: Bool, options: ParseOptions) -> Healed {
    var applied = AppliedHealRules()
    return HealedDisplayMarks.apply(parsed, incompleteLastLine: incompleteLastLine, options: options, applied: &applied)
  }

  /// ``LineHold/holds(_:)``: whether an incomplete last line is held back whole.
  static func holdsLine(_ line: ArraySlice<UInt8>) -> Bool { LineHold.holds(line) }
}
