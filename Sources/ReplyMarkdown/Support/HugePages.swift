#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Transparent huge pages for large short-lived buffers (the parse arena, the node list, render
/// output): one page fault per 2 MB instead of 512, which is a large part of parsing a big document.
///
/// Only advice: where the kernel has no huge pages to give (or is not Linux), nothing changes.
enum HugePages {
  /// The size of one huge page on x86-64 and arm64 Linux.
  static let size = 2 << 20

  /// Buffers at least this large are worth advising.
  static let threshold = 1 << 20

  /// Asks for huge pages for the whole 2 MB-aligned blocks inside `bytes`.
  static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
    #if os(Linux)
      let mask = UInt(size - 1)
      let first = (UInt(bitPattern: start) + mask) & ~mask
      let last = (UInt(bitPattern: start) + UInt(byteCount)) & ~mask
      guard last > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
      _ = madvise(aligned, Int(last - first), MADV_HUGEPAGE)
    #endif
  }

  /// A capacity for a buffer that will be advised: large ones are rounded up so that most of
  /// them lies in whole aligned huge pages (address space only; untouched pages cost nothing).
  static func roundedCapacity(_ bytes: Int) -> Int {
    guard bytes >= threshold else { return bytes }
    let rounded = (bytes + size - 1) / size * size
    return rounded + size
  }
}
