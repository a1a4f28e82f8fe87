/// A strict JSON parser (RFC 8259) for thread files, whose errors name the place.
///
/// Errors give the line and column (1-based; the column counts Unicode scalars) and the JSON path
/// of the value being read (`messages[3].text`). Beyond RFC 8259 it rejects what would silently
/// lose data: duplicate keys in an object, lone surrogates, invalid UTF-8, and nesting deeper than
/// ``maximumDepth`` (so a 100,000-deep file is an error, not a stack overflow).
///
/// - Complexity: O(n) in the size of the input.
struct _JSONParser {
  /// Arrays and objects nested deeper than this are an error.
  static let maximumDepth = 512

  /// A syntax error: where and what.
  struct SyntaxError: Error, Hashable {
    var line: Int
    var column: Int
    /// The JSON path of the value being read (`messages[3].text`), empty at the top level.
    var path: String
    var problem: String
  }

  private let bytes: [UInt8]
  private var position = 0
  private var path: [String] = []

  /// Parses `bytes` as one JSON value (a UTF-8 byte order mark at the start is skipped).
  static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> _JSONValue {
    var parser = _JSONParser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.position < bytes.count {
      throw parser.error("unexpected text after the end of the JSON value")
    }
    return value
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private func error(_ problem: String, at offset: Int? = nil) -> SyntaxError {
    let offset = min(offset ?? position, bytes.count)
    var line = 1
    var column = 1
    for byte in bytes[0..<offset] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SyntaxError(line: line, column: column, path: path.joined(), problem: problem)
  }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  private func describeCurrent() -> String {
    guard let byte = current else { return "the file ends" }
    if byte >= 0x21 && byte < 0x7F { return "found '\(Character(Unicode.Scalar(byte)))'" }
    return "found byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  private mutating func parseValue(depth: Int) throws(SyntaxError) -> _JSONValue {
    guard let byte = current else { throw error("expected a value, but the file ends") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("expected a value, \(describeCurrent())")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: _JSONValue) throws(SyntaxError) -> _JSONValue {
    let utf8 = Array(word.utf8)
    guard position + utf8.count <= bytes.count, Array(bytes[position..<(position + utf8.count)]) == utf8 else {
      throw error("expected a value, \(describeCurrent())")
    }
    position += utf8.count
    return value
  }

  private mutating func parseNumber() throws(SyntaxError) -> _JSONValue {
    let start = position
    func digits() -> Int {
      let from = position
      while let byte = current, byte >= 0x30 && byte <= 0x39 { position += 1 }
      return position - from
    }
    if current == UInt8(ascii: "-") { position += 1 }
    if current == UInt8(ascii: "0") {
      position += 1
    } else if digits() == 0 {
      throw error("expected a digit in a number, \(describeCurrent())")
    }
    if current == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw error("expected a digit after '.', \(describeCurrent())") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard digits() > 0 else { throw error("expected a digit in the exponent, \(describeCurrent())") }
    }
    return .number(String(decoding: bytes[start..<position], as: UTF8.self))
  }

  /// - Complexity: O(n) in the string's bytes: its runs and escapes are gathered as UTF-8 and
  ///   made a `String` once (appending to a `String.UnicodeScalarView` copied the string each
  ///   time: a reply of 1.4 MB with an escape every 84 bytes took 10 s to load; a trial).
  private mutating func parseString() throws(SyntaxError) -> String {
    let start = position
    position += 1
    var utf8: [UInt8] = []
    var runStart = position
    func flushRun(_ parser: _JSONParser, upTo end: Int) throws(SyntaxError) {
      guard runStart < end else { return }
      let run = parser.bytes[runStart..<end]
      guard String(validating: run, as: UTF8.self) != nil else {
        throw parser.error("invalid UTF-8 in a string", at: runStart)
      }
      utf8.append(contentsOf: run)
    }
    while true {
      guard let byte = current else { throw error("unterminated string (it starts here)", at: start) }
      switch byte {
      case UInt8(ascii: "\""):
        try flushRun(self, upTo: position)
        position += 1
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try flushRun(self, upTo: position)
        position += 1
        let scalar = try parseEscape()
        UTF8.encode(scalar) { utf8.append($0) }
        runStart = position
      case 0..<0x20:
        throw error("control character 0x\(String(byte, radix: 16, uppercase: true)) in a string; write it escaped")
      default:
        position += 1
      }
    }
  }

  private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
    guard let byte = current else { throw error("unterminated string") }
    position += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let escapeStart = position - 2
      let first = try parseHex4()
      if (0xD800...0xDBFF).contains(first) {
        guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
        else { throw error("lone surrogate \\u\(String(first, radix: 16, uppercase: true))", at: escapeStart) }
        position += 2
        let second = try parseHex4()
        guard (0xDC00...0xDFFF).contains(second) else {
          throw error("lone surrogate \\u\(String(first, radix: 16, uppercase: true))", at: escapeStart)
        }
        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        if let scalar = Unicode.Scalar(value) { return scalar }
      } else if let scalar = Unicode.Scalar(first) {
        return scalar
      }
      throw error("lone surrogate \\u\(String(first, radix: 16, uppercase: true))", at: escapeStart)
    default:
      position -= 1
      throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
    }
  }

  private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Self.hexValue(byte) else {
        throw error("expected four hexadecimal digits after \\u")
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private mutating func checkDepth(_ depth: Int) throws(SyntaxError) {
    if depth > Self.maximumDepth {
      throw error("arrays and objects nested more than \(Self.maximumDepth) deep")
    }
  }

  private mutating func parseArray(depth: Int) throws(SyntaxError) -> _JSONValue {
    try checkDepth(depth)
    position += 1
    skipWhitespace()
    var items: [_JSONValue] = []
    if current == UInt8(ascii: "]") {
      position += 1
      return .array(items)
    }
    while true {
      path.append("[\(items.count)]")
      items.append(try parseValue(depth: depth))
      path.removeLast()
      if try isAtEnd(of: "an array", closedBy: UInt8(ascii: "]")) { return .array(items) }
    }
  }

  /// After a member: consumes `,` (false: another follows) or the closing byte (true: the end).
  private mutating func isAtEnd(of container: String, closedBy close: UInt8) throws(SyntaxError) -> Bool {
    skipWhitespace()
    switch current {
    case UInt8(ascii: ","):
      position += 1
      skipWhitespace()
      return false
    case close:
      position += 1
      return true
    default:
      throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container), \(describeCurrent())")
    }
  }

  private mutating func parseObject(depth: Int) throws(SyntaxError) -> _JSONValue {
    try checkDepth(depth)
    position += 1
    skipWhitespace()
    var members: [_JSONMember] = []
    var keys = Set<String>()
    if current == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      guard current == UInt8(ascii: "\"") else {
        throw error("expected a key in quotes, \(describeCurrent())")
      }
      let keyStart = position
      let key = try parseString()
      path.append(path.isEmpty ? key : ".\(key)")
      guard keys.insert(key).inserted else {
        throw error("duplicate key \"\(key)\"", at: keyStart)
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key, \(describeCurrent())") }
      position += 1
      skipWhitespace()
      members.append(_JSONMember(key: key, value: try parseValue(depth: depth)))
      path.removeLast()
      if try isAtEnd(of: "an object", closedBy: UInt8(ascii: "}")) { return .object(members) }
    }
  }
}
