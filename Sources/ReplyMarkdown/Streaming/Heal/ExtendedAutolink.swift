/// The addresses cmark-gfm's autolink extension links while it parses inlines: `www.` and the
/// schemes `http://`, `https://` and `ftp://`. Such an address takes every byte up to the next
/// space or `<` — delimiter runs, backticks, brackets and backslashes included — and then gives
/// back trailing punctuation (`?!.,:*_~'"`, a `)` without its `(`, an entity's `;`).
///
/// ``InlineHealScanner`` steps over them as the parse will: a `*` or a backtick inside one opens
/// nothing, so a closer written for it would show in the address or after it (`www.*a` got a `*`
/// after its link, `` www.`a `` a backtick inside its href: a trial). E-mail addresses are found
/// after inline parsing, in text nodes, and take nothing from it.
///
/// This follows cmark-gfm 0.29.0.gfm.6 (the Debian package): a domain is read from its second
/// byte, stops at the first byte that is neither a letter, digit or other non-punctuation
/// character, nor `-`, `_` or `.`, and links nothing when one of its last two segments holds `_`.
struct ExtendedAutolink {
  let bytes: [UInt8]
  /// The inline content the parse reads (cmark-gfm's subject): `bytes[start..<end]`.
  let start: Int
  let end: Int
  /// Where the block that holds the content starts, on its first line (``InlineHealScanner/blockStart``).
  let blockStart: Int

  /// A `www.` candidate's domain, kept for the candidates after it in the same run of domain
  /// bytes (`_www.a_www.a…`): each would otherwise read the run to its end again.
  private var run: DomainRun?

  private struct DomainRun {
    /// Where the domain stops (the first byte that ends it, or `end - 1`).
    let stop: Int
    /// The last `.` before `stop`, and the one before it (nil where there is none).
    let lastDot: Int?
    let previousDot: Int?
    /// `_` after the last dot, and between the two last dots.
    let underscoresAfterLastDot: Int
    let underscoresBeforeLastDot: Int
  }

  init(bytes: [UInt8], start: Int, end: Int, blockStart: Int? = nil) {
    self.bytes = bytes
    self.start = start
    self.end = end
    self.blockStart = min(blockStart ?? start, start)
  }

  /// Where the address the extension links at `index` ends, or nil where it links none. `index`
  /// holds the byte the extension is asked about (`w` or `:`); the caller checks that no link or
  /// image text is open there (the extension links nothing inside one).
  ///
  /// - Complexity: O(length of the address) when it links one; otherwise O(1) amortised over the
  ///   candidates of one domain (the domain is read once).
  mutating func end(at index: Int) -> Int? {
    switch bytes[index] {
    case UInt8(ascii: "w"): return wwwEnd(at: index)
    case ASCII.colon: return schemeEnd(at: index)
    default: return nil
    }
  }

  private mutating func wwwEnd(at index: Int) -> Int? {
    if index > start {
      let before = bytes[index - 1]
      guard Self.mayPrecedeWWW.contains(before) || ASCII.isCmarkSpace(before) || startsLineAfterMarkers(index) else {
        return nil
      }
    }
    guard end - index >= 4, bytes[index + 1] == UInt8(ascii: "w"), bytes[index + 2] == UInt8(ascii: "w"),
      bytes[index + 3] == ASCII.period
    else { return nil }
    let domain: DomainRun
    if let known = run, index < known.stop {
      domain = known
    } else {
      domain = scanDomain(from: index)
      run = domain
    }
    // A `www.` domain needs a dot read (its own, unless the content ends there). When its own is the
    // last, the segment before it is its `ww`, which holds no `_`.
    guard let lastDot = domain.lastDot, lastDot > index else { return nil }
    let underscoresBefore = (domain.previousDot ?? index) > index ? domain.underscoresBeforeLastDot : 0
    guard domain.underscoresAfterLastDot == 0 && underscoresBefore == 0 else { return nil }
    return linkEnd(from: index, domainEnd: domain.stop)
  }

  /// Whether only block quote markers and blanks come before `index` on its line, in a quote: the
  /// parse reads that line without them, so `index` starts it (`> z`, `>www.)[a`: the address
  /// took the closer written for `[a`, placeholder destination and all; fuzz seed 1396). On a line
  /// after the content's first, the markers count where the block's first line is in a quote
  /// (not the content's first line: after a quoted paragraph's definitions it may be a lazy one,
  /// `>[x]:z`, `**`, `>www.)[r`; fuzz seed 1402); where the content itself starts at a line's
  /// start with its markers inside it (the inline content after a quoted paragraph's
  /// definitions, `>[x]:z`, `>www.)[a`; fuzz seed 1399), a `>` after at most three blanks is a
  /// marker (a line of the content cannot open a quote). Each run of markers is read back once,
  /// from the byte after it.
  private func startsLineAfterMarkers(_ index: Int) -> Bool {
    var at = index
    while at > start, bytes[at - 1] == ASCII.greaterThan || ASCII.isBlank(bytes[at - 1]) { at -= 1 }
    guard at == 0 || InlineHealScanner.isLineEnd(bytes[at - 1]) else { return false }
    guard at == start else { return isQuoted }
    let blanks = bytes[start..<index].prefix(while: ASCII.isBlank).count
    return blanks < 4 && start + blanks < index && bytes[start + blanks] == ASCII.greaterThan
  }

