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

  /// How many bytes of `self[start..<end]` are `byte`, read eight at a time.
  func count(of byte: UInt8, from start: Int, to end: Int) -> Int {
    guard start < end, let base = baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var count = 0
    var index = start
    while index + 8 <= end {
      // Per byte, the matches of up to 31 words, then summed across the bytes by a multiply (the
      // sum, at most 248, fits the top byte).
      var sums: UInt64 = 0
      var words = 0
      while words < 31 && index + 8 <= end {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
        // Bit 7 of a byte is set exactly where the byte of `word` is zero: adding 0x7F to its low
        // seven bits sets it unless they are zero (no carry leaves the byte), and so does its own.
        sums &+= (~(((word & low7) &+ low7) | word | low7)) >> 7
        index += 8
        words += 1
      }
      count &+= Int(truncatingIfNeeded: (sums &* 0x0101_0101_0101_0101) >> 56)
    }
    while index < end {
      if self[index] == byte { count &+= 1 }
      index += 1
    }
    return count
  }
}

/// A set of one to twelve byte values (not 0), tested sixteen bytes at a time with SIMD compares.
///
/// A block takes three compares for a set of up to three values, nine for up to nine, and twelve
/// for more (the places a set does not fill repeat its last value).
struct ByteSet {
  /// How many compares a block takes.
  enum Width {
    case three, nine, twelve
  }

  let width: Width
  private let v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11: SIMD16<UInt8>

  init(_ values: [UInt8]) {
    precondition(!values.isEmpty && values.count <= 12 && !values.contains(0), "ByteSet takes 1 to 12 bytes, not 0")
    func splat(_ index: Int) -> SIMD16<UInt8> { SIMD16(repeating: values[Swift.min(index, values.count - 1)]) }
    v0 = splat(0)
    v1 = splat(1)
    v2 = splat(2)
    v3 = splat(3)
    v4 = splat(4)
    v5 = splat(5)
    v6 = splat(6)
    v7 = splat(7)
    v8 = splat(8)
    v9 = splat(9)
    v10 = splat(10)
    v11 = splat(11)
    width = values.count > 9 ? .twelve : values.count > 3 ? .nine : .three
  }

  /// Bit `k` is set when `block[k]` is in the set; `width` is this set's ``width``.
  @inline(__always) func matches(in block: SIMD16<UInt8>, width: Width) -> UInt32 {
    var found = (block .== v0) .| (block .== v1) .| (block .== v2)
    if width != .three {
      found .|= (block .== v3) .| (block .== v4) .| (block .== v5)
      found .|= (block .== v6) .| (block .== v7) .| (block .== v8)
      if width == .twelve { found .|= (block .== v9) .| (block .== v10) .| (block .== v11) }
    }
    // A true lane of a mask is all ones: each byte is 0x00 or 0xFF.
    let words = unsafeBitCast(found, to: SIMD2<UInt64>.self)
    let low = UInt64(littleEndian: words[0])
    let high = UInt64(littleEndian: words[1])
    if low | high == 0 { return 0 }
    return UInt32(truncatingIfNeeded: Self.lowBits(of: low) | Self.lowBits(of: high) &<< 8)
  }

  /// One bit per byte of `word` (each 0x00 or 0xFF), byte 0 in bit 0: the multiply moves the low bit
  /// of byte `i` to bit `56 + i`, and no two partial products meet.
  @inline(__always) private static func lowBits(of word: UInt64) -> UInt64 {
    ((word & 0x0101_0101_0101_0101) &* 0x0102_0408_1020_4080) &>> 56
  }
}

/// Where a forward search for the bytes of a ``ByteSet`` in one buffer is: the last sixteen-byte
/// block it read, with the set bytes found there, so that stepping from one set byte to the next
/// in dense text reads each byte once.
///
/// Searches must move forward or stay in the last block; any other start just reads a new block.
/// The set and the buffer are passed to each search, the same each time.
struct ByteSetCursor {
  /// Where the block starts (it may run past the end of the range searched, never past the buffer).
  private var blockStart = -16
  /// Bit `k`: the byte at `blockStart + k` is in the set.
  private var blockBits: UInt32 = 0

