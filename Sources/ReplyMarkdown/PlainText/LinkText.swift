/// How a link shows in text without hyperlinks: `text (url)`, or the text alone when the URL adds
/// nothing to it. Shared by the plain-text and terminal renderers.
enum LinkText {
  /// Whether the URL adds nothing to the text: it is empty, a `#fragment`, relative, or equal to
  /// the text once scheme, `//`, `www.` and a trailing slash are ignored (case-insensitively).
  static func urlAddsNothing(text: String, destination: String) -> Bool {
    // An ASCII URL (most links) is compared in place, without lowercased copies.
    if let answer = text.utf8.withContiguousStorageIfAvailable({ text in
      destination.utf8.withContiguousStorageIfAvailable { asciiURLAddsNothing(text: text, destination: $0) } ?? nil
    }) ?? nil {
      return answer
    }
    return urlAddsNothingByUnicode(text: text, destination: destination)
  }

  /// ``urlAddsNothing(text:destination:)`` by lower-cased Unicode copies alone: the answer its
  /// byte-level shortcut stands for (tests compare them).
  static func urlAddsNothingByUnicode(text: String, destination: String) -> Bool {
    if destination.isEmpty || destination.hasPrefix("#") { return true }
    if !hasScheme(destination) && !destination.hasPrefix("//") && !destination.lowercased().hasPrefix("www.") {
      return true
    }
    return normalized(text) == normalized(destination)
  }

  /// The URL as shown: the destination without a `mailto:` scheme.
  static func displayedURL(_ destination: String) -> String {
    if destination.utf8.count > 7, destination.prefix(7).lowercased() == "mailto:" {
      return String(destination.dropFirst(7))
    }
    return destination
  }

  /// Whether `url` starts with a URI scheme (`[A-Za-z][A-Za-z0-9+.-]{1,31}:`).
  static func hasScheme(_ url: String) -> Bool {
    hasScheme(url.utf8)
  }

  /// ``hasScheme(_:)`` over UTF-8 bytes.
  static func hasScheme<Bytes: Sequence<UInt8>>(_ url: Bytes) -> Bool {
    schemeLength(url) != nil
  }

  /// The length of the URI scheme `url` starts with (the offset of its colon), or nil when it
  /// starts with none (see ``hasScheme(_:)``).
  static func schemeLength<Bytes: Sequence<UInt8>>(_ url: Bytes) -> Int? {
    var count = 0
    for byte in url {
      if byte == UInt8(ascii: ":") { return count >= 2 ? count : nil }
      let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
      let isOther =
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
      if !(isLetter || (count > 0 && isOther)) || count > 32 { return nil }
      count += 1
    }
    return nil
  }

  /// ``urlAddsNothing(text:destination:)`` for an ASCII destination (the same answer), or nil when
  /// the destination holds a non-ASCII byte or the text one that may equal ASCII once lower-cased
  /// (Unicode lowercasing then decides). Other non-ASCII text never equals an ASCII URL.
  ///
  /// A relative destination adds nothing whatever its bytes: one with no scheme whose first byte
  /// is none of `#`, `/`, `w` and `W` is answered so also when it is not ASCII (no other first
  /// character lower-cases to `w`), without the lower-cased copy of it the Unicode comparison
  /// makes. (A long one that a reference repeats cost that copy for every link, in every render
  /// of a stream's update: fuzz seed 1391.)
  private static func asciiURLAddsNothing(text: UnsafeBufferPointer<UInt8>, destination: UnsafeBufferPointer<UInt8>)
    -> Bool?
  {
    if destination.isEmpty { return true }
    let destinationScheme = schemeLength(destination)
    let first = lowercase(destination[0])
    let mayAddSomething = first == UInt8(ascii: "#") || first == UInt8(ascii: "/") || first == UInt8(ascii: "w")
    if destinationScheme == nil && !mayAddSomething { return true }
    guard ByteWords.isASCII(destination) else { return nil }
    if destination[0] == UInt8(ascii: "#") { return true }
    if destinationScheme == nil && !hasPrefix(destination, 0, "//") && !hasPrefix(destination, 0, "www.") {
      return true
    }
    guard ByteWords.isASCII(text) else { return mayEqualASCII(text) ? nil : false }
    let left = normalizedRange(text, scheme: schemeLength(text))
    let right = normalizedRange(destination, scheme: destinationScheme)
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where lowercase(text[a]) != lowercase(destination[b]) { return false }
    return true
  }

  /// Whether UTF-8 text holding a non-ASCII character may still lower-case to, or compare equal
  /// with, ASCII text: only through U+0130 (lower-cases to `i` and a combining dot), U+212A KELVIN
  /// SIGN (`k`), U+037E GREEK QUESTION MARK (`;`) or U+1FEF GREEK VARIA (`` ` ``).
  private static func mayEqualASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    for index in text.indices where text[index] >= 0xC0 {
      let lead = text[index]
      let next = index + 1 < text.count ? text[index + 1] : 0
      let third = index + 2 < text.count ? text[index + 2] : 0
      if (lead == 0xC4 && next == 0xB0) || (lead == 0xCD && next == 0xBE)
        || (lead == 0xE2 && next == 0x84 && third == 0xAA) || (lead == 0xE1 && next == 0xBF && third == 0xAF)
      {
        return true
      }
    }
    return false
  }

  /// The bytes ``normalized(_:)`` keeps of ASCII: without a scheme (`scheme` is its
  /// ``schemeLength(_:)``), `//`, `www.` and a final `/`.
  private static func normalizedRange(_ bytes: UnsafeBufferPointer<UInt8>, scheme: Int?) -> Range<Int> {
    var start = 0
    if let scheme { start = scheme + 1 }
    if hasPrefix(bytes, start, "//") { start += 2 }
    if hasPrefix(bytes, start, "www.") { start += 4 }
    var end = bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    return start..<end
  }

  /// Whether the ASCII bytes from `offset` start with `prefix` (lower case), ignoring case.
  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard offset + count <= bytes.count else { return false }
    for position in 0..<count where lowercase(bytes[offset + position]) != prefix.utf8Start[position] { return false }
    return true
  }

  @inline(__always)
  private static func lowercase(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  private static func normalized(_ string: String) -> Substring {
    var rest = Substring(string.lowercased())
    if hasScheme(String(rest)), let colon = rest.firstIndex(of: ":") { rest = rest[rest.index(after: colon)...] }
    if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
    if rest.hasPrefix("www.") { rest = rest.dropFirst(4) }
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    return rest
  }
}
