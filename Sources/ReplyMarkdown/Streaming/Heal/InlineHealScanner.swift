/// Finds what is unclosed at the end of the inline content of an open block, following
/// CommonMark's inline rules closely enough to heal it: code spans, emphasis/strong/strikethrough
/// delimiter runs (flanking, rule of three), links and images, raw HTML and entities.
///
/// The result says either where to cut (an image, a tag or an entity that has not finished) or
/// which closers to append, innermost first. The inline ``HealRule``s live here:
/// ``HealRule/unterminatedInlineTag``, ``HealRule/partialEntity``,
/// ``HealRule/imageHiddenUntilComplete``, ``HealRule/emptyLinkHidden``,
/// ``HealRule/pendingLinkShowsText``, ``HealRule/inlineClosersInnermostFirst`` and
/// ``HealRule/wordReopensEmphasis``.
///
/// - Complexity: O(n) in `end - start` for the scan, plus a scan of a link's destination and
///   title for each `](` that closes an opener (at most ``maxBrackets`` openers count, and a
///   destination ends within ``maxDestinationParentheses`` parentheses); emphasis processing is
///   CommonMark's (bounded by the delimiter count times the openers it looks back over).
struct InlineHealScanner {
  /// The destination written for links whose URL has not arrived; replaced before display.
  static let pendingDestination: [UInt8] = Array("x-replykit-pending:".utf8)
  /// Parentheses a link destination may nest: cmark-gfm 0.29.0.gfm.6 reads `[a](` followed by 33
  /// `(` as text, not a link.
  static let maxDestinationParentheses = 32

  /// Written between two closers of one character (`~~` then `~~`, `_` then `_`): cmark-gfm reads
  /// a run as one delimiter, and a run of four tildes closes nothing. An empty raw HTML comment
  /// separates them and is dropped from the display after the parse (``HealedDisplayMarks``).
  static let closerSeparator: [UInt8] = Array("<!--\u{1}-->".utf8)

  enum Result: Equatable {
    /// Remove everything from this offset on (what `rule` hides), then scan again.
    case cut(Int, rule: HealRule)
    /// Remove everything from `truncateAt` (if set) and append `closers`. `leavesOpener`: a run
    /// that can open emphasis, or a bracket, is left unmatched as text (an intraword `2*3`; a `[`
    /// before a link): a closer after the scanned text may still match the run, and an address
    /// after the bracket is not linked. `destination`: where the destination of an inline link
    /// still arriving starts (after its `(`), when the scan stopped there and cut at its `]`:
    /// the result is then the same for whatever continues that destination and keeps it
    /// incomplete (``OpenDestination``).
    case heal(truncateAt: Int?, closers: [UInt8], leavesOpener: Bool = false, destination: Int? = nil)
  }

  struct Delimiter {
    /// Where the run starts and ends in the bytes.
    let position: Int
    let end: Int
    let character: UInt8
    var count: Int
    let originalCount: Int
    let canOpen: Bool
    let canClose: Bool
    /// Whether punctuation precedes the run (`(*"`): it opens, though it could also close.
    var afterPunctuation = false
    /// Whether the run closed emphasis (matched an opener as the closer).
    var closed = false
  }

  struct Bracket {
    let position: Int
    let isImage: Bool
    var active: Bool
    let delimiterBottom: Int
  }

  let bytes: [UInt8]
  let start: Int
  let end: Int
  let doubleTildeOnly: Bool
  let strikethrough: Bool
  /// Whether `[^label]` is a footnote reference (a partial one is held, see ``run(applied:)``).
  var footnotes = false
  /// Whether the autolink extension is on: what a `www.` or `scheme://` address takes is then
  /// no marker or bracket (``ExtendedAutolink``), and gets no closer.
  var autolinks = false
  /// Where the block whose inline content this is starts (its first line: the container
  /// markers before it there are all of the block's), when it starts before the content (a
  /// paragraph's definitions come first); the content's start otherwise.
  var blockStart: Int?
  /// Whether a blank follows the scanned text in the received text (a clean point's heal): a `]`
  /// at the end then waits for no `(` or `[`, which cannot follow over a blank.
  var followedByBlank = false
  /// Link and image openers read as such; later ones are text, as the input guard makes them
  /// (``InputLimits/maxBrackets``, which it counts per paragraph). Each opener costs at most one
  /// scan of a link's destination and title, so this keeps a paragraph of thousands of `[](`
  /// from costing a scan to its end per opener.
  var maxBrackets = InputLimits.default.maxBrackets

