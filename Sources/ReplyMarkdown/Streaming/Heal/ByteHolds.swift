/// The holds that work on raw bytes before (or without) a parse: ``HealRule/trailingCarriageReturn``,
/// ``HealRule/growableGrapheme``, ``HealRule/fenceCloserPrefix`` and ``HealRule/trailingMarkers``.
enum ByteHolds {
  /// Removes a final CR (a LF may follow it) past `floor` (the protected part ends where it
  /// ends, its line breaks whole); whether it did.
  static func trimCarriageReturn(_ text: inout [UInt8], floor: Int) -> Bool {
    guard text.count > floor, text.last == ASCII.carriageReturn else { return false }
    text.removeLast()
    return true
  }

  /// Removes a trailing grapheme that later scalars could still extend: emoji (ZWJ sequences,
  /// skin tones, keycaps, tags), regional indicators, variation selectors, combining marks and
  /// conjoining jamo. Other non-ASCII text (CJK, accented letters) is shown at once. Whether it
  /// removed anything.
  ///
  /// - Complexity: O(1): it decodes at most the last 64 bytes.
  @discardableResult
  static func trimGrowableGrapheme(_ text: inout [UInt8], floor: Int) -> Bool {
    guard text.count > floor else { return false }
    let length = growableGraphemeLength(text[floor...])
    text.removeLast(length)
    return length > 0
  }

  /// The length in bytes of the trailing grapheme of `text` that later scalars could still extend
  /// (see ``trimGrowableGrapheme(_:floor:)``), or 0; never more than `text.count`.
  ///
  /// - Complexity: O(1): it decodes at most the last 64 bytes.
  static func growableGraphemeLength(_ text: ArraySlice<UInt8>) -> Int {
    guard let last = text.last, last >= ASCII.firstNonASCII else { return 0 }
    // The last scalar decides whether the grapheme can grow (most cannot: a letter, an
    // ideograph): only then is the grapheme itself measured.
    var scalarStart = text.endIndex - 1
    while scalarStart > text.startIndex && text.endIndex - scalarStart < 4
      && ASCII.isUTF8Continuation(text[scalarStart])
    {
      scalarStart -= 1
    }
    guard let scalar = InlineHealScanner.firstScalar(text[scalarStart...]), canGrow(scalar) else { return 0 }
    var start = max(text.startIndex, text.endIndex - Self.graphemeWindow)
    while start < text.endIndex && ASCII.isUTF8Continuation(text[start]) { start += 1 }
    let tail = String(decoding: text[start...], as: UTF8.self)
    guard let character = tail.last, let scalar = character.unicodeScalars.last, canGrow(scalar) else { return 0 }
    return min(character.utf8.count, text.count)
  }

  /// The length in bytes of the Unicode space (category Zs, beyond ASCII: U+00A0, U+1680,
  /// U+2000–U+200A, U+202F, U+205F, U+3000) that ends `text` after `floor`, or 0. Flanking reads
  /// it as whitespace, as it reads a space: a closer after it closes nothing (`*a`, NBSP, then
  /// `*`).
  static func trailingUnicodeSpaceLength(_ text: [UInt8], floor: Int) -> Int {
    trailingUnicodeSpaceLength(text[...], floor: floor)
  }

  /// The length in bytes of the blank (space, tab), form feed or Unicode space that ends `text`
  /// after `floor`, or 0: what the healer trims before the closers it appends (flanking reads a
  /// form feed as whitespace too: `*a`, then a form feed, showed `*a`, the feed and a `*`).
  static func trailingSpaceLength(_ text: ArraySlice<UInt8>, floor: Int) -> Int {
    guard text.endIndex > floor, let last = text.last else { return 0 }
    return ASCII.isBlank(last) || last == formFeed ? 1 : trailingUnicodeSpaceLength(text, floor: floor)
  }

  static let formFeed: UInt8 = 0x0C

  /// ``trailingUnicodeSpaceLength(_:floor:)`` of a slice (`floor` an index of it).
  static func trailingUnicodeSpaceLength(_ text: ArraySlice<UInt8>, floor: Int) -> Int {
    let count = text.endIndex
    if count - floor >= 2, text[count - 2] == 0xC2, text[count - 1] == 0xA0 { return 2 }
    guard count - floor >= 3 else { return 0 }
    let (a, b, c) = (text[count - 3], text[count - 2], text[count - 1])
    switch (a, b) {
    case (0xE1, 0x9A): return c == 0x80 ? 3 : 0
    case (0xE2, 0x80): return (0x80...0x8A).contains(c) || c == 0xAF ? 3 : 0
    case (0xE2, 0x81): return c == 0x9F ? 3 : 0
    case (0xE3, 0x80): return c == 0x80 ? 3 : 0
    default: return 0
    }
  }

  /// How far back a growable grapheme is looked for (longer ones are shown as they stand).
  static let graphemeWindow = 64

  /// Scalars after which the grapheme can still grow.
  static func canGrow(_ scalar: Unicode.Scalar) -> Bool {
    guard !scalar.isASCII else { return false }
    let value = scalar.value
    if Self.growingScalars.contains(where: { $0.contains(value) }) { return true }
    let properties = scalar.properties
    if properties.isEmoji || properties.isEmojiModifier { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Regional indicators, ZWJ, variation selectors, tags and variation selectors supplement, the
  /// keycap mark, and the conjoining jamo blocks.
  static let growingScalars: [ClosedRange<UInt32>] = [
    0x1F1E6...0x1F1FF, 0x200D...0x200D, 0xFE00...0xFE0F, 0xE0000...0xE01EF, 0x20E3...0x20E3, 0x1100...0x11FF,
    0xA960...0xA97F, 0xD7B0...0xD7FF,
  ]

  /// Whether `line` (the last line inside an open fence of `length` `fence` characters) could
  /// still become its closing fence: up to three spaces, a run of the fence character (as long as
  /// the opener's, or still growing), then only blanks.
  static func isFenceCloserPrefix(_ line: ArraySlice<UInt8>, fence: UInt8, length: Int) -> Bool {
    FenceLine(line)?.mayClose(character: fence, length: length) ?? false
  }

  /// Removes trailing spaces, tabs, form feeds, Unicode spaces, a backslash and runs of `* _ ~` and backticks
  /// (markers whose meaning depends on what follows, or a possible hard break); returns the new
  /// end. A Unicode space goes as a space does: a closer after it would close nothing (`~a`,
  /// U+3000, `~` showed both tildes as text).
  static func trimTrailingMarkers(_ text: inout [UInt8], floor: Int) -> Int {
    while text.count > floor, let last = text.last {
      if isTrailingMarker(last) {
        text.removeLast()
      } else {
        let space = trailingSpaceLength(text[...], floor: floor)
        guard space > 0 else { break }
        text.removeLast(space)
      }
    }
    return text.count
  }

  static func isTrailingMarker(_ byte: UInt8) -> Bool {
    switch byte {
    case ASCII.space, ASCII.tab, ASCII.backslash, ASCII.star, ASCII.underscore, ASCII.tilde, ASCII.backtick: true
    default: false
    }
  }
}