  /// The offset of the first byte of `set` in `bytes[start..<end]`, or `end` when there is none.
  @inline(__always) mutating func next(
    _ set: ByteSet, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
  ) -> Int {
    var position = start
    let offset = start &- blockStart
    if UInt(bitPattern: offset) < 16 {
      let pending = blockBits &>> UInt32(truncatingIfNeeded: offset)
      if pending != 0 {
        let found = start &+ pending.trailingZeroBitCount
        return found < end ? found : end
      }
      position = blockStart &+ 16
    }
    guard let base = bytes.baseAddress, position < end else { return end }
    // Read blocks until one holds a byte of the set, or `end` is passed; one loop per width, so
    // that the width is not tested again for each block.
    let bits: UInt32
    switch set.width {
    case .three: bits = Self.readBlocks(set, .three, base, count: bytes.count, from: &position, to: end)
    case .nine: bits = Self.readBlocks(set, .nine, base, count: bytes.count, from: &position, to: end)
    case .twelve: bits = Self.readBlocks(set, .twelve, base, count: bytes.count, from: &position, to: end)
    }
    blockStart = position
    blockBits = bits
    let found = bits == 0 ? end : position &+ bits.trailingZeroBitCount
    return found < end ? found : end
  }

  /// The set bytes of the first block from `position` on (moved to that block's start) that has
  /// any, or of the block that reaches `end`.
  @inline(__always) private static func readBlocks(
    _ set: ByteSet, _ width: ByteSet.Width, _ base: UnsafePointer<UInt8>, count: Int, from position: inout Int,
    to end: Int
  ) -> UInt32 {
    let lastBlock = count &- 16
    while true {
      let bits: UInt32
      if position <= lastBlock {
        bits = set.matches(in: UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self), width: width)
      } else {
        // The last bytes of the buffer, padded with zeros (never in a set).
        var block = SIMD16<UInt8>()
        for index in 0..<(count &- position) { block[index] = base[position &+ index] }
        bits = set.matches(in: block, width: width)
      }
      if bits != 0 || position &+ 16 >= end { return bits }
      position &+= 16
    }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The offset of the first cmark whitespace byte (``ASCII/isSpace(_:)``) in `self[start..<end]`,
  /// or `end`. Eight bytes are read at once, for the first byte below 0x21, which every
  /// whitespace byte is.
  @inline(__always) func firstSpaceOffset(from start: Int, to end: Int) -> Int {
    var index = start
    if let base = baseAddress {
      while end &- index >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        // The high bit of each byte below 0x21 that no lower byte below 0x21 precedes (a borrow
        // may mark bytes after one): the lowest marked byte is the first one below 0x21.
        let below = (word &- 0x2121_2121_2121_2121) & ~word & 0x8080_8080_8080_8080
        if below == 0 {
          index &+= 8
          continue
        }
        let first = index &+ below.trailingZeroBitCount &>> 3
        if ASCII.isSpace(self[first]) { return first }
        index = first &+ 1
      }
    }
    while index < end && !ASCII.isSpace(self[index]) { index += 1 }
    return index
  }
}

extension ArraySlice<UInt8> {
  /// Whether these bytes are the UTF-8 of `string`, compared as memory (the last text of an open
  /// paragraph is compared with the received bytes on every update that adds words to it).
  ///
  /// - Complexity: O(n), a `memcmp`.
  func equalsUTF8(of string: String) -> Bool {
    var string = string
    return string.withUTF8 { utf8 in
      withUnsafeBufferPointer { buffer in
        guard buffer.count == utf8.count else { return false }
        guard let a = buffer.baseAddress, let b = utf8.baseAddress else { return true }
        return memcmp(a, b, buffer.count) == 0
      }
    }
  }
}
