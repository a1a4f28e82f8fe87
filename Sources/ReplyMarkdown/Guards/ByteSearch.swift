#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension UnsafeBufferPointer<UInt8> {
  /// The offset of the first `byte` in `self[start..<end]`, or `end` when there is none.
  @inline(__always) func firstOffset(of byte: UInt8, from start: Int, to end: Int) -> Int {
    guard start < end, let base = baseAddress else { return end }
    guard let found = memchr(base + start, Int32(byte), end - start) else { return end }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}

/// A set of bytes, kept as one bit per value of a byte's low six bits: a quick first test that lets
/// through every byte of the set and some others (those that agree with one in their low six bits),
/// for scans that then look at the bytes it lets through one by one.
struct ByteMask {
  private(set) var bits: UInt64 = 0

  init(_ bytes: UInt8...) {
    for byte in bytes { insert(byte) }
  }

  mutating func insert(_ byte: UInt8) { bits |= 1 << UInt64(byte & 63) }

  /// `false` only for bytes outside the set.
  @inline(__always) func mayContain(_ byte: UInt8) -> Bool { (bits &>> UInt64(byte)) & 1 != 0 }
}

extension UnsafeBufferPointer<UInt8> {
  /// The offset of the first byte in `self[start..<end]` that `mask` may contain, or `end`.
  @inline(__always) func firstOffset(passing mask: ByteMask, from start: Int, to end: Int) -> Int {
    guard start < end, let base = baseAddress else { return end }
    var byte = base + start
    let stop = base + end
    // Eight bytes a round while there is room: one loop test for eight bytes.
    while stop - byte >= 8 {
      if mask.mayContain(byte[0]) { return byte - base }
      if mask.mayContain(byte[1]) { return byte - base + 1 }
      if mask.mayContain(byte[2]) { return byte - base + 2 }
      if mask.mayContain(byte[3]) { return byte - base + 3 }
      if mask.mayContain(byte[4]) { return byte - base + 4 }
      if mask.mayContain(byte[5]) { return byte - base + 5 }
      if mask.mayContain(byte[6]) { return byte - base + 6 }
      if mask.mayContain(byte[7]) { return byte - base + 7 }
      byte += 8
    }
    while byte < stop && !mask.mayContain(byte[0]) { byte += 1 }
    return byte - base
  }
}
