/// An append-only UTF-8 output buffer with the escapers the renderers share.
///
/// Escaping works on UTF-8 bytes and copies runs of bytes that need no escaping in one step.
struct ByteWriter {
  var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  var isEmpty: Bool { bytes.isEmpty }
  var last: UInt8? { bytes.last }

  mutating func write(_ string: StaticString) {
    string.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func write(byte: UInt8) { bytes.append(byte) }

  mutating func write(_ number: Int) { write(String(number)) }

  /// Writes a newline unless the output is empty or already ends with one (cmark's `cr`).
  mutating func newlineIfNeeded() {
    if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
  }

  /// Escapes `&`, `<`, `>` and `"` as cmark-gfm's HTML renderer does (`'` and `/` pass through).
  mutating func writeHTMLEscaped(_ string: String) {
    var string = string
    string.withUTF8 { source in
      var runStart = 0
      for index in 0..<source.count {
        let replacement: StaticString
        switch source[index] {
        case UInt8(ascii: "&"): replacement = "&amp;"
        case UInt8(ascii: "<"): replacement = "&lt;"
        case UInt8(ascii: ">"): replacement = "&gt;"
        case UInt8(ascii: "\""): replacement = "&quot;"
        default: continue
        }
        if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index])) }
        write(replacement)
        runStart = index + 1
      }
      if runStart < source.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...])) }
    }
  }

  /// Escapes a URL for an `href`/`src` attribute as cmark-gfm does: bytes outside its safe set are
  /// percent-encoded, `&` and `'` become entities.
  mutating func writeHrefEscaped(_ string: String) {
    var string = string
    string.withUTF8 { source in
      var runStart = 0
      for index in 0..<source.count {
        let byte = source[index]
        if ByteWriter.hrefSafe[Int(byte)] { continue }
        if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index])) }
        switch byte {
        case UInt8(ascii: "&"): write("&amp;")
        case UInt8(ascii: "'"): write("&#x27;")
        default:
          bytes.append(UInt8(ascii: "%"))
          bytes.append(ByteWriter.hexDigits[Int(byte >> 4)])
          bytes.append(ByteWriter.hexDigits[Int(byte & 0xF)])
        }
        runStart = index + 1
      }
      if runStart < source.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...])) }
    }
  }

  /// The bytes that pass through URL escaping unchanged: letters, digits and `-_.+!*(),%#@?=;:/$~`.
  static let hrefSafe: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
    for byte in "-_.+!*(),%#@?=;:/$~".utf8 { table[Int(byte)] = true }
    return table
  }()

  static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// The output as a string.
  func string() -> String { String(decoding: bytes, as: UTF8.self) }
}
