extension MarkdownStream {
  /// The rules a heal may apply and still leave a clean point: marks on the parsed display, no
  /// byte held back or closed.
  static let checkpointRules: [HealRule] = [.pendingReferenceLink, .unresolvedFootnoteReference]

  /// How far the last line grows after a failed attempt at a clean point before the next one.
  static let checkpointRetryDistance = 32

  /// An open part shorter than this is healed in full: one parse of it costs about what the two
  /// small parses of a heal through a clean point cost (measured: prose within 1% of a full heal
  /// at 128 bytes, 21% over it with no minimum).
  static let checkpointMinimum = 128

  /// The point moves on only past this many bytes, so most updates parse once.
  static let checkpointStep = 48

  /// Heals the open part that starts at `start`: through a ``TailCheckpoint`` when there is one
  /// (what arrived after the clean point is healed on its own and appended to the display before
  /// it), else in full (``healWithPreamble(_:head:from:to:applied:)``).
  ///
  /// - Complexity: with a clean point, the text after it (and an attempt to take a point, at most
  ///   once per ``checkpointRetryDistance`` bytes of the line); else the open part.
  mutating func healOpenPart(from start: Int, applied: inout AppliedHealRules) -> StreamHealer.Healed {
    // Not with smart punctuation: a `'` before a point shows as a right quote while nothing closes
    // it, and one after the point that closes it would make it a left quote (a review).
    if source.count - start >= Self.checkpointMinimum, !options.contains(.smartPunctuation),
      let healed = healThroughCheckpoint(from: start, applied: &applied)
    {
      return healed
    }
    applied = AppliedHealRules()
    return healWithPreamble(head: [], from: start, applied: &applied)
  }

  /// Where a heal of the open part that starts at `start` would start parsing: at the clean point
  /// when one holds for the last line (the refresh schedule weighs what a heal parses).
  func healStart(_ start: Int) -> Int {
    // Most updates have no point: no scan for the line then.
    guard outbox.checkpoint != nil else { return start }
    return currentCheckpoint(openStart: start, lineStart: received.lastLineStart(floor: start))?.end ?? start
  }

  /// The kept clean point, when it still holds: the open part and the last line start where they
  /// did when it was taken, nothing settled since, and the text reaches past it.
  private func currentCheckpoint(openStart: Int, lineStart: Int) -> TailCheckpoint? {
    guard let checkpoint = outbox.checkpoint, checkpoint.openStart == openStart, checkpoint.lineStart == lineStart,
      checkpoint.revision == settledRevision, checkpoint.end <= source.count
    else { return nil }
    return checkpoint
  }

  private mutating func healThroughCheckpoint(from start: Int, applied: inout AppliedHealRules)
    -> StreamHealer.Healed?
  {
    let end = source.count
    let lineStart = received.lastLineStart(floor: start)
    guard lineStart < end, PlainTextExtension.isSettled(line: source[lineStart..<end]) else {
      outbox.checkpoint = nil
      return nil
    }
    var point = currentCheckpoint(openStart: start, lineStart: lineStart)
    if point == nil {
      // A point lies past the line's quote and list markers, after a word of its content.
      let content = LineHold(source[lineStart..<end]).content.startIndex
      point = takeCheckpoint(from: start, lineStart: lineStart, floor: content)
    }
    // A task item is checked by `[x]` anywhere on its line (``ReceivedTaskStates``), which a
    // piece after the point would not tell the display before it.
    guard var checkpoint = point, !ReceivedTaskStates.holdsCheck(source[checkpoint.end..<end]) else {
      outbox.checkpoint = nil
      return nil
    }
    // Move the point to the last clean one in what arrived since, when that piece heals clean.
    if let next = TailCheckpoint.candidate(in: source, from: checkpoint.end),
      next - checkpoint.end >= Self.checkpointStep,
      case let (segment, rules, leavesOpener) = healSegment(checkpoint.end..<next, endsBeforeBlank: true),
      !leavesOpener, rules.rules.allSatisfy({ Self.checkpointRules.contains($0) }),
      let grown = TailCheckpoint.appending(segment, to: checkpoint.document, paragraph: checkpoint.paragraph)
    {
      checkpoint.document = grown
      checkpoint.end = next
    }
    outbox.checkpoint = checkpoint
    // Without the shortcuts (a test's reference) the point is kept, so the refresh schedule is
    // the same, but the display comes from a full heal.
    guard fastPaths else { return nil }
    guard checkpoint.end < end else {
      return StreamHealer.Healed(document: checkpoint.document)
    }
    let (segment, rules, _) = healSegment(checkpoint.end..<end)
    guard let shown = TailCheckpoint.appending(segment, to: checkpoint.document, paragraph: checkpoint.paragraph)
    else {
      outbox.checkpoint = nil
      return nil
    }
    applied.formUnion(rules)
    return StreamHealer.Healed(document: shown)
  }

