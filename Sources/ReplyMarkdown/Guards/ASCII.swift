/// Byte classes and named bytes, as cmark defines them (ASCII only): the one byte helper of the
/// guard, the streaming healer, the HTML writer and the plain-text renderer.
enum ASCII {
  static let backslash = UInt8(ascii: "\\")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let pipe = UInt8(ascii: "|")
  static let star = UInt8(ascii: "*")
  static let underscore = UInt8(ascii: "_")
  static let tilde = UInt8(ascii: "~")
  static let backtick = UInt8(ascii: "`")
  static let hyphen = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let equals = UInt8(ascii: "=")
  static let hash = UInt8(ascii: "#")
  static let greaterThan = UInt8(ascii: ">")
  static let lessThan = UInt8(ascii: "<")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let openParenthesis = UInt8(ascii: "(")
  static let closeParenthesis = UInt8(ascii: ")")
  static let exclamation = UInt8(ascii: "!")
  static let caret = UInt8(ascii: "^")
  static let colon = UInt8(ascii: ":")
  static let period = UInt8(ascii: ".")
  static let ampersand = UInt8(ascii: "&")
  static let slash = UInt8(ascii: "/")
  static let question = UInt8(ascii: "?")
  static let quote = UInt8(ascii: "\"")
  static let apostrophe = UInt8(ascii: "'")
  static let lowercaseX = UInt8(ascii: "x")
  static let uppercaseX = UInt8(ascii: "X")
  /// The first byte that is not ASCII: every byte of a multi-byte UTF-8 sequence is at least this.
  static let firstNonASCII: UInt8 = 0x80

  /// Where a line's block content starts after the at most three spaces of indentation a block
  /// start may have (a definition's `[`, say): `start` moved past up to three spaces, never past
  /// `end`.
  @inline(__always) static func afterBlockIndent(_ text: [UInt8], from start: Int, to end: Int) -> Int {
    var index = start
    while index < end && index - start < 3 && text[index] == space { index += 1 }
    return index
  }

  /// Space or tab.
  @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  /// cmark's whitespace in its scanners: space, tab, line feed, vertical tab, form feed, carriage
  /// return.
  @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == space || (byte >= 9 && byte <= 13) }

  /// `cmark_isspace`, what cmark-gfm's renderers and info strings split on: space, tab, line feed
  /// and carriage return (not vertical tab or form feed, unlike ``isSpace(_:)``).
  @inline(__always) static func isCmarkSpace(_ byte: UInt8) -> Bool {
    byte == space || byte == tab || byte == newline || byte == carriageReturn
  }

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

  /// Whether `byte` continues a multi-byte UTF-8 sequence (`10xxxxxx`).
  @inline(__always) static func isUTF8Continuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

  /// Lowercases an ASCII letter.
  @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | 0x20 : byte }

  /// Whether `bytes` hold a byte of `set` that no backslash escapes (a backslash escapes the byte
  /// after it, a backslash too).
  static func containsUnescaped(_ bytes: ArraySlice<UInt8>, _ set: (UInt8) -> Bool) -> Bool {
    var escaped = false
    for byte in bytes {
      if escaped {
        escaped = false
      } else if byte == backslash {
        escaped = true
      } else if set(byte) {
        return true
      }
    }
    return false
  }
}
