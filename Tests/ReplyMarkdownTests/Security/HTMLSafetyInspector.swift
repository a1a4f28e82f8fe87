/// A structural check of HTML output for executable content: tags outside the set cmark-gfm emits,
/// `on*` attributes, and `javascript:`/`vbscript:`/`data:`/`file:` URLs in `href` or `src` after
/// entity decoding and removal of whitespace and control characters (as browsers do).
struct HTMLSafetyInspector {
  /// The tags safe-mode cmark-gfm output may contain.
  static let allowedTags: Set<String> = [
    "p", "a", "img", "em", "strong", "del", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h4",
    "h5", "h6", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "input", "section", "sup",
  ]

  /// The problems found; empty when the HTML is safe.
  static func problems(in html: String) -> [String] {
    var problems: [String] = []
    let lowered = html.lowercased()
    if lowered.contains("<script") { problems.append("contains <script") }
    let bytes = Array(html.utf8)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      var end = index + 1
      var quote: UInt8? = nil
      while end < bytes.count {
        let byte = bytes[end]
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: ">") {
          break
        }
        end += 1
      }
      let tag = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
      problems.append(contentsOf: check(tag: tag))
      index = end + 1
    }
    return problems
  }

  static func check(tag: String) -> [String] {
    if tag.hasPrefix("!--") { return [] }  // `<!-- raw HTML omitted -->` and footnote markers
    var body = Substring(tag)
    if body.hasPrefix("/") { body = body.dropFirst() }
    let name = body.prefix { $0.isLetter || $0.isNumber }.lowercased()
    guard allowedTags.contains(name) else { return ["unexpected tag <\(tag.prefix(60))>"] }
    var problems: [String] = []
    for (attribute, value) in attributes(of: String(body.dropFirst(name.count))) {
      if attribute.hasPrefix("on") { problems.append("event handler \(attribute) in <\(name)>") }
      if attribute == "href" || attribute == "src" {
        let url = normalisedURL(value)
        for scheme in ["javascript:", "vbscript:", "file:"] where url.hasPrefix(scheme) {
          problems.append("\(scheme) URL in \(attribute)")
        }
        let safeImage = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains {
          url.hasPrefix($0)
        }
        if url.hasPrefix("data:") && !(attribute == "src" && safeImage) { problems.append("data: URL in \(attribute)") }
      }
      if attribute == "style" || attribute == "srcdoc" || attribute == "formaction" {
        problems.append("attribute \(attribute)")
      }
    }
    return problems
  }

  /// Attribute names (lowercased) and raw values of a tag's text after its name.
  static func attributes(of text: String) -> [(String, String)] {
    var result: [(String, String)] = []
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      while index < characters.count && (characters[index].isWhitespace || characters[index] == "/") { index += 1 }
      let nameStart = index
      while index < characters.count && !characters[index].isWhitespace && characters[index] != "="
        && characters[index] != "/"
      {
        index += 1
      }
      let name = String(characters[nameStart..<index]).lowercased()
      var value = ""
      if index < characters.count && characters[index] == "=" {
        index += 1
        if index < characters.count && (characters[index] == "\"" || characters[index] == "'") {
          let quote = characters[index]
          index += 1
          let valueStart = index
          while index < characters.count && characters[index] != quote { index += 1 }
          value = String(characters[valueStart..<min(index, characters.count)])
          index += 1
        } else {
          let valueStart = index
          while index < characters.count && !characters[index].isWhitespace { index += 1 }
          value = String(characters[valueStart..<index])
        }
      }
      if !name.isEmpty { result.append((name, value)) }
    }
    return result
  }

  /// A URL as a browser reads its scheme: entities decoded, whitespace and controls removed,
  /// lowercased.
  static func normalisedURL(_ value: String) -> String {
    decodeEntities(value).unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(String.init).joined()
      .lowercased()
  }

  static func decodeEntities(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let after = rest[rest.index(after: amp)...]
      guard let semicolon = after.firstIndex(of: ";"), after.distance(from: after.startIndex, to: semicolon) <= 10
      else {
        out += "&"
        rest = after
        continue
      }
      let entity = after[..<semicolon]
      var decoded: String?
      if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
        decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(String.init)
      } else if entity.hasPrefix("#") {
        decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map(String.init)
      } else {
        decoded =
          ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "Tab": "\t", "NewLine": "\n"][
            String(entity)]
      }
      if let decoded {
        out += decoded
        rest = after[after.index(after: semicolon)...]
      } else {
        out += "&"
        rest = after
      }
    }
    return out + rest
  }
}
