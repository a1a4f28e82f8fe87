/// Decodes UTF-8 that arrives in pieces: a multi-byte sequence split across chunks is held until it
/// completes, so it never shows as U+FFFD; bytes that can never form a character become U+FFFD
/// exactly as one-shot `String(decoding:as:)` would replace them.
struct UTF8StreamDecoder: Sendable {
  /// The bytes of an incomplete but still valid sequence at the end of the input so far (≤ 3).
  private(set) var pending: [UInt8] = []

  /// Decodes `bytes` after what is pending; returns the text of every sequence that is complete
  /// (or can no longer complete) and keeps the incomplete tail.
  mutating func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    var combined = pending
    combined.append(contentsOf: bytes)
    let keep = UTF8StreamDecoder.incompleteSuffixLength(combined)
    pending = Array(combined[(combined.count - keep)...])
    return String(decoding: combined[..<(combined.count - keep)], as: UTF8.self)
  }

  /// Ends the input: pending bytes that never completed become U+FFFD.
  mutating func flush() -> String {
    defer { pending = [] }
    return pending.isEmpty ? "" : String(decoding: pending, as: UTF8.self)
  }

  /// The length of the longest suffix that is a valid but incomplete UTF-8 sequence.
  static func incompleteSuffixLength(_ bytes: [UInt8]) -> Int {
    let count = bytes.count
    var back = 1
    while back <= 3 && back <= count {
      let byte = bytes[count - back]
      if byte & 0xC0 != 0x80 {
        // A lead byte (or ASCII): is `bytes[count-back...]` a valid proper prefix?
        let needed: Int
        switch byte {
        case 0xC2...0xDF: needed = 2
        case 0xE0...0xEF: needed = 3
        case 0xF0...0xF4: needed = 4
        default: return 0
        }
        guard back < needed else { return 0 }
        if back >= 2 {
          let second = bytes[count - back + 1]
          let range: ClosedRange<UInt8>
          switch byte {
          case 0xE0: range = 0xA0...0xBF
          case 0xED: range = 0x80...0x9F
          case 0xF0: range = 0x90...0xBF
          case 0xF4: range = 0x80...0x8F
          default: range = 0x80...0xBF
          }
          guard range.contains(second) else { return 0 }
          if back == 3 && bytes[count - 1] & 0xC0 != 0x80 { return 0 }
        }
        return back
      }
      back += 1
    }
    return 0
  }
}
