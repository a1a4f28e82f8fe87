extension GuardScanner {
  /// Counts of one paragraph's inline syntax.
  struct InlineCounts {
    var delimiterRuns = 0
    var brackets = 0
    var unclosedHTML = 0
  }

  /// Where the closers of inline HTML constructs last occur in a paragraph: an opener after the
  /// last closer of its kind can never close, and cmark-gfm scans to the paragraph's end for it.
  struct HTMLClosers {
    var processingInstruction = -1
    var declaration = -1
    var cdata = -1
    var comment = -1
  }

  /// The bytes that ``endSegment()`` acts on with some parse options (at any other byte it only
  /// moves on).
  static func inlineBytes(strikethrough: Bool, smart: Bool, autolinks: Bool) -> ByteSet {
    inlineByteSets[(strikethrough ? 1 : 0) + (smart ? 2 : 0) + (autolinks ? 4 : 0)]
  }

  /// ``inlineBytes(strikethrough:smart:autolinks:)`` for each of the eight option sets, made once
  /// (a set costs several hundred instructions to make, and streaming parses thousands of times).
  private static let inlineByteSets: [ByteSet] = (0..<8).map { flags in
    makeInlineBytes(strikethrough: flags & 1 != 0, smart: flags & 2 != 0, autolinks: flags & 4 != 0)
  }

  private static func makeInlineBytes(strikethrough: Bool, smart: Bool, autolinks: Bool) -> ByteSet {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(12)
    bytes.append(contentsOf: [0x5C, 0x2A, 0x5F, 0x5B, 0x3C, 0x60])  // \ * _ [ < `
    if strikethrough { bytes.append(0x7E) }  // ~
    if smart {
      bytes.append(0x27)  // '
      bytes.append(0x22)  // "
    }
    if autolinks {
      bytes.append(0x77)  // w
      bytes.append(0x3A)  // :
      bytes.append(0x40)  // @
    }
    return ByteSet(bytes)
  }

  /// Guards the inline syntax of the current paragraph and starts a new one.
  ///
  /// The paragraph's lines are searched as one range, from candidate byte to candidate byte
  /// (``inlineBytes(strikethrough:smart:autolinks:)``), sixteen bytes at a time; a candidate that
  /// falls outside the lines (in a container prefix or a line break) is passed over. Each line is
  /// then handled as on its own: its bounds, its autolink token state, and a reference
  /// definition's label skipped at its start.
  mutating func endSegment() {
    guard !segment.isEmpty else { return }
    defer {
      segment.removeAll()
      segmentBytes = 0
      segmentIsTable = false
    }
    var closers: HTMLClosers?  // found when the first opener that needs them comes
    var counts = InlineCounts()
    // Escapes past a limit inside a code span would show as backslashes: up to the limit again
    // (the guard may take for a span what cmark-gfm does not), they are spared.
    var codeSpans: CodeSpanIndex?  // made when the first backtick comes
    var codeSpanEnd = -1
    var spared = InlineCounts()
    let candidates = inlineBytes
    let paragraphEnd = segment[segment.count - 1].end
    var lineIndex = 0
    var line = segment[0]
    let definitionLines = definitionRunLines()
    var scan = LineScan(line, labelEnd: definitionLines > 0 ? definitionLabelEnd(from: line.start, to: line.end) : nil)
    var index = scan.start
    while true {
      index = inlineCursor.next(candidates, in: bytes, from: index, to: paragraphEnd)
      guard index < paragraphEnd else { break }
      if index >= line.end {
        // Past this line: on to the line that ends after the candidate (there is one, the last).
        repeat { lineIndex += 1 } while segment[lineIndex].end <= index
        line = segment[lineIndex]
        scan = LineScan(
          line, labelEnd: lineIndex < definitionLines ? definitionLabelEnd(from: line.start, to: line.end) : nil)
        if index < scan.start {
          index = scan.start
          continue
        }
      }
      let end = line.end
      let byte = bytes[index]
      // Integer literals, not `UInt8(ascii:)`: this switch runs for every candidate byte, also in debug builds.
      switch byte {
      case 0x5C:  // backslash
        if index + 1 < end && ASCII.isPunctuation(bytes[index + 1]) {
          index += 2
          continue
        }
      case 0x2A, 0x5F, 0x7E:  // * _ ~
        if byte == 0x7E && !strikethrough { break }
        var runEnd = index
        while runEnd < end && bytes[runEnd] == byte { runEnd += 1 }
        let before = index > line.start ? bytes[index - 1] : ASCII.space
        let after = runEnd < end ? bytes[runEnd] : ASCII.space
        let isDelimiter =
          !(ASCII.isSpace(before) && ASCII.isSpace(after))
          && !(byte == UInt8(ascii: "_") && ASCII.isAlphanumeric(before) && ASCII.isAlphanumeric(after))
        if isDelimiter {
          counts.delimiterRuns += 1
          let inCode = index < codeSpanEnd && spared.delimiterRuns < limits.maxDelimiterRuns
          if inCode && (counts.delimiterRuns > limits.maxDelimiterRuns || runEnd - index > limits.maxDelimiterRunLength)
          {
            spared.delimiterRuns += 1
          } else if counts.delimiterRuns > limits.maxDelimiterRuns {
            for position in index..<runEnd { escape(at: position, for: .delimiterRuns, line: line.line) }
          } else if runEnd - index > limits.maxDelimiterRunLength {
            for position in (index + limits.maxDelimiterRunLength)..<runEnd {
              escape(at: position, for: .delimiterRunLength, line: line.line)
            }
          }
        }
        index = runEnd
        continue
      case 0x27, 0x22:  // ' "
        if smart {
          counts.delimiterRuns += 1
          if counts.delimiterRuns > limits.maxDelimiterRuns { escape(at: index, for: .delimiterRuns, line: line.line) }
        }
      case 0x5B:  // [
        counts.brackets += 1
        if counts.brackets > limits.maxBrackets && index < codeSpanEnd && spared.brackets < limits.maxBrackets {
          spared.brackets += 1
        } else if counts.brackets > limits.maxBrackets {
          escape(at: index, for: .brackets, line: line.line)
        } else if referenceCost > 0 {
          if referenceBudgetLeft >= referenceCost {
            referenceBudgetLeft -= referenceCost
          } else {
            escape(at: index, for: .referenceExpansion, line: line.line)
          }
        }
      case 0x3C:  // <
        if isUnclosedHTMLOpener(at: index, end: end, closers: &closers) {
          counts.unclosedHTML += 1
          if counts.unclosedHTML > limits.maxUnclosedHTMLOpeners && index < codeSpanEnd
            && spared.unclosedHTML < limits.maxUnclosedHTMLOpeners
          {
            spared.unclosedHTML += 1
          } else if counts.unclosedHTML > limits.maxUnclosedHTMLOpeners {
            escape(at: index, for: .unclosedHTMLOpeners, line: line.line)
          }
        }
      case 0x60:  // `
        var runEnd = index
        while runEnd < end && bytes[runEnd] == byte { runEnd += 1 }
        if index >= codeSpanEnd {
          if codeSpans == nil { codeSpans = CodeSpanIndex(segment, in: bytes) }
          codeSpanEnd = codeSpans?.end(ofSpanOpenedAt: index, length: runEnd - index) ?? -1
        }
        index = runEnd
        continue
      case 0x77:  // w
        if autolinks && index + 4 <= end && bytes[index + 1] == byte && bytes[index + 2] == byte
          && bytes[index + 3] == UInt8(ascii: ".")
        {
          let before = index > line.start ? bytes[index - 1] : ASCII.space
          if ASCII.isSpace(before) || before == UInt8(ascii: "*") || before == UInt8(ascii: "_")
            || before == UInt8(ascii: "~") || before == UInt8(ascii: "(")
          {
            findTokenStart(before: index, tokenStart: &scan.tokenStart, scanned: &scan.tokenScanned)
            chargeAutolink(
              at: index, defuseAt: index + 3, tokenStart: scan.tokenStart, line: line, wordEnd: &scan.wordEnd,
              wordParens: &scan.wordParens)
          }
        }
      case 0x3A:  // :
        if autolinks && Self.hasAutolinkScheme(before: index, lineStart: line.start, end: end, in: bytes) {
          findTokenStart(before: index, tokenStart: &scan.tokenStart, scanned: &scan.tokenScanned)
          chargeAutolink(
            at: index, defuseAt: index, tokenStart: scan.tokenStart, line: line, wordEnd: &scan.wordEnd,
            wordParens: &scan.wordParens)
        }
      case 0x40:  // @
        if autolinks {
          findTokenStart(before: index, tokenStart: &scan.tokenStart, scanned: &scan.tokenScanned)
          chargeAutolink(
            at: index, defuseAt: index, tokenStart: scan.tokenStart, line: line, wordEnd: &scan.wordEnd,
            wordParens: &scan.wordParens, defuseWith: .wordJoiner)
        }
      default: break
      }
      index += 1
    }
  }

  /// What the scan of one line of a paragraph keeps while it goes from candidate to candidate.
  struct LineScan {
    /// Where the line's inline content starts: after a reference definition's label, which the
    /// block parser reads (not as a link opener), else at the line's start.
    let start: Int
    /// The start of the current token (after the last cmark whitespace byte the scan went over),
    /// found only for autolink candidates: by looking back over the bytes since the last one.
    var tokenStart: Int
    var tokenScanned: Int
    /// The current word's end and the `)` among its trailing punctuation (autolink cost).
    var wordEnd = -1
    var wordParens = 0

    @inline(__always) init(_ line: SegmentLine, labelEnd: Int?) {
      start = labelEnd ?? line.start
      tokenStart = line.start
      tokenScanned = start
    }
  }

  /// The closers of the whole current paragraph: found once, the first time an opener needs them.
  @inline(__always) func htmlClosers(_ known: inout HTMLClosers?) -> HTMLClosers {
    if let known { return known }
    let closers = Self.htmlClosers(of: segment, in: bytes)
    known = closers
    return closers
  }

  static func htmlClosers(of segment: SegmentLines, in bytes: UnsafeBufferPointer<UInt8>) -> HTMLClosers {
    var closers = HTMLClosers()
    for index in 0..<segment.count {
      let line = segment[index]
      var index = bytes.firstOffset(of: 0x3E, from: line.start, to: line.end)  // >
      while index < line.end {
        closers.declaration = index
        if index >= line.start + 1 && bytes[index - 1] == UInt8(ascii: "?") {
          closers.processingInstruction = index - 1
        }
        if index >= line.start + 2 && bytes[index - 1] == UInt8(ascii: "]") && bytes[index - 2] == UInt8(ascii: "]") {
          closers.cdata = index - 2
        }
        if index >= line.start + 2 && bytes[index - 1] == UInt8(ascii: "-") && bytes[index - 2] == UInt8(ascii: "-") {
          closers.comment = index - 2
        }
        index = bytes.firstOffset(of: 0x3E, from: index + 1, to: line.end)
      }
    }
    return closers
  }

  /// Moves `tokenStart` past the last cmark whitespace byte (space, tab, line feed, vertical tab,
  /// form feed, carriage return) of `bytes[scanned..<index]`, if there is one, and `scanned` up to
  /// `index`. The scan skips no whitespace after the label of a definition, so this is where it
  /// would have seen the last one; each byte of a line is looked at once, however many candidates.
  @inline(__always) func findTokenStart(before index: Int, tokenStart: inout Int, scanned: inout Int) {
    var back = index
    while back > scanned {
      if ASCII.isSpace(bytes[back - 1]) {
        tokenStart = back
        break
      }
      back -= 1
    }
    scanned = index
  }

  /// How many lines at the start of the current paragraph may be link definitions to cmark-gfm:
  /// lines starting with a label and `:`, each maybe followed by a line opening a title (`"`,
  /// `'`, `(` after blanks). cmark-gfm takes definitions only from a paragraph's start, so a line
  /// starting `[x]:` after one of text is a reference and `: `, and its label counts as a link
  /// opener (331 such lines under `x]: u` were each left uncharged for a 24 KB definition: 27 KB
  /// of input made 8 MB of HTML; fuzz seed 1392). A definition whose destination or title runs on
  /// over lines ends the run early: the labels after it are counted, which only makes the limits
  /// stricter. None in a table: its rows are cells, and a header and delimiter row after
  /// definitions that open a paragraph make them text to cmark-gfm (184 rows `[x]: u` of a table
  /// were each left uncharged for a 24 KB definition: 62 KB of input made 8.8 MB of HTML; fuzz
  /// seed 1398).
  ///
  /// A line whose label is followed by what makes no definition (`[x]:: u`, `[x]: u v`: cmark-gfm
  /// reads that line and every one after it in the paragraph as text) ends the run before it: 274
  /// lines `[x]: u` after `[x]:: u` were left uncharged for a 6 KB definition, whose `@`s the
  /// autolink budget then widened with word joiners: 9.8 KB of input made 8.8 MB of HTML (fuzz
  /// seed 1437).
  func definitionRunLines() -> Int {
    guard !segmentIsTable else { return 0 }
    var count = 0
    var titleMayFollow = false
    while count < segment.count {
      let line = segment[count]
      if let labelEnd = definitionLabelEnd(from: line.start, to: line.end) {
        switch ReferenceDefinitionScan.definitionRest(bytes, from: labelEnd, to: line.end) {
        case .complete: titleMayFollow = true
        case .titled: titleMayFollow = false
        case .runsOn: return count + 1
        case .notDefinition: return count
        }
      } else if titleMayFollow && opensTitle(line) {
        // A title that makes no definition's (`"t" u`) is text, and so is the rest.
        var start = line.start
        while ASCII.isBlank(bytes[start]) { start += 1 }
        switch ReferenceDefinitionScan.titleRest(bytes, from: start, to: line.end) {
        case .titled: titleMayFollow = false
        case .runsOn: return count + 1
        default: return count
        }
      } else {
        break
      }
      count += 1
    }
    return count
  }

  /// Whether `line`'s first byte other than a blank opens a link title (`"`, `'`, `(`).
  func opensTitle(_ line: SegmentLine) -> Bool {
    var index = line.start
    while index < line.end && ASCII.isBlank(bytes[index]) { index += 1 }
    return index < line.end && ReferenceDefinitionScan.opensTitle(bytes[index])
  }

  /// When the line starts like a reference definition (`[label]:`), the offset after the `:`: a
  /// label of at most ``ReferenceLabels/maximumLength`` bytes holding more than blanks (cmark-gfm
  /// takes no other for a definition's).
  @inline(__always) func definitionLabelEnd(from start: Int, to end: Int) -> Int? {
    guard start < end, bytes[start] == UInt8(ascii: "["),
      !(footnotes && start + 1 < end && bytes[start + 1] == UInt8(ascii: "^"))
    else { return nil }
    var close = start + 1
    var blank = true
    while close < end && bytes[close] != UInt8(ascii: "]") && bytes[close] != UInt8(ascii: "[") {
      if !ASCII.isBlank(bytes[close]) { blank = false }
      close += bytes[close] == ASCII.backslash ? 2 : 1
    }
    guard close + 1 < end, bytes[close] == UInt8(ascii: "]"), bytes[close + 1] == UInt8(ascii: ":"), !blank,
      close - start - 1 <= ReferenceLabels.maximumLength
    else { return nil }
    return close + 2
  }

  @inline(__always) func isUnclosedHTMLOpener(at index: Int, end: Int, closers: inout HTMLClosers?) -> Bool {
    guard index + 1 < end else { return false }
    let next = bytes[index + 1]
    if next == UInt8(ascii: "?") { return htmlClosers(&closers).processingInstruction < index + 2 }
    guard next == UInt8(ascii: "!"), index + 2 < end else { return false }
    let third = bytes[index + 2]
    if third == UInt8(ascii: "-") { return htmlClosers(&closers).comment < index + 4 }
    if third == UInt8(ascii: "[") { return htmlClosers(&closers).cdata < index + 9 }
    if ASCII.isLetter(third) { return htmlClosers(&closers).declaration < index + 3 }
    return false
  }

  /// Whether the `:` at `index` follows a scheme cmark-gfm's autolinker looks for: `http://`,
  /// `https://`, `ftp://`, `mailto:` or `xmpp:`, ASCII case-insensitively. The scheme's last letter
  /// picks the words worth comparing.
  static func hasAutolinkScheme(before index: Int, lineStart: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard index > lineStart else { return false }
    let slashes = index + 2 < end && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/")
    switch bytes[index - 1] | 0x20 {
    case UInt8(ascii: "p"):
      return slashes
        && (word("http", endsAt: index, after: lineStart, in: bytes)
          || word("ftp", endsAt: index, after: lineStart, in: bytes))
        || word("xmpp", endsAt: index, after: lineStart, in: bytes)
    case UInt8(ascii: "s"): return slashes && word("https", endsAt: index, after: lineStart, in: bytes)
    case UInt8(ascii: "o"): return word("mailto", endsAt: index, after: lineStart, in: bytes)
    default: return false
    }
  }

  /// Whether `bytes[lineStart..<index]` ends with `word` (lowercase letters), ASCII
  /// case-insensitively. Only a letter and its capital give a lowercase letter when ORed with 0x20.
  static func word(
    _ word: StaticString, endsAt index: Int, after lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index - lineStart >= count else { return false }
    let pattern = word.utf8Start
    for offset in 0..<count where bytes[index - count + offset] | 0x20 != pattern[offset] { return false }
    return true
  }

  /// Charges an autolink candidate its scan cost, or defuses it when the budget is used up.
  mutating func chargeAutolink(
    at index: Int, defuseAt: Int, tokenStart: Int, line: SegmentLine, wordEnd: inout Int, wordParens: inout Int,
    defuseWith insertion: GuardEdit.Insertion = .backslash
  ) {
    if index >= wordEnd {
      let end = bytes.firstSpaceOffset(from: index, to: line.end)
      wordEnd = end
      wordParens = 0
      var back = end
      trailing: while back > index {
        switch bytes[back - 1] {
        case 0x29: wordParens += 1  // )
        case 0x3F, 0x21, 0x2E, 0x2C, 0x3A, 0x2A, 0x5F, 0x7E, 0x27, 0x22, 0x3B: break  // ? ! . , : * _ ~ ' " ;
        default: break trailing
        }
        back -= 1
      }
    }
    let length = wordEnd - tokenStart
    let product = length.multipliedReportingOverflow(by: 1 + wordParens)
    let cost = product.overflow ? Int.max : 64 + product.partialValue
    if autolinkBudgetLeft >= cost {
      autolinkBudgetLeft -= cost
    } else {
      // `www.` and `scheme:` are matched on the raw text, so a backslash defuses them; e-mail
      // addresses are found after text nodes are merged, so only a non-letter between helps.
      insert(insertion, at: defuseAt, for: .autolinkScan, line: line.line)
    }
  }
}
