/// A bracketed paste (mode 2004) being received: its bytes up to the end marker `ESC [ 201 ~`,
/// however the reads cut them.
///
/// Guarantees: holds at most ``limit`` bytes (plus the few of a half-read end marker) whatever
/// the paste's length, and counts every byte, so a paste past the limit is refused whole
/// (``event``), never cut. No byte fed is ever a key.
/// - Complexity: O(n) in the bytes fed.
struct BracketedPaste {
  /// The bytes that start a paste.
  static let startMarker: [UInt8] = Array("\u{1B}[200~".utf8)
  /// The bytes that end a paste.
  static let endMarker: [UInt8] = Array("\u{1B}[201~".utf8)

  /// The longest paste kept, in bytes; a longer one is refused.
  let limit: Int
  /// The paste's bytes so far, while they are within ``limit``.
  private var bytes: [UInt8] = []
  /// How many bytes the paste has so far, kept or not.
  private(set) var length = 0
  /// How many bytes of ``endMarker`` the input ended with so far.
  private var matched = 0

  /// Starts an empty paste that keeps at most `limit` bytes.
  init(limit: Int) {
    self.limit = limit
  }

  /// Takes `input` from `start` as paste; the index after the end marker when the paste ended
  /// there, else `nil` (all of `input` was paste).
  mutating func consume(_ input: [UInt8], from start: Int) -> Int? {
    var index = start
    while index < input.count {
      if matched == 0 {
        // Everything up to the next ESC is paste.
        let escape = input[index...].firstIndex(of: Self.endMarker[0]) ?? input.count
        append(input[index..<escape])
        index = escape
        guard index < input.count else { return nil }
      }
      let byte = input[index]
      index += 1
      if byte == Self.endMarker[matched] {
        matched += 1
        if matched == Self.endMarker.count {
          matched = 0
          return index
        }
      } else {
        // Not the end after all: what looked like it is paste. The marker's ESC is only its first
        // byte, so a mismatch can only restart a match at this byte.
        append(Self.endMarker[0..<matched])
        matched = 0
        if byte == Self.endMarker[0] { matched = 1 } else { append(input[(index - 1)..<index]) }
      }
    }
    return nil
  }

  /// The paste as an event: its text, or ``KeyEvent/pasteTooLarge(bytes:)`` past ``limit``.
  /// A half-read end marker counts as paste (for a paste ended without its marker).
  var event: KeyEvent {
    let total = length + matched
    guard total <= limit else { return .pasteTooLarge(bytes: total) }
    return .paste(String(decoding: bytes + Self.endMarker[0..<matched], as: UTF8.self))
  }

  private mutating func append(_ slice: ArraySlice<UInt8>) {
    length += slice.count
    if length <= limit { bytes += slice } else { bytes = [] }
  }
}
