/// GFM's tag filter: raw HTML that opens or closes one of a few dangerous tags gets its `<`
/// escaped, as cmark-gfm's `tagfilter` extension does.
enum HTMLTagFilter {
  static let filteredTags: [[UInt8]] = [
    "title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext",
  ].map { Array($0.utf8) }

  /// Whether `html` (starting at a `<`) begins with a filtered tag: `<name` or `</name` followed by
  /// whitespace, `>` or `/>`, case-insensitively.
  static func isFiltered<Bytes: Collection>(_ html: Bytes) -> Bool where Bytes.Element == UInt8 {
    let bytes = Array(html.prefix(12))
    guard bytes.count >= 3, bytes[0] == UInt8(ascii: "<") else { return false }
    for tag in filteredTags where matches(bytes, tag) { return true }
    return false
  }

  private static func matches(_ bytes: [UInt8], _ tag: [UInt8]) -> Bool {
    var position = 1
    if bytes[position] == UInt8(ascii: "/") { position += 1 }
    for letter in tag {
      guard position < bytes.count else { return false }
      var byte = bytes[position]
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
      guard byte == letter else { return false }
      position += 1
    }
    guard position < bytes.count else { return false }
    let next = bytes[position]
    if ASCII.isCmarkSpace(next) || next == UInt8(ascii: ">") { return true }
    return next == UInt8(ascii: "/") && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: ">")
  }
}
