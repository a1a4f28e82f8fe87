/// Recognises the URL schemes that safe HTML output drops, as cmark-gfm does.
public enum URLSafety {
  /// Whether `url` starts (case-insensitively) with `javascript:`, `vbscript:`, `file:` or a
  /// `data:` URL that is not a PNG, GIF, JPEG or WebP image.
  ///
  /// - Complexity: O(1): at most the first 16 bytes are read (a URL starting with anything but
  ///   `j`, `v`, `f` or `d` is answered from its first byte).
  public static func isDangerous(_ url: String) -> Bool {
    var prefix = (0 as UInt64, 0 as UInt64)
    var count = 0
    for byte in url.utf8 {
      // ASCII letters lower-cased; any other byte stays as it is and matches no prefix.
      let lower = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
      if count == 0 && lower != UInt8(ascii: "j") && lower != UInt8(ascii: "v") && lower != UInt8(ascii: "f")
        && lower != UInt8(ascii: "d")
      {
        return false
      }
      if count < 8 {
        prefix.0 |= UInt64(lower) << (8 * UInt64(count))
      } else {
        prefix.1 |= UInt64(lower) << (8 * UInt64(count - 8))
      }
      count += 1
      if count == 16 { break }
    }
    func starts(_ literal: StaticString) -> Bool {
      let length = literal.utf8CodeUnitCount
      guard length <= count else { return false }
      for position in 0..<length {
        let byte = position < 8 ? prefix.0 >> (8 * UInt64(position)) : prefix.1 >> (8 * UInt64(position - 8))
        if UInt8(truncatingIfNeeded: byte) != literal.utf8Start[position] { return false }
      }
      return true
    }
    if starts("data:image/png") || starts("data:image/gif") || starts("data:image/jpeg") || starts("data:image/webp") {
      return false
    }
    return starts("javascript:") || starts("vbscript:") || starts("file:") || starts("data:")
  }
}
