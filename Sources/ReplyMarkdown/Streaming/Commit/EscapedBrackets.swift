/// The brackets of text nodes that the source wrote escaped (`\[`) or as entities (`&#91;`): no
/// link opens or closes at them, yet cmark-gfm merges them into the text around them, where
/// ``PendingReferences`` would read `\[ E = mc^2 \]` as a bracketed label and show it as a
/// pending link (display math in a streamed reply showed as a link until its paragraph closed).
///
/// The document's text literals get such brackets as noncharacters (``open``, ``close``), which no
/// scan for `[` or `]` reads, and ``restoring(_:)`` writes them back.
///
/// A node's source is found by reading its literal back from the source: cmark-gfm's columns for
/// inline nodes, asked for without source positions, are only a hint. On a quote's lazy line they
/// count the marker the line lacks; in a list item, its indentation; after an indented first
/// line of a paragraph, that indentation; after a hard line break the line is not counted at all;
/// and an end column may fall anywhere (a 93-byte node ended 33 columns after its start). So the
/// literal is matched, byte for byte with escapes and entities decoded (by cmark-gfm's own
/// decoder), at the hinted place or the nearest one within ``maximumShift`` bytes where it matches
/// whole, else after the node before it; only that place says which of its brackets the source
/// escapes.
enum EscapedBrackets {
  /// What an escaped `[` and `]` stand as while masked: noncharacters, which a text holding them
  /// already is left alone for.
  static let open: Unicode.Scalar = Unicode.Scalar(0xFDD0 as UInt32) ?? "\u{E000}"
  static let close: Unicode.Scalar = Unicode.Scalar(0xFDD1 as UInt32) ?? "\u{E001}"

  /// How far from the place cmark-gfm's position gives a node's literal is looked for: the
  /// markers of 32 quote levels, or a continuation line's indentation of 64 columns. Past it the
  /// node is not masked (its escaped brackets may show as a pending link's until the text ends).
  static let maximumShift = 64

  /// `document`, parsed from `source`, with the escaped brackets of its text nodes masked; the
  /// document itself when it has none, or when no node's literal is found in the source near its
  /// position. Any position is safe: one outside `source` masks nothing (a parse that read the
  /// input guard's text, escaped where `source` is not, has positions past its lines' ends).
  ///
  /// - Complexity: O(n) in the text of the nodes holding brackets, times the places tried for a
  ///   node whose literal is not found near its position (at most 2 × ``maximumShift`` + 1 +
  ///   ``maximumForward``; a place that does not match usually fails within a few bytes).
  static func masking(_ document: MarkdownDocument, source: [UInt8]) -> MarkdownDocument {
    var bytesRead = 0
    return masking(document, source: source, bytesRead: &bytesRead)
  }

