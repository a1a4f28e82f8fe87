/// The brackets of text nodes that the source wrote escaped (`\[`) or as entities (`&#91;`): no
/// link opens or closes at them, yet cmark-gfm merges them into the text around them, where
/// ``PendingReferences`` would read `\[ E = mc^2 \]` as a bracketed label and show it as a
/// pending link (display math in a streamed reply showed as a link until its paragraph closed).
///
/// The document's text literals get such brackets as noncharacters (``open``, ``close``), which no
/// scan for `[` or `]` reads, and ``restoring(_:)`` writes them back.
enum EscapedBrackets {
  /// What an escaped `[` and `]` stand as while masked: noncharacters, which a text holding them
  /// already is left alone for.
  static let open: Unicode.Scalar = Unicode.Scalar(0xFDD0 as UInt32) ?? "\u{E000}"
  static let close: Unicode.Scalar = Unicode.Scalar(0xFDD1 as UInt32) ?? "\u{E001}"

  /// `document`, parsed from `source`, with the escaped brackets of its text nodes masked; the
  /// document itself when it has none, or when a node's brackets do not match its source's. Any
  /// position is safe: one outside `source` masks nothing (a parse that read the input guard's
  /// text, escaped where `source` is not, has positions past its lines' ends).
  ///
  /// - Complexity: O(n) in the text of the nodes holding brackets and their source.
  static func masking(_ document: MarkdownDocument, source: [UInt8]) -> MarkdownDocument {
    var bytesRead = 0
    return masking(document, source: source, bytesRead: &bytesRead)
  }