  /// Whether the block's first line opens after a block quote marker: only then are the `>`
  /// that open its later lines markers, not text (a line of the content cannot open a quote).
  /// Read only for a `www.` after markers at a line start: a table's cells are contents of one
  /// line each, and reading the line back for each would cost the row once per cell.
  private var isQuoted: Bool {
    var lineStart = blockStart
    while lineStart > 0, !InlineHealScanner.isLineEnd(bytes[lineStart - 1]) { lineStart -= 1 }
    return bytes[lineStart..<blockStart].contains(ASCII.greaterThan)
  }

  /// `http://`, `https://` or `ftp://` (ASCII case-insensitively, every letter before the `:`),
  /// then a byte that is no space or punctuation.
  private func schemeEnd(at index: Int) -> Int? {
    guard end - index >= 4, bytes[index + 1] == ASCII.slash, bytes[index + 2] == ASCII.slash else { return nil }
    var schemeStart = index
    while schemeStart > start && ASCII.isLetter(bytes[schemeStart - 1]) && index - schemeStart <= 5 {
      schemeStart -= 1
    }
    if schemeStart > start && ASCII.isLetter(bytes[schemeStart - 1]) { return nil }
    let scheme = bytes[schemeStart..<index].map { $0 | 0x20 }
    guard Self.schemes.contains(where: { $0.elementsEqual(scheme) }), isHostCharacter(at: index + 3) else {
      return nil
    }
    // The domain, read from its second byte: only its underscores can refuse it.
    let domain = scanDomain(from: index + 3)
    guard domain.underscoresAfterLastDot == 0 && domain.underscoresBeforeLastDot == 0 else { return nil }
    return linkEnd(from: index, domainEnd: domain.stop)
  }

  /// Reads a domain that starts at `first` from its second byte, as cmark-gfm's `check_domain`.
  private func scanDomain(from first: Int) -> DomainRun {
    var index = first + 1
    var lastDot: Int?
    var previousDot: Int?
    var underscoresAfter = 0
    var underscoresBefore = 0
    while index < end - 1 {
      let byte = bytes[index]
      if byte == ASCII.underscore {
        underscoresAfter += 1
      } else if byte == ASCII.period {
        previousDot = lastDot
        lastDot = index
        underscoresBefore = underscoresAfter
        underscoresAfter = 0
      } else if byte != ASCII.hyphen && !isHostCharacter(at: index) {
        break
      }
      index += 1
    }
    // Without a dot every `_` read is in the one segment, counted as after the last.
    return DomainRun(
      stop: index, lastDot: lastDot, previousDot: previousDot, underscoresAfterLastDot: underscoresAfter,
      underscoresBeforeLastDot: underscoresBefore)
  }

  /// The address from `first`: on to the next space or `<`, less the trailing punctuation
  /// cmark-gfm gives back (`autolink_delim`).
  private func linkEnd(from first: Int, domainEnd: Int) -> Int? {
    var stop = max(domainEnd, first)
    while stop < end && !ASCII.isCmarkSpace(bytes[stop]) && bytes[stop] != ASCII.lessThan { stop += 1 }
    var opening = 0
    var closing = 0
    for byte in bytes[first..<stop] {
      if byte == ASCII.openParenthesis { opening += 1 } else if byte == ASCII.closeParenthesis { closing += 1 }
    }
    trim: while stop > first {
      switch bytes[stop - 1] {
      case ASCII.closeParenthesis:
        guard closing > opening else { break trim }
        closing -= 1
        stop -= 1
      case ASCII.question, ASCII.exclamation, ASCII.period, UInt8(ascii: ","), ASCII.colon, ASCII.star,
        ASCII.underscore, ASCII.tilde, ASCII.apostrophe, ASCII.quote:
        stop -= 1
      case UInt8(ascii: ";"):
        // An entity (`&amp;`) at the end goes whole; a bare `;` alone.
        var cursor = stop - 2
        while cursor > first && ASCII.isLetter(bytes[cursor]) { cursor -= 1 }
        stop = cursor < stop - 2 && bytes[cursor] == ASCII.ampersand ? cursor : stop - 1
      default:
        break trim
      }
    }
    return stop > first ? stop : nil
  }

  /// Whether the character at `index` may stand in a domain: not a space or punctuation, and a
  /// character's first byte (cmark-gfm reads a domain byte by byte, and a byte inside a
  /// character decodes as nothing).
  private func isHostCharacter(at index: Int) -> Bool {
    guard index < end else { return false }
    let byte = bytes[index]
    if byte < 0x80 { return !ASCII.isPunctuation(byte) && !InlineHealScanner.isWhitespace(Unicode.Scalar(byte)) }
    if ASCII.isUTF8Continuation(byte) { return false }
    var cursor = index + 1
    while cursor < end && ASCII.isUTF8Continuation(bytes[cursor]) { cursor += 1 }
    guard let scalar = String(decoding: bytes[index..<cursor], as: UTF8.self).unicodeScalars.first else { return false }
    return !InlineHealScanner.isWhitespace(scalar) && !InlineHealScanner.isPunctuation(scalar)
  }

  /// The bytes after which `www.` may start an address (besides spaces and the content's start).
  static let mayPrecedeWWW: Set<UInt8> = [ASCII.star, ASCII.underscore, ASCII.tilde, ASCII.openParenthesis]

  static let schemes: [[UInt8]] = [Array("http".utf8), Array("https".utf8), Array("ftp".utf8)]
}