  /// ``masking(_:source:)``, adding to `bytesRead` the bytes of `source` it compares.
  static func masking(_ document: MarkdownDocument, source: [UInt8], bytesRead: inout Int) -> MarkdownDocument {
    guard mayEscapeBrackets(source) else { return document }
    var nodes = document.nodes
    var lineStarts: [Int]?
    var changed = false
    // Where the last node found ends: nodes come in the source's order (but for footnote
    // definitions, which cmark-gfm moves to the end).
    var cursor = 0
    // The last node before this one with a position, of any kind.
    var positioned: Int?
    for index in nodes.indices {
      defer { if nodes[index].range.map({ $0.start.line >= 1 }) == true { positioned = index } }
      guard case .text(let literal) = nodes[index].kind, literal.utf8.contains(where: isBracket) else { continue }
      let starts = lineStarts ?? SourceLines.lineStarts(source)
      lineStarts = starts
      func place(of node: Int) -> Int? {
        guard let range = nodes[node].range, range.start.line >= 1, range.start.line <= starts.count else { return nil }
        return starts[range.start.line - 1] + max(0, range.start.column - 1)
      }
      var hint = cursor
      var after = cursor
      if nodes[index].range.map({ $0.start.line >= 1 }) == true {
        guard let place = place(of: index) else { continue }
        hint = place
      } else if let positioned, let place = place(of: positioned) {
        // A node without a position (the text after an address the autolink extension linked:
        // `at@github.com\[not a li…` showed the escaped bracket as a pending link's, fuzz seed
        // 1363) is looked for after the node before it, and after the last node with a position
        // (where no bracket holds the cursor back: after a code span of 1 KB, `&#93;` showed as a
        // pending link's closing bracket, fuzz seed 1409), less the error its position may have.
        hint = max(cursor, place - maximumShift)
        after = hint
      }
      guard let found = located(literal, in: source, near: hint, after: after, bytesRead: &bytesRead) else {
        continue
      }
      cursor = found.end
      guard let masked = found.masked else { continue }
      nodes[index].kind = .text(masked)
      changed = true
    }
    guard changed else { return document }
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// Where `literal` is read in `source`, and it with its escaped brackets masked (nil when it
  /// escapes none): at the place nearest `hint` (within ``maximumShift``, earlier places first at
  /// each distance, none before `cursor`, the end of the node before it) where it matches whole,
  /// else at the first after `cursor`, up to ``maximumForward`` bytes on (after a hard line break
  /// cmark-gfm gives every node of the next line that line's start), else near `hint` before
  /// `cursor`. Nil when it matches nowhere, or already holds a noncharacter of ours.
  static func located(
    _ literal: String, in source: [UInt8], near hint: Int, after cursor: Int = 0, bytesRead: inout Int
  ) -> (masked: String?, end: Int)? {
    guard !literal.unicodeScalars.contains(where: { $0 == open || $0 == close }) else { return nil }
    let bytes = Array(literal.utf8)
    func read(at place: Int) -> (masked: String?, end: Int)? {
      guard place >= 0, place < source.count,
        let (plain, end) = plainBrackets(bytes, source: source, from: place, bytesRead: &bytesRead)
      else { return nil }
      return (plain.contains(false) ? masked(literal, plain: plain) : nil, end)
    }
    // The hint, then one byte before it, one after, two before, and so on: first those not before
    // the node before it, then the rest (a footnote definition's, which cmark-gfm moves to the end).
    for beforeCursor in [false, true] {
      for step in 0...(2 * maximumShift) {
        let place = step % 2 == 1 ? hint - (step + 1) / 2 : hint + step / 2
        guard (place < cursor) == beforeCursor else { continue }
        if let found = read(at: place) { return found }
      }
      guard !beforeCursor else { break }
      let tried = (hint - maximumShift)...(hint + maximumShift)
      // (Nothing forward when the node before ends at the source's end or past it: a range from
      // past its end trapped, fuzz seed 1430.)
      let forwardEnd = max(cursor, min(source.count, cursor + maximumForward))
      for place in cursor..<forwardEnd where !tried.contains(place) {
        if let found = read(at: place) { return found }
      }
    }
    return nil
  }

  /// How far after the end of the node before it a node's literal is looked for when it is not
  /// found near its position.
  static let maximumForward = 1024

  /// `literal` with the brackets that `written` (its source, from its first byte) escapes masked;
  /// nil when none is, or when `written` does not begin with the literal.
  static func masked(_ literal: String, written: ArraySlice<UInt8>) -> String? {
    var bytesRead = 0
    guard !literal.unicodeScalars.contains(where: { $0 == open || $0 == close }),
      let (plain, _) = plainBrackets(Array(literal.utf8), source: Array(written), from: 0, bytesRead: &bytesRead),
      plain.contains(false)
    else { return nil }
    return masked(literal, plain: plain)
  }

  private static func masked(_ literal: String, plain: [Bool]) -> String {
    var scalars = String.UnicodeScalarView()
    var bracket = 0
    for scalar in literal.unicodeScalars {
      guard scalar == "[" || scalar == "]" else {
        scalars.append(scalar)
        continue
      }
      scalars.append(plain[bracket] ? scalar : (scalar == "[" ? open : close))
      bracket += 1
    }
    return String(scalars)
  }

  /// For each bracket of `literal` in order, whether `source` from `start` writes it plain (not
  /// escaped, not an entity), when the source's text from there on its line reads as the whole
  /// literal: backslash escapes and entities decoded as cmark-gfm decodes them, NUL as U+FFFD, and
  /// the quotes, dashes and dots smart punctuation replaces; and where that reading ends. Nil
  /// where it does not.
  ///
  /// - Complexity: O(n) in the literal; usually a few bytes where it does not match.
  static func plainBrackets(_ literal: [UInt8], source: [UInt8], from start: Int, bytesRead: inout Int) -> (
    plain: [Bool], end: Int
  )? {
    var plain: [Bool] = []
    var index = start
    var position = 0
    defer { bytesRead += index - start }
    // A first byte that a backslash before it escapes (the node of `\[not]` starts at the `[`).
    if start < source.count, !literal.isEmpty, ASCII.isPunctuation(source[start]) {
      var backslashes = 0
      while start - backslashes > 0 && source[start - backslashes - 1] == ASCII.backslash { backslashes += 1 }
      if backslashes % 2 == 1 {
        guard literal[0] == source[start] else { return nil }
        if isBracket(literal[0]) { plain.append(false) }
        index += 1
        position += 1
      }
    }
    while position < literal.count {
      guard index < source.count else { return nil }
      let byte = source[index]
      if byte == ASCII.newline || byte == ASCII.carriageReturn { return nil }
      let expected = literal[position]
      if byte == ASCII.backslash, index + 1 < source.count, ASCII.isPunctuation(source[index + 1]) {
        guard expected == source[index + 1] else { return nil }
        if isBracket(expected) { plain.append(false) }
        index += 2
        position += 1
        continue
      }
      // An entity cmark-gfm decodes stands for its decoding, or the literal is not read from here.
      if byte == UInt8(ascii: "&"), let (decoded, end) = CmarkBridge.entity(in: source, at: index) {
        guard literal[position...].starts(with: decoded) else { return nil }
        if decoded.count == 1 && isBracket(decoded[0]) { plain.append(false) }
        index = end
        position += decoded.count
        continue
      }
      if byte == 0 {
        guard literal[position...].starts(with: [0xEF, 0xBF, 0xBD]) else { return nil }
        index += 1
        position += 3
        continue
      }
      if expected == 0xE2, let (used, produced) = smartPunctuation(source, at: index, literal, at: position) {
        index += used
        position += produced
        continue
      }
      guard expected == byte else { return nil }
      if isBracket(byte) { plain.append(true) }
      index += 1
      position += 1
    }
    // Every bracket of the literal is accounted for, or the reading is not one.
    return plain.count == literal.count(where: isBracket) ? (plain, index) : nil
  }

  /// The source bytes used and the literal bytes produced where smart punctuation replaced a
  /// quote (`'`, `"` by a curly one), a run of hyphens (by en and em dashes) or `...` (by an
  /// ellipsis) at `index`; nil for anything else.
  private static func smartPunctuation(_ source: [UInt8], at index: Int, _ literal: [UInt8], at position: Int)
    -> (Int, Int)?
  {
    guard position + 2 < literal.count, literal[position + 1] == 0x80 else { return nil }
    let third = literal[position + 2]
    switch source[index] {
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      return (0x98...0x9D).contains(third) ? (1, 3) : nil
    case ASCII.period:
      guard third == 0xA6, index + 2 < source.count, source[index + 1] == ASCII.period,
        source[index + 2] == ASCII.period
      else { return nil }
      return (3, 3)
    case ASCII.hyphen:
      guard third == 0x93 || third == 0x94 else { return nil }
      var used = 0
      while index + used < source.count && source[index + used] == ASCII.hyphen { used += 1 }
      var produced = 0
      while position + produced + 2 < literal.count, literal[position + produced] == 0xE2,
        literal[position + produced + 1] == 0x80,
        literal[position + produced + 2] == 0x93 || literal[position + produced + 2] == 0x94
      {
        produced += 3
      }
      return (used, produced)
    default:
      return nil
    }
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

  private static func isBracket(_ byte: UInt8) -> Bool { byte == ASCII.openBracket || byte == ASCII.closeBracket }
}
