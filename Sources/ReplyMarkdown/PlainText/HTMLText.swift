/// The text of raw HTML as a reader sees it: tags dropped, comments dropped, block-level tags as
/// line breaks, entities decoded. Shared by the plain-text and terminal renderers, and by the fuzz
/// oracle, which must know what characters of raw HTML reach plain text.
///
/// - Complexity: O(n) in the HTML; entity decoding runs cmark-gfm's own decoder, once per block.
package enum HTMLText {
  /// Whether an inline HTML node is a line break tag (`<br>`, `<br/>`, `<br />`, any case).
  static func isLineBreak(_ html: String) -> Bool {
    let bytes = Array(html.utf8.prefix(64))
    guard bytes.count >= 4, bytes[0] == UInt8(ascii: "<"), bytes[1] | 0x20 == UInt8(ascii: "b"),
      bytes[2] | 0x20 == UInt8(ascii: "r")
    else { return false }
    let next = bytes[3]
    return next == UInt8(ascii: ">") || next == UInt8(ascii: "/") || next == UInt8(ascii: " ")
      || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
  }

  /// The lines of text of an HTML block: tags stripped (block-level ones break lines), comments,
  /// scripts and styles dropped, entities decoded, each line trimmed, empty lines left out.
  package static func blockLines(_ html: String) -> [String] {
    let stripped = stripTags(Array(html.utf8))
    var lines: [String] = []
    for line in stripped.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      var slice = line[...]
      while let first = slice.first, first == 0x20 || first == 0x09 || first == 0x0D { slice = slice.dropFirst() }
      while let last = slice.last, last == 0x20 || last == 0x09 || last == 0x0D { slice = slice.dropLast() }
      if !slice.isEmpty { lines.append(String(decoding: slice, as: UTF8.self)) }
    }
    return decodeEntities(lines)
  }

  private static let blockTags: Set<String> = [
    "address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
    "tr", "ul",
  ]

  /// Drops tags and comments; block-level tags become `\n`; `<script>` and `<style>` lose their
  /// content too.
  static func stripTags(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    let count = bytes.count
    func starts(_ literal: String, at position: Int) -> Bool {
      var offset = position
      for byte in literal.utf8 {
        guard offset < count, bytes[offset] | 0x20 == byte | 0x20 else { return false }
        offset += 1
      }
      return true
    }
    func find(_ literal: String, from position: Int) -> Int? {
      var offset = position
      while offset < count {
        if starts(literal, at: offset) { return offset }
        offset += 1
      }
      return nil
    }
    while index < count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "<"), index + 1 < count else {
        output.append(byte)
        index += 1
        continue
      }
      if starts("<!--", at: index) {
        index = find("-->", from: index + 4).map { $0 + 3 } ?? count
        continue
      }
      let next = bytes[index + 1]
      if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
        index = find(">", from: index + 2).map { $0 + 1 } ?? count
        continue
      }
      let closing = next == UInt8(ascii: "/")
      let nameStart = closing ? index + 2 : index + 1
      var nameEnd = nameStart
      while nameEnd < count, isTagNameByte(bytes[nameEnd], first: nameEnd == nameStart) { nameEnd += 1 }
      guard nameEnd > nameStart else {
        output.append(byte)
        index += 1
        continue
      }
      let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased()
      var end = nameEnd
      var quote: UInt8 = 0
      while end < count {
        let current = bytes[end]
        if quote != 0 {
          if current == quote { quote = 0 }
        } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
          quote = current
        } else if current == UInt8(ascii: ">") {
          break
        }
        end += 1
      }
      index = min(end + 1, count)
      if !closing && (name == "script" || name == "style") {
        index = find("</\(name)", from: index).flatMap { find(">", from: $0) }.map { $0 + 1 } ?? count
        continue
      }
      if blockTags.contains(name) { output.append(UInt8(ascii: "\n")) }
    }
    return output
  }

  private static func isTagNameByte(_ byte: UInt8, first: Bool) -> Bool {
    let lower = byte | 0x20
    if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") { return true }
    return !first && ((byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-"))
  }

  /// Decodes HTML entities in each line with cmark-gfm's decoder: the lines are parsed as
  /// paragraphs of plain CommonMark with every other piece of punctuation backslash-escaped, so
  /// only the entities are interpreted. Lines without `&` are returned untouched.
  package static func decodeEntities(_ lines: [String]) -> [String] {
    let targets = lines.indices.filter { lines[$0].utf8.contains(UInt8(ascii: "&")) }
    guard !targets.isEmpty else { return lines }
    var markdown: [UInt8] = []
    for (position, line) in targets.enumerated() {
      if position > 0 { markdown.append(contentsOf: "\n\n".utf8) }
      markdown.append(contentsOf: escapedForEntities(Array(lines[line].utf8)))
    }
    let document = MarkdownDocument(bytes: markdown, options: .commonMark)
    var decoded = lines
    var target = 0
    for block in document.topLevelBlocks where target < targets.count {
      var text = ""
      for index in (block + 1)..<document.nodes[block].subtreeEnd {
        switch document.nodes[index].kind {
        case .text(let string): text += string
        case .softBreak, .lineBreak: text += " "
        default: break
        }
      }
      decoded[targets[target]] = text
      target += 1
    }
    return decoded
  }

  /// Backslash-escapes ASCII punctuation except in `&name;` / `&#n;` entities, and leading spaces.
  private static func escapedForEntities(_ line: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var index = 0
    while index < line.count {
      let byte = line[index]
      if byte == UInt8(ascii: "&"), let end = entityEnd(line, from: index) {
        output.append(contentsOf: line[index...end])
        index = end + 1
        continue
      }
      if ASCII.isPunctuation(byte) { output.append(UInt8(ascii: "\\")) }
      output.append(byte)
      index += 1
    }
    return output
  }

  private static func entityEnd(_ line: [UInt8], from start: Int) -> Int? {
    var index = start + 1
    while index < line.count && index - start <= 33 {
      let byte = line[index]
      if byte == UInt8(ascii: ";") { return index > start + 1 ? index : nil }
      let lower = byte | 0x20
      let ok =
        (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || (byte == UInt8(ascii: "#") && index == start + 1)
      if !ok { return nil }
      index += 1
    }
    return nil
  }
}
