import CCmarkGFM

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bump allocator that cmark-gfm allocates a document's parse from, dropped whole afterwards.
///
/// cmark-gfm's own arena (`cmark_get_arena_mem_allocator`) is one process-global arena that any
/// thread may reset, so ReplyKit never uses it. This one is private to ReplyKit and is only ever
/// active while `cmarkParserLock` is held: a parse, its conversion to Swift values and the arena's
/// release all happen inside one critical section, so no other thread can see or free its memory.
///
/// Freeing is a no-op and the whole arena is released at once, which skips cmark-gfm's per-node
/// frees (a tenth of a parse). Every block is 8-byte aligned (what cmark-gfm's own arena gives;
/// it stores no wider types) and carries its size in an 8-byte
/// header so that `realloc` can copy; memory comes from anonymous `mmap` chunks, zero when fresh.
/// The allocation path is the shim's `replykit_arena_*` C functions (cmark-gfm calls it for every
/// node and buffer, and a Swift closure behind a thunk cost several times as much); this type maps,
/// keeps and releases the chunks, and hands out scratch space for the conversion.
///
/// The first chunk (64 KB, or the first request's size up to ``keptChunkLimit``) stays mapped from
/// one parse to the next: a stream parses small pieces thousands of times, and mapping and
/// unmapping a chunk for each cost as much system time as the parses' user time. Only the part of
/// it earlier parses used is dirty, and `calloc` zeroes a block only where it overlaps that part.
enum ParseArena {
  /// What only Swift needs: the mapped chunks and the size of the next one. The bump state itself
  /// (cursor, end, dirty end) is the shim's `replykit_arena`, where the allocation path reads it.
  private struct Chunks {
    var regions: [HugePages.Region] = []
    var nextSize = 1 << 16
  }

  /// Only touched while `cmarkParserLock` is held (see the type's documentation). A pointer, not
  /// a `static var`, so the hot path pays no exclusivity checks.
  nonisolated(unsafe) private static let chunks: UnsafeMutablePointer<Chunks> = {
    let pointer = UnsafeMutablePointer<Chunks>.allocate(capacity: 1)
    pointer.initialize(to: Chunks())
    return pointer
  }()

  /// The allocator to hand to `cmark_parser_new_with_mem` (the shim's bump allocator, with this
  /// type mapping its chunks).
  nonisolated(unsafe) static let allocator: UnsafeMutablePointer<cmark_mem> = {
    replykit_arena_state().pointee.refill = { needed in ParseArena.refill(needed) }
    return replykit_arena_allocator()
  }()

  /// Room for `count` integers in the arena, valid until ``releaseAll()``: scratch space for the
  /// conversion of the parse, which runs under the same lock (a Swift array would cost a `malloc`
  /// and a `free` per parse). Call with the lock held.
  static func integers(_ count: Int) -> UnsafeMutablePointer<Int> {
    _ = allocator  // Installs `refill`.
    let bytes = count.multipliedReportingOverflow(by: MemoryLayout<Int>.stride)
    return replykit_arena_bump(bytes.overflow ? .max : bytes.partialValue).bindMemory(to: Int.self, capacity: count)
  }

  /// Maps a chunk of at least `needed` bytes and makes it the one the shim allocates from.
  private static func refill(_ needed: Int) {
    let chunkSize = max(chunks.pointee.nextSize, needed)
    // Fresh anonymous pages are zero, so `calloc` requests need no memset; chunks of 2 MB and
    // more ask for huge pages (see ``HugePages``).
    // cmark-gfm never checks for nil (it would crash inside the library): a failed mapping ends
    // the process with one line saying why, as cmark-gfm's own allocator does. The command
    // line's input limit (``InputLimits/maxInputBytes``) keeps its inputs far from this.
    guard let chunk = HugePages.map(chunkSize) else { outOfMemory(chunkSize) }
    chunks.pointee.regions.append(chunk)
    chunks.pointee.nextSize = min(chunks.pointee.nextSize * 2, 1 << 24)
    let state = replykit_arena_state()
    let start = chunk.start.assumingMemoryBound(to: CChar.self)
    state.pointee.cursor = start
    state.pointee.end = start + chunk.byteCount
  }

  private static func outOfMemory(_ bytes: Int) -> Never {
    var line = "ReplyKit: out of memory: the parse needed \(bytes) more bytes that could not be mapped\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(70)
  }

  /// The largest first chunk kept mapped between parses.
  static let keptChunkLimit = 1 << 20

  /// Releases every chunk but a small first one, which the next parse starts from. Call with the
  /// lock held, once nothing points into the arena.
  static func releaseAll() {
    let state = replykit_arena_state()
    // Nearly every parse fits in the kept first chunk: rewind it without touching the array.
    if chunks.pointee.regions.count == 1, let first = chunks.pointee.regions.first, first.byteCount <= keptChunkLimit {
      let start = first.start.assumingMemoryBound(to: CChar.self)
      if let cursor = state.pointee.cursor, state.pointee.dirty_end.map({ cursor > $0 }) ?? true {
        state.pointee.dirty_end = cursor
      }
      state.pointee.cursor = start
      state.pointee.end = start + first.byteCount
      chunks.pointee.nextSize = min(max(1 << 16, first.byteCount) * 2, 1 << 24)
      return
    }
    var regions = chunks.pointee.regions[...]
    var kept: HugePages.Region?
    if let first = regions.first, first.byteCount <= keptChunkLimit {
      kept = first
      regions = regions.dropFirst()
    }
    for chunk in regions { chunk.unmap() }
    guard let first = kept else {
      chunks.pointee = Chunks()
      state.pointee.cursor = nil
      state.pointee.end = nil
      state.pointee.dirty_end = nil
      return
    }
    let start = first.start.assumingMemoryBound(to: CChar.self)
    let end = start + first.byteCount
    // The cursor is in the first chunk unless a later one was opened (then all of it was used).
    var written = regions.isEmpty ? (state.pointee.cursor ?? start) : end
    if let dirty = state.pointee.dirty_end, dirty > written { written = dirty }
    chunks.pointee = Chunks(regions: [first], nextSize: min(max(1 << 16, first.byteCount) * 2, 1 << 24))
    state.pointee.cursor = start
    state.pointee.end = end
    state.pointee.dirty_end = written
  }
}
