/// Finds what is unclosed at the end of the inline content of an open block, following
/// CommonMark's inline rules closely enough to heal it: code spans, emphasis/strong/strikethrough
/// delimiter runs (flanking, rule of three), links and images, raw HTML and entities.
///
/// The result says either where to cut (an image, a tag or an entity that has not finished) or
/// which closers to append, innermost first.
struct InlineHealScanner {
  /// The destination written for links whose URL has not arrived; replaced before display.
  static let pendingDestination: [UInt8] = Array("x-replykit-pending:".utf8)

  enum Result: Equatable {
    /// Remove everything from this offset on, then scan again.
    case cut(Int)
    /// Remove everything from `truncateAt` (if set) and append `closers`.
    case heal(truncateAt: Int?, closers: [UInt8])
  }

  struct Delimiter {
    let character: UInt8
    var count: Int
    let originalCount: Int
    let canOpen: Bool
    let canClose: Bool
    /// Whether punctuation precedes the run (`(*"`): it opens, though it could also close.
    var afterPunctuation = false
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

  func run() -> Result {
    var delimiters: [Delimiter] = []
    var brackets: [Bracket] = []
    var openCode: Int?
    var truncateAt: Int?
    var pendingBracket: Bracket?
    var index = start
    scan: while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\\"):
        index += (index + 1 < end && Self.isASCIIPunctuation(bytes[index + 1])) ? 2 : 1
      case UInt8(ascii: "`"):
        let run = runLength(at: index)
        if let close = closingBackticks(from: index + run, length: run) {
          index = close + run
        } else {
          openCode = run
          break scan
        }
      case UInt8(ascii: "<"):
        switch htmlOrAutolink(at: index) {
        case .complete(let after): index = after
        case .incomplete: return .cut(index)
        case .literal: index += 1
        }
      case UInt8(ascii: "&"):
        if isPartialEntity(at: index) { return .cut(index) }
        index += 1
      case UInt8(ascii: "!") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "["):
        brackets.append(Bracket(position: index, isImage: true, active: true, delimiterBottom: delimiters.count))
        index += 2
      case UInt8(ascii: "["):
        brackets.append(Bracket(position: index, isImage: false, active: true, delimiterBottom: delimiters.count))
        index += 1
      case UInt8(ascii: "]"):
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
        if next >= end || bytes[next] == UInt8(ascii: "(") {
          let tail: LinkTail = next >= end ? .incomplete : linkTail(from: next + 1)
          switch tail {
          case .incomplete:
            if opener.isImage { return .cut(opener.position) }
            brackets.removeLast()
            pendingBracket = opener
            truncateAt = next
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
            index += 1
          }
        } else if bytes[next] == UInt8(ascii: "["), !bytes[(next + 1)..<end].contains(UInt8(ascii: "[")) {
          // A full reference link `[text][label]`: its definition may still arrive.
          if opener.isImage { return .cut(opener.position) }
          brackets.removeLast()
          pendingBracket = opener
          truncateAt = next
          break scan
        } else {
          brackets.removeLast()
          index += 1
        }
      case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
        let run = runLength(at: index)
        if byte == UInt8(ascii: "~") && (!strikethrough || run > 2 || (doubleTildeOnly && run != 2)) {
          index += run
          continue
        }
        let (canOpen, canClose) = flanking(runStart: index, runEnd: index + run, character: byte)
        if canOpen || canClose {
          delimiters.append(
            Delimiter(
              character: byte, count: run, originalCount: run, canOpen: canOpen, canClose: canClose,
              afterPunctuation: scalar(endingBefore: index).map(Self.isPunctuation) ?? false))
        }
        index += run
      default:
        index += 1
      }
    }
    // An image that never closed is hidden whole.
    if let image = brackets.first(where: { $0.isImage }) { return .cut(image.position) }
    // Brackets still open will close as pending links; an empty one shows nothing.
    var openLinks = brackets.filter { $0.active }
    if let pending = pendingBracket { openLinks.append(pending) }
    if let last = openLinks.last, pendingBracket == nil || last.position != pendingBracket?.position {
      if openCode == nil && !hasContent(from: last.position + 1, to: end) { return .cut(last.position) }
    }
    var closers: [UInt8] = []
    if let openCode { closers += [UInt8](repeating: UInt8(ascii: "`"), count: openCode) }
    for link in openLinks.reversed() {
      Self.processEmphasis(&delimiters, bottom: link.delimiterBottom)
      for delimiter in delimiters[link.delimiterBottom...].reversed() where Self.isHealable(delimiter) {
        closers += [UInt8](repeating: delimiter.character, count: delimiter.count)
      }
      delimiters.removeSubrange(link.delimiterBottom...)
      if pendingBracket?.position == link.position {
        closers += Array("(".utf8) + Self.pendingDestination + Array(")".utf8)
      } else {
        closers += Array("](".utf8) + Self.pendingDestination + Array(")".utf8)
      }
    }
    Self.processEmphasis(&delimiters, bottom: 0)
    for delimiter in delimiters.reversed() where Self.isHealable(delimiter) {
      closers += [UInt8](repeating: delimiter.character, count: delimiter.count)
    }
    return .heal(truncateAt: truncateAt, closers: closers)
  }

  /// An opener we close: it can open, cannot close (an intraword run like `bar*baz` is left
  /// alone, as CommonMark would not reopen it) unless punctuation precedes it (`(*"`), and still
  /// has unmatched delimiters.
  static func isHealable(_ delimiter: Delimiter) -> Bool {
    delimiter.count > 0 && delimiter.canOpen && (!delimiter.canClose || delimiter.afterPunctuation)
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
      if bytes[index] == UInt8(ascii: "`") {
        let run = runLength(at: index)
        if run == length { return index }
        index += run
      } else {
        index += 1
      }
    }
    return nil
  }

  enum TagScan { case complete(Int), incomplete, literal }

  /// A raw HTML tag, comment or autolink starting at `<`: complete, still arriving, or just text.
  private func htmlOrAutolink(at index: Int) -> TagScan {
    let next = index + 1
    guard next < end else { return .incomplete }
    let first = bytes[next]
    let startsTag =
      Self.isASCIILetter(first) || first == UInt8(ascii: "/") || first == UInt8(ascii: "!")
      || first == UInt8(ascii: "?")
    guard startsTag else { return .literal }
    var cursor = next
    while cursor < end {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: ">") { return .complete(cursor + 1) }
      if byte == UInt8(ascii: "<") { return .literal }
      cursor += 1
    }
    return .incomplete
  }

  private func isPartialEntity(at index: Int) -> Bool {
    var cursor = index + 1
    if cursor < end && bytes[cursor] == UInt8(ascii: "#") { cursor += 1 }
    while cursor < end && cursor - index <= 32 {
      let byte = bytes[cursor]
      guard Self.isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) else { return false }
      cursor += 1
    }
    return cursor == end
  }

  enum LinkTail { case complete(Int), incomplete, invalid }

  /// Scans an inline link's `(destination "title")` after its `(`.
  private func linkTail(from start: Int) -> LinkTail {
    var index = start
    func skipSpace() {
      while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
        index += 1
      }
    }
    skipSpace()
    guard index < end else { return .incomplete }
    if bytes[index] == UInt8(ascii: "<") {
      index += 1
      while index < end && bytes[index] != UInt8(ascii: ">") {
        if bytes[index] == 0x0A || bytes[index] == UInt8(ascii: "<") { return .invalid }
        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
        index += 1
      }
      guard index < end else { return .incomplete }
      index += 1
    } else {
      var depth = 0
      while index < end {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if byte <= 0x20 { break }
        if byte == UInt8(ascii: "(") { depth += 1 }
        if byte == UInt8(ascii: ")") {
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
    if opener == UInt8(ascii: "\"") || opener == UInt8(ascii: "'") || opener == UInt8(ascii: "(") {
      let closer = opener == UInt8(ascii: "(") ? UInt8(ascii: ")") : opener
      index += 1
      while index < end && bytes[index] != closer {
        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
        index += 1
      }
      guard index < end else { return .incomplete }
      index += 1
      skipSpace()
      guard index < end else { return .incomplete }
    }
    return bytes[index] == UInt8(ascii: ")") ? .complete(index + 1) : .invalid
  }

  /// CommonMark's left/right flanking rules for the run `runStart..<runEnd`.
  private func flanking(runStart: Int, runEnd: Int, character: UInt8) -> (Bool, Bool) {
    let before = scalar(endingBefore: runStart)
    let after = runEnd < end ? scalar(startingAt: runEnd) : nil
    let beforeSpace = before.map(Self.isWhitespace) ?? true
    let afterSpace = after.map(Self.isWhitespace) ?? true
    let beforePunct = before.map(Self.isPunctuation) ?? false
    let afterPunct = after.map(Self.isPunctuation) ?? false
    let left = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
    let right = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
    if character == UInt8(ascii: "_") {
      return (left && (!right || beforePunct), right && (!left || afterPunct))
    }
    return (left, right)
  }

  private func scalar(endingBefore index: Int) -> Unicode.Scalar? {
    guard index > start else { return nil }
    var cursor = index - 1
    while cursor > start && bytes[cursor] & 0xC0 == 0x80 { cursor -= 1 }
    return String(decoding: bytes[cursor..<index], as: UTF8.self).unicodeScalars.first
  }

  private func scalar(startingAt index: Int) -> Unicode.Scalar? {
    var cursor = index + 1
    while cursor < end && bytes[cursor] & 0xC0 == 0x80 { cursor += 1 }
    return String(decoding: bytes[index..<cursor], as: UTF8.self).unicodeScalars.first
  }

  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
    default: return scalar.properties.generalCategory == .spaceSeparator
    }
  }

  static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return isASCIIPunctuation(UInt8(scalar.value)) }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation:
      return true
    default:
      return false
    }
  }

  static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
    (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40) || (byte >= 0x5B && byte <= 0x60)
      || (byte >= 0x7B && byte <= 0x7E)
  }

  static func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// CommonMark's "process emphasis" over `delimiters[bottom...]`: matched counts are consumed,
  /// so what remains with a count is unmatched.
  static func processEmphasis(_ delimiters: inout [Delimiter], bottom: Int) {
    var closer = bottom
    while closer < delimiters.count {
      let current = delimiters[closer]
      guard current.canClose, current.count > 0 else {
        closer += 1
        continue
      }
      var found: Int?
      var opener = closer - 1
      while opener >= bottom {
        let candidate = delimiters[opener]
        if candidate.character == current.character && candidate.canOpen && candidate.count > 0 {
          if current.character == UInt8(ascii: "~") {
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
        opener -= 1
      }
      if let found {
        let use =
          current.character == UInt8(ascii: "~")
          ? current.count : (delimiters[found].count >= 2 && current.count >= 2 ? 2 : 1)
        delimiters[found].count -= use
        delimiters[closer].count -= use
        for between in (found + 1)..<closer { delimiters[between].count = 0 }
        if delimiters[closer].count == 0 { closer += 1 }
      } else {
        if !current.canOpen { delimiters[closer].count = 0 }
        closer += 1
      }
    }
  }
}