  /// Scans the content; see ``Result``.
  func run() -> Result {
    var applied = AppliedHealRules()
    return run(applied: &applied)
  }

  /// Scans the content, recording in `applied` the rules behind the result.
  func run(applied: inout AppliedHealRules) -> Result {
    let result = scan(applied: &applied)
    if case .cut(_, let rule) = result { applied.insert(rule) }
    return result
  }

  private func scan(applied: inout AppliedHealRules) -> Result {
    // Room for a paragraph's usual runs and brackets up front: growing from empty reallocated
    // about twice per heal.
    var delimiters: [Delimiter] = []
    delimiters.reserveCapacity(16)
    var brackets: [Bracket] = []
    brackets.reserveCapacity(8)
    var openCode: Int?
    var truncateAt: Int?
    var pendingBracket: Bracket?
    // The `]` of the pending bracket, when it has arrived.
    var pendingClose: Int?
    // Where the incomplete destination after the pending bracket's `](` starts.
    var destination: Int?
    var openers = 0
    var addresses = ExtendedAutolink(bytes: bytes, start: start, end: end, blockStart: blockStart ?? start)
    var index = start
    scan: while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "w") where autolinks && brackets.isEmpty, ASCII.colon where autolinks && brackets.isEmpty:
        // An address the autolink extension links here takes what follows it, markers and all.
        index = addresses.end(at: index) ?? index + 1
      case ASCII.backslash:
        index += (index + 1 < end && ASCII.isPunctuation(bytes[index + 1])) ? 2 : 1
      case ASCII.backtick:
        let run = runLength(at: index)
        if run > CodeSpanIndex.longestRun {
          // Text to cmark-gfm, however many backticks follow.
          index += run
        } else if let close = closingBackticks(from: index + run, length: run) {
          index = close + run
        } else {
          openCode = run
          break scan
        }
      case ASCII.lessThan:
        switch Self.htmlOrAutolink(bytes, at: index, end: end) {
        case .complete(let after): index = after
        case .incomplete: return .cut(index, rule: .unterminatedInlineTag)
        case .literal: index += 1
        }
      case ASCII.ampersand:
        if isPartialEntity(at: index) { return .cut(index, rule: .partialEntity) }
        index += 1
      // `![^` is `!` and a footnote reference's bracket to cmark-gfm, not an image.
      case ASCII.exclamation
      where index + 1 < end && bytes[index + 1] == ASCII.openBracket
        && (index + 2 >= end || bytes[index + 2] != ASCII.caret):
        openers += 1
        if openers <= maxBrackets {
          brackets.append(Bracket(position: index, isImage: true, active: true, delimiterBottom: delimiters.count))
        }
        index += 2
      case ASCII.openBracket:
        openers += 1
        if openers <= maxBrackets {
          brackets.append(Bracket(position: index, isImage: false, active: true, delimiterBottom: delimiters.count))
        }
        index += 1
      case ASCII.closeBracket:
        guard let opener = brackets.last else {
          index += 1
          continue
        }
        if !opener.active {
          brackets.removeLast()
          index += 1
          continue
        }
        let next = index + 1
        if next >= end && followedByBlank {
          brackets.removeLast()
          dropFootnoteDelimiters(opener, closedAt: index, &delimiters)
          index += 1
        } else if next >= end || bytes[next] == ASCII.openParenthesis {
          let tail: LinkTail = next >= end ? .incomplete : linkTail(from: next + 1)
          switch tail {
          case .incomplete:
            if opener.isImage { return .cut(opener.position, rule: .imageHiddenUntilComplete) }
            brackets.removeLast()
            pendingBracket = opener
            pendingClose = index
            truncateAt = next
            if next < end { destination = next + 1 }
            break scan
          case .complete(let after):
            brackets.removeLast()
            Self.processEmphasis(&delimiters, bottom: opener.delimiterBottom)
            delimiters.removeSubrange(opener.delimiterBottom...)
            if !opener.isImage {
              for position in brackets.indices where !brackets[position].isImage {
                brackets[position].active = false
              }
            }
            index = after
          case .invalid:
            brackets.removeLast()
            dropFootnoteDelimiters(opener, closedAt: index, &delimiters)
            index += 1
          }
        } else if bytes[next] == ASCII.openBracket, !bytes[(next + 1)..<end].contains(ASCII.openBracket) {
          // A full reference link `[text][label]`: its definition may still arrive.
          if opener.isImage { return .cut(opener.position, rule: .imageHiddenUntilComplete) }
          brackets.removeLast()
          if let close = bytes[(next + 1)..<end].firstIndex(of: ASCII.closeBracket), close + 1 < end {
            // The label is complete and text follows it (so it is not `[label](`): cmark leaves
            // it as text, and the parsed display shows it as a pending link
            // (``HealRule/pendingReferenceLink``) with the text after it.
            dropFootnoteDelimiters(opener, closedAt: index, &delimiters)
            index += 1
            continue
          }
          pendingBracket = opener
          pendingClose = index
          truncateAt = next
          break scan
        } else {
          brackets.removeLast()
          dropFootnoteDelimiters(opener, closedAt: index, &delimiters)
          index += 1
        }
      case ASCII.star, ASCII.underscore, ASCII.tilde:
        let run = runLength(at: index)
        if byte == ASCII.tilde && (!strikethrough || run > 2 || (doubleTildeOnly && run != 2)) {
          index += run
          continue
        }
        let (canOpen, canClose) = flanking(runStart: index, runEnd: index + run, character: byte)
        if canOpen || canClose {
          delimiters.append(
            Delimiter(
              position: index, end: index + run, character: byte, count: run, originalCount: run, canOpen: canOpen,
              canClose: canClose,
              afterPunctuation: scalar(beforeRun: index, character: byte).map(Self.isPunctuation) ?? false))
        }
        index += run
      default:
        index += 1
      }
    }
    // An image that never closed is hidden whole.
    if let image = brackets.first(where: { $0.isImage }) {
      return .cut(image.position, rule: .imageHiddenUntilComplete)
    }
    // The innermost bracket still open closes as a pending link (below); an empty one shows nothing.
    var openLinks = brackets.filter { $0.active }
    if let pending = pendingBracket { openLinks.append(pending) }
    if let last = openLinks.last, pendingBracket == nil || last.position != pendingBracket?.position {
      if openCode == nil && !hasContent(from: last.position + 1, to: end) {
        return .cut(last.position, rule: .emptyLinkHidden)
      }
      // A footnote reference still arriving (`[^src`) shows nothing: once `]` closes it, it shows
      // as a reference or, while its definition has not arrived, as nothing again.
      if openCode == nil && isFootnoteLabel(at: last.position) {
        return .cut(last.position, rule: .unresolvedFootnoteReference)
      }
    }
    var closers: [UInt8] = []
    // A bracket left as text (the innermost open one closes as a pending link below) stays open
    // to cmark-gfm, and no `www.` or `scheme:` address after it is linked (`[`, then
    // `[a](b) www.x.y`: a review).
    var leavesOpener = brackets.contains { $0.position != openLinks.last?.position }
    if let openCode {
      closers += [UInt8](repeating: ASCII.backtick, count: openCode)
      applied.insert(.inlineClosersInnermostFirst)
    }
    // Only the innermost open bracket closes as a pending link: once a link forms inside them,
    // cmark-gfm reads every bracket opened before it as text (a link holds no link), so closers
    // written for them would show as text, `](…)` and all, and grow the healed text by a closer
    // per bracket of a `[[[[…` run.
    for link in openLinks.suffix(1) {
      // `[^1]` just closed at the end: a footnote reference, as a `(` after it is rare. Left to
      // the parse, it shows as one, or as nothing while its definition has not arrived
      // (``HealRule/unresolvedFootnoteReference``); as a pending link it flashed `^1`.
      if pendingBracket?.position == link.position && openCode == nil && isFootnoteLabel(at: link.position) {
        delimiters.removeSubrange(link.delimiterBottom...)
        continue
      }
      // A `]` that has arrived goes too: the closers of what its text left open go before it
      // (`[a *b](http://x` showed `[a <em>b]</em>`).
      if pendingBracket?.position == link.position, let pendingClose { truncateAt = pendingClose }
      Self.processEmphasis(&delimiters, bottom: link.delimiterBottom)
      closers += closing(delimiters, from: link.delimiterBottom, leavesOpener: &leavesOpener, applied: &applied)
      delimiters.removeSubrange(link.delimiterBottom...)
      closers += [ASCII.closeBracket, ASCII.openParenthesis] + Self.pendingDestination + [ASCII.closeParenthesis]
      applied.insert(.pendingLinkShowsText)
    }
    Self.processEmphasis(&delimiters, bottom: 0)
    closers += closing(delimiters, from: 0, leavesOpener: &leavesOpener, applied: &applied)
    // Only while the pending bracket closes as a link at its `]` (not as a footnote reference).
    let kept = pendingClose != nil && truncateAt == pendingClose ? destination : nil
    return .heal(truncateAt: truncateAt, closers: closers, leavesOpener: leavesOpener, destination: kept)
  }

  /// The closers of the unmatched openers in `delimiters[bottom...]`, innermost (last) first;
  /// `leavesOpener` is set when an opener is left as text.
  private func closing(
    _ delimiters: [Delimiter], from bottom: Int, leavesOpener: inout Bool, applied: inout AppliedHealRules
  ) -> [UInt8] {
    var closers: [UInt8] = []
    for index in delimiters[bottom...].indices.reversed() {
      let delimiter = delimiters[index]
      guard delimiter.count > 0, delimiter.canOpen else { continue }
      // A single tilde stays text until its closer arrives (a guess, as for an intraword run): in
      // a reply it is mostly "approximately" or a home directory (`~5 minutes`, `~/.bashrc`),
      // which a closer would strike through to the paragraph's end, then take back when the
      // paragraph ended (a review: 6 to 7 such retractions per 100 KB of replies, the Corpus's
      // too); strikethrough is mostly written `~~`, closed as it arrives.
      if delimiter.character == ASCII.tilde && delimiter.originalCount == 1 {
        leavesOpener = true
        continue
      }
      if !delimiter.canClose || delimiter.afterPunctuation {
        applied.insert(.inlineClosersInnermostFirst)
      } else if reopensWord(delimiters, at: index, bottom: bottom) {
        applied.insert(.wordReopensEmphasis)
      } else if touchesWideScript(delimiter) {
        applied.insert(.wideScriptOpensEmphasis)
      } else {
        leavesOpener = true
        continue
      }
      // Closers of two openers never join into one run, which would match otherwise (`*_a._b.`:
      // a `__` run that can open and close matches no `_` of one under the rule of three; `~~~~`
      // closes nothing).
      if closers.last == delimiter.character { closers += Self.closerSeparator }
      closers += [UInt8](repeating: delimiter.character, count: delimiter.count)
    }
    return closers
  }

  /// ``HealRule/wordReopensEmphasis``: whether the intraword run at `index` (it can open and close)
  /// follows, in the same word, a run of its character that closed emphasis (`*foo*bar*baz`).
  /// CommonMark makes it an opener once a closer arrives; an intraword run after whitespace
  /// (`*foo* bar*baz`, `2*3`) is left as text, as it most often stays.
  private func reopensWord(_ delimiters: [Delimiter], at index: Int, bottom: Int) -> Bool {
    let run = delimiters[index]
    guard
      let previous = delimiters[bottom..<index].last(where: { $0.character == run.character }),
      previous.closed
    else { return false }
    return !bytes[previous.end..<run.position].contains(where: ASCII.isSpace)
  }

  /// ``HealRule/wideScriptOpensEmphasis``: whether the intraword run (it can open and close)
  /// stands next to a wide character, CJK text: with no spaces between words, that is how it
  /// marks emphasis (`这是**重要**的`), where an intraword run in other text (`2*3`) most often
  /// stays text. A `_` run never opens inside a word.
  private func touchesWideScript(_ run: Delimiter) -> Bool {
    guard run.character != ASCII.underscore else { return false }
    if let before = scalar(endingBefore: run.position), DisplayWidth.isWide(before) { return true }
    guard run.end < end, let after = scalar(startingAt: run.end) else { return false }
    return DisplayWidth.isWide(after)
  }

  /// Whether the bracket at `position` opens a footnote label (`[^` and no blank up to the end),
  /// with the footnotes extension on.
  private func isFootnoteLabel(at position: Int) -> Bool {
    footnotes && position + 1 < end && bytes[position + 1] == ASCII.caret
      && !bytes[(position + 2)..<end].contains(where: ASCII.isSpace)
  }

  /// Where no link forms, cmark-gfm makes a bracket whose text starts `^` and holds more a
  /// footnote reference (shown as text later when nothing defines it) and drops the delimiter runs
  /// inside it: they close nothing outside (`[^*]a`, then `*`, is text), so they get no closer.
  private func dropFootnoteDelimiters(_ opener: Bracket, closedAt close: Int, _ delimiters: inout [Delimiter]) {
    guard footnotes, !opener.isImage, close > opener.position + 2, bytes[opener.position + 1] == ASCII.caret else {
      return
    }
    delimiters.removeSubrange(opener.delimiterBottom...)
  }

  private func hasContent(from start: Int, to end: Int) -> Bool {
    !SourceLines.isBlank(bytes, start..<end)
  }

  private func runLength(at index: Int) -> Int {
    var cursor = index
    while cursor < end && bytes[cursor] == bytes[index] { cursor += 1 }
    return cursor - index
  }

  private func closingBackticks(from start: Int, length: Int) -> Int? {
    var index = start
    while index < end {
      if bytes[index] == ASCII.backtick {
        let run = runLength(at: index)
        if run == length { return index }
        index += run
      } else {
        index += 1
      }
    }
    return nil
  }

  enum TagScan: Equatable { case complete(Int), incomplete, literal }

  private func isPartialEntity(at index: Int) -> Bool {
    var cursor = index + 1
    if cursor < end && bytes[cursor] == ASCII.hash { cursor += 1 }
    while cursor < end && cursor - index <= Self.longestEntity {
      guard ASCII.isAlphanumeric(bytes[cursor]) else { return false }
      cursor += 1
    }
    return cursor == end
  }

  /// Longer names than this after `&` are text, not an entity still arriving.
  static let longestEntity = 32

  enum LinkTail { case complete(Int), incomplete, invalid }

  /// Scans an inline link's `(destination "title")` after its `(`.
  private func linkTail(from start: Int) -> LinkTail {
    var index = start
    func skipSpace() {
      while index < end, ASCII.isBlank(bytes[index]) || Self.isLineEnd(bytes[index]) { index += 1 }
    }
    skipSpace()
    guard index < end else { return .incomplete }
    if bytes[index] == ASCII.lessThan {
      index += 1
      while index < end && bytes[index] != ASCII.greaterThan {
        if bytes[index] == ASCII.newline || bytes[index] == ASCII.lessThan { return .invalid }
        if bytes[index] == ASCII.backslash { index += 1 }
        index += 1
      }
      guard index < end else { return .incomplete }
      index += 1
    } else {
      var depth = 0
      while index < end {
        let byte = bytes[index]
        // A backslash escapes punctuation only (cmark-gfm's `manual_scan_link_url_2`): before a
        // space it is the destination's last byte. One at the end waits for the next byte.
        if byte == ASCII.backslash && (index + 1 == end || ASCII.isPunctuation(bytes[index + 1])) {
          index += 2
          continue
        }
        // Spaces and control characters end a destination.
        if byte <= ASCII.space { break }
        if byte == ASCII.openParenthesis {
          depth += 1
          if depth > Self.maxDestinationParentheses { return .invalid }
        }
        if byte == ASCII.closeParenthesis {
          if depth == 0 { break }
          depth -= 1
        }
        index += 1
      }
      guard index < end else { return .incomplete }
    }
    skipSpace()
    guard index < end else { return .incomplete }
    let opener = bytes[index]
    if opener == ASCII.quote || opener == ASCII.apostrophe || opener == ASCII.openParenthesis {
      let closer = opener == ASCII.openParenthesis ? ASCII.closeParenthesis : opener
      index += 1
      while index < end && bytes[index] != closer {
        if bytes[index] == ASCII.backslash { index += 1 }
        index += 1
      }
      guard index < end else { return .incomplete }
      index += 1
      skipSpace()
      guard index < end else { return .incomplete }
    }
    return bytes[index] == ASCII.closeParenthesis ? .complete(index + 1) : .invalid
  }

  /// CommonMark's left/right flanking rules for the run `runStart..<runEnd`.
  ///
  /// For `*` and `_`, cmark-gfm reads the characters on either side past tildes while the
  /// strikethrough extension is on (a run of nothing but tildes to the content's edge reads as a
  /// space): `a~_b_` and `a~~**.**` are text to it, so their closers would show.
  private func flanking(runStart: Int, runEnd: Int, character: UInt8) -> (Bool, Bool) {
    let before = scalar(beforeRun: runStart, character: character)
    var afterStart = runEnd
    if strikethrough && character != ASCII.tilde {
      while afterStart < end && bytes[afterStart] == ASCII.tilde { afterStart += 1 }
    }
    let after = afterStart < end ? scalar(startingAt: afterStart) : nil
    let beforeSpace = before.map(Self.isWhitespace) ?? true
    let afterSpace = after.map(Self.isWhitespace) ?? true
    let beforePunct = before.map(Self.isPunctuation) ?? false
    let afterPunct = after.map(Self.isPunctuation) ?? false
    let left = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
    let right = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
    if character == ASCII.underscore {
      return (left && (!right || beforePunct), right && (!left || afterPunct))
    }
    return (left, right)
  }

  /// The character before the run of `character` at `runStart`, as cmark-gfm reads it for
  /// flanking (see ``flanking(runStart:runEnd:character:)``).
  private func scalar(beforeRun runStart: Int, character: UInt8) -> Unicode.Scalar? {
    var index = runStart
    if strikethrough && character != ASCII.tilde {
      while index > start && bytes[index - 1] == ASCII.tilde { index -= 1 }
    }
    return scalar(endingBefore: index)
  }

  private func scalar(endingBefore index: Int) -> Unicode.Scalar? {
    guard index > start else { return nil }
    if bytes[index - 1] < 0x80 { return Unicode.Scalar(bytes[index - 1]) }
    var cursor = index - 1
    while cursor > start && ASCII.isUTF8Continuation(bytes[cursor]) { cursor -= 1 }
    return Self.firstScalar(bytes[cursor..<index])
  }

  private func scalar(startingAt index: Int) -> Unicode.Scalar? {
    if bytes[index] < 0x80 { return Unicode.Scalar(bytes[index]) }
    var cursor = index + 1
    while cursor < end && ASCII.isUTF8Continuation(bytes[cursor]) { cursor += 1 }
    return Self.firstScalar(bytes[index..<cursor])
  }

  /// The first scalar of `bytes` decoded as `String(decoding:as:)` decodes it (U+FFFD for an
  /// invalid sequence), without making a string: the flanking test asks for one on each side of
  /// every delimiter run.
  static func firstScalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    switch parser.parseScalar(from: &iterator) {
    case .valid(let encoded): return Unicode.UTF8.decode(encoded)
    case .error: return Unicode.Scalar(0xFFFD)
    case .emptyInput: return nil
    }
  }

  static func isLineEnd(_ byte: UInt8) -> Bool { byte == ASCII.newline || byte == ASCII.carriageReturn }

  /// CommonMark's Unicode whitespace: tab, line feed, form feed, carriage return, or category Zs.
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let byte = UInt8(scalar.value)
      return ASCII.isSpace(byte) && byte != Self.verticalTab
    }
    return scalar.properties.generalCategory == .spaceSeparator
  }

  /// Not Unicode whitespace in CommonMark's flanking rules (though cmark's `isSpace` says it is).
  static let verticalTab: UInt8 = 0x0B

  /// CommonMark's Unicode punctuation as cmark-gfm 0.29.0.gfm.6 reads it: ASCII punctuation, or
  /// a scalar its table lists. That table holds the P categories of Unicode 7.0: a scalar assigned
  /// since (U+2E43 and 167 more, up to this Swift's Unicode) is no punctuation to it, and U+166D,
  /// punctuation in 7.0 and a symbol since, still is. (Found by rendering `a*` + scalar + `x*` for
  /// every scalar with cmark-gfm: the `*` opens only after a scalar that is no punctuation;
  /// `InlineHealScannerTests` checks the P-category scalars the same way.)
  static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return ASCII.isPunctuation(UInt8(scalar.value)) }
    if scalar.value == Self.punctuationSymbol { return true }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation:
      guard let age = scalar.properties.age else { return false }
      return age.major < 7 || (age.major == 7 && age.minor == 0)
    default:
      return false
    }
  }

  /// U+166D CANADIAN SYLLABICS CHI SIGN: punctuation (Po) in Unicode 7.0, a symbol (So) since.
  static let punctuationSymbol: UInt32 = 0x166D

  /// CommonMark's "process emphasis" over `delimiters[bottom...]`: matched counts are consumed,
  /// so what remains with a count is unmatched.
  ///
  /// - Complexity: O(n) in the delimiters, as CommonMark's: the runs still in play form a list
  ///   linked backwards that skips removed ones (each is removed once), and a closer whose search
  ///   found no opener sets, for closers like it, a floor the next searches stop at (an open
  ///   paragraph of `*a_ ` units was quadratic: a trial).
  static func processEmphasis(_ delimiters: inout [Delimiter], bottom: Int) {
    var steps = 0
    processEmphasis(&delimiters, bottom: bottom, steps: &steps)
  }

  /// ``processEmphasis(_:bottom:)``, adding to `steps` the runs it looked at (for the test of its
  /// bound).
  static func processEmphasis(_ delimiters: inout [Delimiter], bottom: Int, steps: inout Int) {
    let count = delimiters.count
    guard bottom < count else { return }
    // previous[i - bottom]: the run in play before run i (bottom - 1 when none).
    var previous = Array((bottom - 1)..<(count - 1))
    // The floor per kind of closer: its character, whether it can open, and its length (modulo 3
    // for `*` and `_`, whose odd-match rule reads that, whole for `~`, which matches equal runs).
    var floors: [Int: Int] = [:]
    func unlink(_ index: Int) {
      if index + 1 < count { previous[index + 1 - bottom] = previous[index - bottom] }
    }
    var closer = bottom
    while closer < count {
      steps += 1
      let current = delimiters[closer]
      guard current.canClose, current.count > 0 else {
        if current.count == 0 { unlink(closer) }
        closer += 1
        continue
      }
      let length = current.character == ASCII.tilde ? current.count : current.originalCount % 3
      let kind = Int(current.character) << 16 | (current.canOpen ? 1 << 15 : 0) | length
      let floor = floors[kind] ?? (bottom - 1)
      var found: Int?
      var opener = previous[closer - bottom]
      while opener > floor {
        steps += 1
        let candidate = delimiters[opener]
        if candidate.character == current.character && candidate.canOpen && candidate.count > 0 {
          if current.character == ASCII.tilde {
            if candidate.count == current.count { found = opener }
          } else {
            let oddMatch =
              (candidate.canClose || current.canOpen)
              && (candidate.originalCount + current.originalCount) % 3 == 0
              && !(candidate.originalCount % 3 == 0 && current.originalCount % 3 == 0)
            if !oddMatch { found = opener }
          }
          if found != nil { break }
        }
        opener = previous[opener - bottom]
      }
      if let found {
        let use =
          current.character == ASCII.tilde
          ? current.count : (delimiters[found].count >= 2 && current.count >= 2 ? 2 : 1)
        delimiters[found].count -= use
        delimiters[closer].count -= use
        delimiters[closer].closed = true
        // The runs between are removed, each once.
        var between = previous[closer - bottom]
        while between > found {
          steps += 1
          delimiters[between].count = 0
          between = previous[between - bottom]
        }
        previous[closer - bottom] = delimiters[found].count == 0 ? previous[found - bottom] : found
        if delimiters[closer].count == 0 {
          unlink(closer)
          closer += 1
        }
      } else {
        floors[kind] = previous[closer - bottom]
        if !current.canOpen {
          delimiters[closer].count = 0
          unlink(closer)
        }
        closer += 1
      }
    }
  }
}
