import CCmarkGFM

extension CmarkBridge {
  /// What cmark-gfm decodes the entity whose `&` is at `bytes[start]` to in text (its own decoder:
  /// named entities of HTML5, numeric ones of up to eight digits, zero and invalid values as
  /// U+FFFD), and where the entity ends; nil where cmark-gfm reads no entity.
  ///
  /// - Complexity: O(1): an entity's name is at most 32 bytes, and only so many are read.
  static func entity(in bytes: [UInt8], at start: Int) -> (decoded: [UInt8], end: Int)? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "&") else { return nil }
    let size = Int32(min(bytes.count - start, 48))
    var decoded = [UInt8](repeating: 0, count: 16)
    var written: Int32 = 0
    let consumed = bytes.withUnsafeBufferPointer { source in
      decoded.withUnsafeMutableBufferPointer { out in
        guard let from = source.baseAddress, let to = out.baseAddress else { return Int32(0) }
        return replykit_decode_entity(from + start, size, to, Int32(out.count), &written)
      }
    }
    guard consumed > 0 else { return nil }
    return (Array(decoded[..<Int(written)]), start + Int(consumed))
  }
}