  /// A clean point on the last line: the open part healed up to the last candidate, when that heal
  /// changed nothing but marks and ends in the open paragraph.
  private mutating func takeCheckpoint(from start: Int, lineStart: Int, floor: Int)
    -> TailCheckpoint?
  {
    // Definitions in the open part resolve labels of the whole part's parse, not a segment's.
    guard source.count >= outbox.checkpointRetry || outbox.checkpointRetryLine != lineStart,
      let candidate = TailCheckpoint.candidate(in: source, from: floor),
      ReferenceLabels.defined(in: source[start..<lineStart]).isEmpty
    else { return nil }
    var rules = AppliedHealRules()
    let healed = healWithPreamble(head: [], from: start, to: candidate, endsBeforeBlank: true, applied: &rules)
    // Nor in a paragraph that may still be a definition: a label (over lines, so the last line
    // does not open it) and what follows it are read together (`[`, lines, `bar]: /url "t` and
    // `itle"` showed as a paragraph through a point: fuzz seed 1354). The last paragraph must be
    // the open one, on the last line: where the last line's block shows nothing (a footnote
    // definition nothing cites, which cmark-gfm drops), the paragraph before it took the words
    // after the point (`> t "t"`, a blank, `[^[a…]: 1`, then `Text  s` showed `t "t"  s`: fuzz
    // seed 1358).
    // Nor after a run that can open emphasis, or a bracket, that the heal left as text (an
    // intraword `3*4` on an earlier line of the paragraph, which a `3*4` after the point closes;
    // `[` and `[link](/u)` on it, after which no `www.` address is linked: a review).
    guard rules.rules.allSatisfy({ Self.checkpointRules.contains($0) }), healed.paragraphStart != nil,
      !healed.leavesOpener,
      let paragraph = TailCheckpoint.lastParagraph(of: healed.document),
      !Self.opensWithLabel(healed.document, paragraph: paragraph)
    else {
      outbox.checkpointRetry = source.count + Self.checkpointRetryDistance
      outbox.checkpointRetryLine = lineStart
      return nil
    }
    return TailCheckpoint(
      document: healed.document, paragraph: paragraph, end: candidate, openStart: start, lineStart: lineStart,
      revision: settledRevision)
  }

  /// Whether the paragraph at `paragraph` opens with a label no definition has resolved: a pending
  /// link, or text from a `[` (a link that resolved, or took a destination, opens no definition).
  static func opensWithLabel(_ document: MarkdownDocument, paragraph: Int) -> Bool {
    guard paragraph + 1 < document.nodes.count else { return false }
    switch document.nodes[paragraph + 1].kind {
    case .link(let info): return info.isPending
    case .text(let literal): return literal.utf8.first == ASCII.openBracket
    default: return false
    }
  }

  /// The received text in `range` (on the last line, starting with a blank) healed as paragraph
  /// text after ``TailCheckpoint/sentinel``, after the definitions it uses, with the rules the heal
  /// applied and whether it left an opener as text (``StreamHealer/Healed/leavesOpener``)
  /// (``TailCheckpoint/appending(_:to:paragraph:)`` checks that it stayed one paragraph).
  private mutating func healSegment(_ range: Range<Int>, endsBeforeBlank: Bool = false)
    -> (document: MarkdownDocument, rules: AppliedHealRules, leavesOpener: Bool)
  {
    let bytes = source[range]
    let preamble = definitions.preamble(for: bytes)
    var rules = AppliedHealRules()
    var input = preamble.bytes
    input.append(TailCheckpoint.sentinel)
    input += bytes
    // The segment is the sentinel's paragraph (checked by the heal's parse): no parse to find it.
    let healed = heal(
      input, protectedLength: preamble.bytes.count, context: .blocks,
      knownParagraph: fastPaths ? preamble.bytes.count : nil, endsBeforeBlank: endsBeforeBlank, applied: &rules)
    var document = healed.document
    if preamble.isStubbed { document = definitions.restoringLinks(document) }
    if !preamble.isEmpty {
      document = Self.droppingBlocks(document) { node in
        Self.isPreambleBlock(node, preambleLines: preamble.lines) || Self.isFootnoteDefinition(node)
      }
    }
    return (document, rules, healed.leavesOpener)
  }
}
