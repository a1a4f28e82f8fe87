#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds where the lines of the guard's input end (at `\n` or `\r`; `\r\n` is one line ending).
///
/// Both bytes are found with `memchr`, and the last position found of each is kept: it answers
/// for every line that starts before it. So the text is searched once for `\n`, and once more
/// for `\r` when it has any, whatever mix of line endings it has.
struct LineBreaks {
  let bytes: UnsafeBufferPointer<UInt8>
  let hasCarriageReturn: Bool
  /// The first `\n` at or after `newlineSearchStart` (the count when there is none).
  private var newline = -1
  private var newlineSearchStart = 0
  /// The first `\r` at or after `returnSearchStart` (the count when there is none).
  private var carriageReturn: Int
  private var returnSearchStart = 0

  /// Line breaks of `bytes`, asked for lines that start at `start` or later.
  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
    self.bytes = bytes
    carriageReturn = bytes.firstOffset(of: ASCII.carriageReturn, from: start, to: bytes.count)
    hasCarriageReturn = carriageReturn < bytes.count
    returnSearchStart = start
  }

  /// The offset of the first `\n` or `\r` at or after `start` (which is less than the count), or
  /// the count when there is none.
  @inline(__always) mutating func lineEnd(from start: Int) -> Int {
    if start > newline || start < newlineSearchStart {
      newline = Self.find(ASCII.newline, in: bytes, from: start)
      newlineSearchStart = start
    }
    guard hasCarriageReturn else { return newline }
    if start > carriageReturn || start < returnSearchStart {
      carriageReturn = Self.find(ASCII.carriageReturn, in: bytes, from: start)
      returnSearchStart = start
    }
    return min(newline, carriageReturn)
  }

  /// The offset of the first `byte` in `bytes[start...]` (`start` is less than the count), or the
  /// count.
  @inline(__always) private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int
  {
    guard let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), bytes.count &- start) else {
      return bytes.count
    }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
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