  /// ``masking(_:source:)``, adding to `bytesRead` the bytes of `source` it reads for the nodes
  /// (at most the nodes' bytes and ``maximumLazyShift`` more, ``maximumLazyShift`` + 2 times, and
  /// ``maximumBytesPerByte`` times a node's literal once).
  static func masking(_ document: MarkdownDocument, source: [UInt8], bytesRead: inout Int) -> MarkdownDocument {
    guard mayEscapeBrackets(source) else { return document }
    var nodes = document.nodes
    var lineStarts: [Int]?
    var changed = false
    for index in nodes.indices {
      guard case .text(let literal) = nodes[index].kind, literal.utf8.contains(where: isBracket),
        let range = nodes[index].range
      else { continue }
      let starts = lineStarts ?? SourceLines.lineStarts(source)
      lineStarts = starts
      guard range.start.line >= 1, range.start.line <= range.end.line, range.end.line <= starts.count else { continue }
      let lineStart = starts[range.start.line - 1]
      let start = lineStart + range.start.column - 1
      let end = starts[range.end.line - 1] + range.end.column
      // Within the source: a guarded parse's columns may pass its lines' ends (fuzz seed 1357: 400
      // brackets and more in a paragraph, which the guard escapes, read past the source's end).
      guard start >= lineStart, start < end, end <= source.count else { continue }
      // A node may start at the character a backslash before it escapes (`\[not]`).
      // The node's columns as they stand must agree with its first and last bytes; a read that
      // moves or widens them, with its first byte where its start is taken as right (a lazy
      // line's end is often off by another amount), or neither.
      func read(_ bytes: Range<Int>, alignment: Alignment = .whole, checksStart: Bool = true, checksEnd: Bool = false)
        -> Reading
      {
        var from = bytes.lowerBound
        var backslashes = 0
        while from - backslashes > 0 && source[from - backslashes - 1] == ASCII.backslash { backslashes += 1 }
        if backslashes % 2 == 1 { from -= 1 }
        bytesRead += bytes.upperBound - from
        return Self.reading(
          literal, written: source[from..<bytes.upperBound], alignment: alignment, checksStart: checksStart,
          checksEnd: checksEnd)
      }
      var reading = read(start..<end, checksEnd: true)
      // On a lazy line of a quote cmark-gfm counts columns past the marker the line does not have,
      // the start's and often the end's. When the node's columns do not pair up with it, its
      // columns moved back by up to a marker's width per quote level, then the bytes from as far
      // back to its end, whose last brackets are the node's (a pending link's `[` later on the line
      // then counts for nothing: fuzz seed 1357). Each reads the node's bytes and a few more: a
      // line of many nodes is not read again per node (that made a long line quadratic).
      var shift = 1
      while case .unpaired = reading, shift <= Self.maximumLazyShift, start - shift >= lineStart {
        reading = read((start - shift)..<(end - shift))
        shift += 1
      }
      if case .unpaired = reading {
        let back = max(lineStart, start - Self.maximumLazyShift)
        reading = read(back..<end, alignment: .atEnd, checksStart: false)
      }
      // Without source positions asked for, cmark-gfm may end a text node after a line break of
      // its paragraph far short of its last byte (` not a tag`, then `\[not a li…nk](/fo(((` and
      // more brackets: a node of 93 bytes ended 33 columns after its start, and the escaped
      // bracket showed as a pending link: fuzz seed 1358). Last, the bytes from its start, as many
      // as its literal can be written with (an entity writes a bracket in at most eight), whose
      // first brackets are the node's.
      if case .unpaired = reading {
        let lineEnd = range.start.line < starts.count ? starts[range.start.line] : source.count
        let limit = min(lineEnd, start + Self.maximumBytesPerByte * literal.utf8.count)
        if limit > end { reading = read(start..<limit, alignment: .atStart) }
      }
      guard case .masked(let masked) = reading else { continue }
      nodes[index].kind = .text(masked)
      changed = true
    }
    guard changed else { return document }
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// How far back ``masking(_:source:)`` looks for a text node on a lazy line whose columns are
  /// off: two columns (`> `) for each of eight quote levels.
  static let maximumLazyShift = 16

  /// The most bytes the source writes one byte of a text literal with: `&rbrack;` for `]`.
  static let maximumBytesPerByte = 8

  /// Where a text literal's brackets stand among the brackets of bytes read for it.
  enum Alignment {
    /// The bytes are the literal's source: all their brackets are its.
    case whole
    /// The bytes may begin before the literal's source: their last brackets are its.
    case atEnd
    /// The bytes may run on after the literal's source: their first brackets are its.
    case atStart
  }

  /// Whether `source` holds a backslash before a bracket or an `&` before `#` or a letter: where
  /// none is, no bracket is escaped, and the nodes need no reading.
  ///
  /// - Complexity: O(n), a scan of the bytes.
  static func mayEscapeBrackets(_ source: [UInt8]) -> Bool {
    source.withUnsafeBufferPointer { bytes in
      guard bytes.count >= 2 else { return false }
      for index in 0..<(bytes.count - 1) {
        switch bytes[index] {
        case ASCII.backslash where isBracket(bytes[index + 1]): return true
        case UInt8(ascii: "&") where bytes[index + 1] == UInt8(ascii: "#") || ASCII.isLetter(bytes[index + 1]):
          return true
        default: continue
        }
      }
      return false
    }
  }

  /// How a text node's literal reads against bytes that may be its source.
  enum Reading {
    /// The literal with the brackets the source escapes masked.
    case masked(String)
    /// The brackets pair up and none is escaped: nothing to mask.
    case plain
    /// The brackets do not pair up in order: these bytes are not the literal's source.
    case unpaired
  }

  /// `literal` with the brackets that `written` (its source) escapes masked; nil when none is, or
  /// when the brackets of the two do not pair up in order (the literal then stands as it is).
  static func masked(_ literal: String, written: ArraySlice<UInt8>) -> String? {
    guard case .masked(let masked) = reading(literal, written: written) else { return nil }
    return masked
  }

  /// How `literal` reads against `written`, whose brackets stand to the literal's as `alignment`
  /// says; with `checksStart` (`checksEnd`), bytes that do not begin (end) as the literal does
  /// (``firstAgrees(_:_:)``, ``lastAgrees(_:_:)``) are unpaired.
  ///
  /// - Complexity: O(n) in `written` and `literal`.
  static func reading(
    _ literal: String, written: ArraySlice<UInt8>, alignment: Alignment = .whole, checksStart: Bool = true,
    checksEnd: Bool = true
  ) -> Reading {
    // Bytes that do not begin (or end) as the literal does are not its source, though their
    // brackets may pair up with its (on a lazy line, columns four too many put a code span's
    // `\]` in the place of a plain `]`, which then showed a link's text as text: a review).
    if checksStart && !firstAgrees(literal, written) { return .unpaired }
    if checksEnd && !lastAgrees(literal, written) { return .unpaired }
    // For each bracket `written` produces, in order: the bracket, and whether it is a plain one.
    var raw: [(bracket: UInt8, plain: Bool)] = []
    var index = written.startIndex
    while index < written.endIndex {
      let byte = written[index]
      if byte == ASCII.backslash, index + 1 < written.endIndex, ASCII.isPunctuation(written[index + 1]) {
        if isBracket(written[index + 1]) { raw.append((written[index + 1], false)) }
        index += 2
      } else if byte == UInt8(ascii: "&"), let (decoded, end) = entity(written, at: index) {
        if isBracket(decoded) { raw.append((decoded, false)) }
        index = end
      } else {
        if isBracket(byte) { raw.append((byte, true)) }
        index += 1
      }
    }
    let brackets = literal.utf8.filter(isBracket)
    if raw.count > brackets.count {
      switch alignment {
      case .whole: break
      case .atEnd: raw.removeFirst(raw.count - brackets.count)
      case .atStart: raw.removeLast(raw.count - brackets.count)
      }
    }
    guard raw.map(\.bracket) == brackets else { return .unpaired }
    guard raw.contains(where: { !$0.plain }), !literal.unicodeScalars.contains(where: { $0 == open || $0 == close })
    else { return .plain }
    var scalars = String.UnicodeScalarView()
    var bracket = 0
    for scalar in literal.unicodeScalars {
      guard scalar == "[" || scalar == "]" else {
        scalars.append(scalar)
        continue
      }
      scalars.append(raw[bracket].plain ? scalar : (scalar == "[" ? open : close))
      bracket += 1
    }
    return .masked(String(scalars))
  }

  /// Whether `written` may begin as `literal` does: their first ASCII bytes are the same (an
  /// escaped one counting as itself), or `written` begins with what decodes or may be replaced
  /// (an entity, and the quotes, dashes and dots of smart punctuation), or either begins with
  /// another byte (cmark-gfm writes NUL as U+FFFD).
  static func firstAgrees(_ literal: String, _ written: ArraySlice<UInt8>) -> Bool {
    guard let first = literal.utf8.first, var byte = written.first else { return true }
    if byte == ASCII.backslash, written.count >= 2, ASCII.isPunctuation(written[written.startIndex + 1]) {
      byte = written[written.startIndex + 1]
    }
    return byte == UInt8(ascii: "&") || agree(first, byte)
  }

  /// Whether `written` may end as `literal` does (``firstAgrees(_:_:)``, an entity's `;` for its
  /// end).
  static func lastAgrees(_ literal: String, _ written: ArraySlice<UInt8>) -> Bool {
    guard let last = literal.utf8.last, let byte = written.last else { return true }
    return byte == UInt8(ascii: ";") || agree(last, byte)
  }

  private static func agree(_ literal: UInt8, _ written: UInt8) -> Bool {
    if literal >= 0x80 || written >= 0x80 || written == 0 { return true }
    switch written {
    case UInt8(ascii: "'"), UInt8(ascii: "\""), ASCII.hyphen, ASCII.period: return true
    default: return literal == written
    }
  }

  /// `document` with the masked brackets of its text nodes written back.
  static func restoring(_ document: MarkdownDocument) -> MarkdownDocument {
    var nodes = document.nodes
    var changed = false
    for index in nodes.indices {
      guard case .text(let literal) = nodes[index].kind,
        literal.unicodeScalars.contains(where: { $0 == open || $0 == close })
      else { continue }
      var scalars = String.UnicodeScalarView()
      for scalar in literal.unicodeScalars {
        scalars.append(scalar == open ? "[" : scalar == close ? "]" : scalar)
      }
      nodes[index].kind = .text(String(scalars))
      changed = true
    }
    guard changed else { return document }
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// The bracket an entity at `start` (`&#91;`, `&#x5D;`, `&lsqb;`, …) stands for, and where it
  /// ends; nil for any other text.
  private static func entity(_ bytes: ArraySlice<UInt8>, at start: Int) -> (UInt8, Int)? {
    guard let semicolon = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
    let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self).lowercased()
    let value: Int?
    switch name {
    case "lsqb", "lbrack": value = 0x5B
    case "rsqb", "rbrack": value = 0x5D
    default:
      if name.hasPrefix("#x") {
        value = Int(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        value = Int(name.dropFirst(1))
      } else {
        value = nil
      }
    }
    guard let value, value == 0x5B || value == 0x5D else { return nil }
    return (UInt8(value), semicolon + 1)
  }

  private static func isBracket(_ byte: UInt8) -> Bool { byte == ASCII.openBracket || byte == ASCII.closeBracket }
}
