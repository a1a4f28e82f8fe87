/// Byte classes the guard needs, as cmark defines them (ASCII only).
enum ASCII {
  static let backslash = UInt8(ascii: "\\")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let pipe = UInt8(ascii: "|")

  /// Space or tab.
  @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  /// cmark's whitespace: space, tab, line feed, vertical tab, form feed, carriage return.
  @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == space || (byte >= 9 && byte <= 13) }

  /// ASCII punctuation, the characters a backslash can escape.
  @inline(__always) static func isPunctuation(_ byte: UInt8) -> Bool {
    (byte >= 33 && byte <= 47) || (byte >= 58 && byte <= 64) || (byte >= 91 && byte <= 96)
      || (byte >= 123 && byte <= 126)
  }

  /// ASCII letters and digits.
  @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
  }

  /// ASCII letters.
  @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }

  @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  /// Lowercases an ASCII letter.
  @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | 0x20 : byte }
}
