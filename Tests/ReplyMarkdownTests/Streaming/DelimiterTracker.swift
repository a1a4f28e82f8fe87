import ReplyMarkdown

/// Follows the HTML of a stream through its edits and keeps the P3 delimiter characters of its
/// visible text (tags skipped, the four entities decoded) with their byte offsets, so a frame
/// costs the size of its edit, not of the whole HTML.
struct DelimiterTracker {
  private(set) var delimiters: [UInt8] = []
  private var offsets: [Int] = []
  private(set) var length = 0
  /// How many delimiters the last edit kept (the rest of ``delimiters`` it appended).
  private(set) var keptCount = 0

  static let set: Set<UInt8> = Set("*_~`|#-=>[]()<$".utf8)

  /// Applies an edit. Edits start between tags (fragments end with a tag or a newline).
  mutating func apply(_ edit: MarkdownStreamHTMLRenderer.Edit) {
    while let last = offsets.last, last >= edit.keep {
      offsets.removeLast()
      delimiters.removeLast()
    }
    keptCount = delimiters.count
    let bytes = Array(edit.appended.utf8)
    var inTag = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if inTag {
        if byte == UInt8(ascii: ">") { inTag = false }
      } else if byte == UInt8(ascii: "<") {
        inTag = true
      } else if byte == UInt8(ascii: "&") {
        for (entity, value) in Self.entities where bytes[index...].starts(with: entity) {
          if Self.set.contains(value) {
            delimiters.append(value)
            offsets.append(edit.keep + index)
          }
          index += entity.count - 1
          break
        }
      } else if Self.set.contains(byte) {
        delimiters.append(byte)
        offsets.append(edit.keep + index)
      }
      index += 1
    }
    length = edit.keep + bytes.count
  }

  static let entities: [([UInt8], UInt8)] = [
    (Array("&lt;".utf8), UInt8(ascii: "<")), (Array("&gt;".utf8), UInt8(ascii: ">")),
    (Array("&quot;".utf8), UInt8(ascii: "\"")), (Array("&amp;".utf8), UInt8(ascii: "&")),
  ]
}
