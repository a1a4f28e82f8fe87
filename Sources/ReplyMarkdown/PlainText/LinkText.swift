/// How a link shows in text without hyperlinks: `text (url)`, or the text alone when the URL adds
/// nothing to it. Shared by the plain-text and terminal renderers.
enum LinkText {
  /// Whether the URL adds nothing to the text: it is empty, a `#fragment`, relative, or equal to
  /// the text once scheme, `//`, `www.` and a trailing slash are ignored (case-insensitively).
  static func urlAddsNothing(text: String, destination: String) -> Bool {
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
    var count = 0
    for byte in url.utf8 {
      if byte == UInt8(ascii: ":") { return count >= 2 }
      let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
      let isOther =
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
      if !(isLetter || (count > 0 && isOther)) || count > 32 { return false }
      count += 1
    }
    return false
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
