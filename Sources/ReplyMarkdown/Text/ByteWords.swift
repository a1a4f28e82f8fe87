/// Scans of UTF-8 a machine word (eight bytes) at a time, for the common case of long runs that
/// hold none of the bytes looked for: a word is tested whole, and only a word that holds a match
/// is looked at byte by byte.
///
/// The word tests are exact (no false positives or negatives) for whether *some* byte of the word
/// matches, which is all the scans need; they do not say which byte.
///
/// - Complexity: O(n), about a quarter of the instructions of a byte loop on long runs.
/// - Thread safety: pure functions.
enum ByteWords {
  /// `0x01` in every byte.
  static let ones: UInt64 = 0x0101_0101_0101_0101
  /// The high bit of every byte.
  static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit set in the result when some byte of `word` is less than `limit` (at most 0x80).
  @inline(__always)
  static func bytesBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highBits
  }

  /// The high bit set in the result when some byte of `word` equals `value`.
  @inline(__always)
  static func bytesEqual(to value: UInt8, in word: UInt64) -> UInt64 {
    let difference = word ^ (ones &* UInt64(value))
    return (difference &- ones) & ~difference & highBits
  }

  /// Whether some byte of `bytes` satisfies `matches`, where `wordMatches` tells exactly whether
  /// some byte of an eight-byte word does.
  @inline(__always)
  static func contains(
    _ bytes: UnsafeBufferPointer<UInt8>, wordMatches: (UInt64) -> Bool, _ matches: (UInt8) -> Bool
  ) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var index = 0
    while index + 8 <= count {
      if wordMatches(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { break }
      index += 8
    }
    while index < count {
      if matches(bytes[index]) { return true }
      index += 1
    }
    return false
  }

  /// Whether every byte of `bytes` is ASCII (below 0x80).
  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !contains(bytes, wordMatches: { $0 & highBits != 0 }, { $0 >= 0x80 })
  }
}
