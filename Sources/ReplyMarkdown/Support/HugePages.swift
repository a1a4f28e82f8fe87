#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Large short-lived buffers mapped straight from the kernel (the parse arena's chunks, big render
/// output), backed by transparent huge pages where the kernel offers them: one page fault per 2 MB
/// instead of 512, which was a fifth of the time to parse and render a large document.
///
/// Only memory that ReplyKit maps itself is advised, never memory that `malloc` owns, so the advice
/// ends with the mapping. Where the kernel has no transparent huge pages (or on other systems) the
/// advice does nothing and the mapping behaves as ordinary anonymous memory; huge pages commit
/// memory 2 MB at a time, so a partly used mapping may hold up to 2 MB more than it uses.
enum HugePages {
  /// The huge page size this code aligns to: 2 MB, as on x86-64 (and arm64 with 4 KB pages).
  static let size = 2 << 20

  /// Mappings at least this large are rounded up to whole huge pages, aligned and advised.
  static let threshold = 1 << 20

  /// An anonymous private mapping: zero-filled, read-write, released with ``unmap()``.
  struct Region {
    /// Where the usable bytes start: 2 MB-aligned for advised mappings.
    let start: UnsafeMutableRawPointer
    /// The usable bytes from `start`.
    let byteCount: Int
    fileprivate let mapping: UnsafeMutableRawPointer
    fileprivate let mappedBytes: Int

    /// Returns the memory to the kernel. Nothing may point into it afterwards.
    func unmap() { munmap(mapping, mappedBytes) }
  }

  /// Maps at least `byteCount` zero bytes; `nil` when the kernel refuses.
  static func map(_ byteCount: Int) -> Region? {
    let huge = byteCount >= threshold
    let usable = huge ? (byteCount + size - 1) / size * size : byteCount
    // One huge page of slack lets the usable part start on a 2 MB boundary.
    let mapped = huge ? usable + size : usable
    guard let mapping = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      mapping != MAP_FAILED
    else { return nil }
    guard huge else { return Region(start: mapping, byteCount: usable, mapping: mapping, mappedBytes: mapped) }
    let mask = UInt(size - 1)
    let aligned = UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: mapping) + mask) & ~mask) ?? mapping
    #if os(Linux)
      _ = madvise(aligned, usable, MADV_HUGEPAGE)
    #endif
    return Region(start: aligned, byteCount: usable, mapping: mapping, mappedBytes: mapped)
  }
}
