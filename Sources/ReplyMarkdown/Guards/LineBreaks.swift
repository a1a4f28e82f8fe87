#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds where the lines of the guard's input end (at `\n` or `\r`; `\r\n` is one line ending).
///
/// Text without any `\r`, checked once, is searched with `memchr`; other text byte by byte.
struct LineBreaks {
  let bytes: UnsafeBufferPointer<UInt8>
  let hasCarriageReturn: Bool

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    if let base = bytes.baseAddress, !bytes.isEmpty {
      hasCarriageReturn = memchr(base, Int32(ASCII.carriageReturn), bytes.count) != nil
    } else {
      hasCarriageReturn = false
    }
  }

  /// The offset of the first `\n` or `\r` at or after `start` (which is less than the count), or
  /// the count when there is none.
  @inline(__always) func lineEnd(from start: Int) -> Int {
    let count = bytes.count
    if !hasCarriageReturn, let base = bytes.baseAddress {
      guard let found = memchr(base + start, Int32(ASCII.newline), count - start) else { return count }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    var end = start
    while end < count && bytes[end] != ASCII.newline && bytes[end] != ASCII.carriageReturn { end += 1 }
    return end
  }

  /// The start of the line after the line ending at `end` (`\r\n` is one line ending).
  @inline(__always) func nextLine(after end: Int) -> Int {
    if hasCarriageReturn && end + 1 < bytes.count && bytes[end] == ASCII.carriageReturn
      && bytes[end + 1] == ASCII.newline
    {
      return end + 2
    }
    return end + 1
  }
}
