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

  /// Guards the inline syntax of the current paragraph and starts a new one.
  mutating func endSegment() {
    defer {
      segment.removeAll(keepingCapacity: true)
      segmentBytes = 0
    }
    guard !segment.isEmpty else { return }
    let closers = htmlClosers()
    var counts = InlineCounts()
    for line in segment {
      scanInline(line, closers: closers, counts: &counts)
    }
  }

  func htmlClosers() -> HTMLClosers {
    var closers = HTMLClosers()
    for line in segment {
      var index = line.start
      while index < line.end {
        if bytes[index] == 0x3E {  // >
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
        }
        index += 1
      }
    }
    return closers
  }

  mutating func scanInline(_ line: SegmentLine, closers: HTMLClosers, counts: inout InlineCounts) {
    let end = line.end
    var index = line.start
    var tokenStart = line.start
    // The current word's end and the `)` among its trailing punctuation (autolink cost).
    var wordEnd = -1
    var wordParens = 0
    // A reference definition's label is read by the block parser, not as a link opener.
    if let labelEnd = definitionLabelEnd(from: line.start, to: end) { index = labelEnd }
    while index < end {
      let byte = bytes[index]
      // Integer literals, not `UInt8(ascii:)`: this loop runs once per byte, also in debug builds.
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
          if counts.delimiterRuns > limits.maxDelimiterRuns {
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
        if counts.brackets > limits.maxBrackets {
          escape(at: index, for: .brackets, line: line.line)
        } else if referenceCost > 0 {
          if referenceBudgetLeft >= referenceCost {
            referenceBudgetLeft -= referenceCost
          } else {
            escape(at: index, for: .referenceExpansion, line: line.line)
          }
        }
      case 0x3C:  // <
        if isUnclosedHTMLOpener(at: index, end: end, closers: closers) {
          counts.unclosedHTML += 1
          if counts.unclosedHTML > limits.maxUnclosedHTMLOpeners {
            escape(at: index, for: .unclosedHTMLOpeners, line: line.line)
          }
        }
      case 0x77:  // w
        if autolinks && index + 4 <= end && bytes[index + 1] == byte && bytes[index + 2] == byte
          && bytes[index + 3] == UInt8(ascii: ".")
        {
          let before = index > line.start ? bytes[index - 1] : ASCII.space
          if ASCII.isSpace(before) || before == UInt8(ascii: "*") || before == UInt8(ascii: "_")
            || before == UInt8(ascii: "~") || before == UInt8(ascii: "(")
          {
            chargeAutolink(
              at: index, defuseAt: index + 3, tokenStart: tokenStart, line: line, wordEnd: &wordEnd,
              wordParens: &wordParens)
          }
        }
      case 0x3A:  // :
        if autolinks && hasAutolinkScheme(before: index, lineStart: line.start, end: end) {
          chargeAutolink(
            at: index, defuseAt: index, tokenStart: tokenStart, line: line, wordEnd: &wordEnd, wordParens: &wordParens)
        }
      case 0x40:  // @
        if autolinks {
          chargeAutolink(
            at: index, defuseAt: index, tokenStart: tokenStart, line: line, wordEnd: &wordEnd, wordParens: &wordParens,
            defuseWith: .wordJoiner)
        }
      default:
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { tokenStart = index + 1 }
      }
      index += 1
    }
  }

  /// When the line starts like a reference definition (`[label]:`), the offset after the `:`.
  func definitionLabelEnd(from start: Int, to end: Int) -> Int? {
    guard start < end, bytes[start] == UInt8(ascii: "["),
      !(footnotes && start + 1 < end && bytes[start + 1] == UInt8(ascii: "^"))
    else { return nil }
    var close = start + 1
    while close < end && bytes[close] != UInt8(ascii: "]") && bytes[close] != UInt8(ascii: "[") {
      close += bytes[close] == ASCII.backslash ? 2 : 1
    }
    guard close + 1 < end, bytes[close] == UInt8(ascii: "]"), bytes[close + 1] == UInt8(ascii: ":") else { return nil }
    return close + 2
  }

  func isUnclosedHTMLOpener(at index: Int, end: Int, closers: HTMLClosers) -> Bool {
    guard index + 1 < end else { return false }
    let next = bytes[index + 1]
    if next == UInt8(ascii: "?") { return closers.processingInstruction < index + 2 }
    guard next == UInt8(ascii: "!"), index + 2 < end else { return false }
    let third = bytes[index + 2]
    if third == UInt8(ascii: "-") { return closers.comment < index + 4 }
    if third == UInt8(ascii: "[") { return closers.cdata < index + 9 }
    if ASCII.isLetter(third) { return closers.declaration < index + 3 }
    return false
  }

  /// Whether the `:` at `index` follows a scheme cmark-gfm's autolinker looks for.
  func hasAutolinkScheme(before index: Int, lineStart: Int, end: Int) -> Bool {
    func preceded(by word: String) -> Bool {
      let pattern = Array(word.utf8)
      guard index - lineStart >= pattern.count else { return false }
      for (offset, byte) in pattern.enumerated() where ASCII.lower(bytes[index - pattern.count + offset]) != byte {
        return false
      }
      return true
    }
    let slashes = index + 2 < end && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/")
    if slashes && (preceded(by: "http") || preceded(by: "https") || preceded(by: "ftp")) { return true }
    return preceded(by: "mailto") || preceded(by: "xmpp")
  }

  /// Charges an autolink candidate its scan cost, or defuses it when the budget is used up.
  mutating func chargeAutolink(
    at index: Int, defuseAt: Int, tokenStart: Int, line: SegmentLine, wordEnd: inout Int, wordParens: inout Int,
    defuseWith insertion: GuardEdit.Insertion = .backslash
  ) {
    if index >= wordEnd {
      var end = index
      while end < line.end && !ASCII.isSpace(bytes[end]) { end += 1 }
      wordEnd = end
      wordParens = 0
      var back = end
      while back > index {
        let byte = bytes[back - 1]
        if byte == UInt8(ascii: ")") {
          wordParens += 1
        } else if !"?!.,:*_~'\";".utf8.contains(byte) {
          break
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
