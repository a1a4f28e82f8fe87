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
///
/// The first chunk (64 KB, or the first request's size up to ``keptChunkLimit``) stays mapped from
/// one parse to the next: a stream parses small pieces thousands of times, and mapping and
/// unmapping a chunk for each cost as much system time as the parses' user time. Only the part of
/// it earlier parses used is dirty, and `calloc` zeroes a block only where it overlaps that part.
enum ParseArena {
  private struct State {
    var chunks: [HugePages.Region] = []
    var cursor: UnsafeMutableRawPointer?
    /// In the kept first chunk, where the bytes earlier parses wrote end (`calloc` zeroes below).
    var dirtyEnd: UnsafeMutableRawPointer?
    var remaining = 0
    var nextChunkSize = 1 << 16
  }

  /// Only touched while `cmarkParserLock` is held (see the type's documentation). A pointer, not
  /// a `static var`, so the hot path pays no exclusivity checks.
  nonisolated(unsafe) private static let statePointer: UnsafeMutablePointer<State> = {
    let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
    pointer.initialize(to: State())
    return pointer
  }()

  private static let headerSize = 8

  /// The allocator to hand to `cmark_parser_new_with_mem`.
  nonisolated(unsafe) static let allocator: UnsafeMutablePointer<cmark_mem> = {
    let mem = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
    mem.initialize(
      to: cmark_mem(
        calloc: { count, size in
          let bytes = count.multipliedReportingOverflow(by: size)
          guard !bytes.overflow, let block = ParseArena.allocate(bytes.partialValue) else { return nil }
          ParseArena.zeroDirty(block, bytes.partialValue)
          return block
        },
        realloc: { pointer, size in ParseArena.reallocate(pointer, size) },
        free: { _ in }))
    return mem
  }()

  private static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
    let state = statePointer
    let needed = (size + headerSize + 7) & ~7
    if needed > state.pointee.remaining {
      let chunkSize = max(state.pointee.nextChunkSize, needed)
      // Fresh anonymous pages are zero, so `calloc` requests need no memset; chunks of 2 MB and
      // more ask for huge pages (see ``HugePages``).
      // cmark-gfm never checks for nil (it would crash inside the library): a failed mapping ends
      // the process with one line saying why, as cmark-gfm's own allocator does. The command
      // line's input limit (``InputLimits/maxInputBytes``) keeps its inputs far from this.
      guard let chunk = HugePages.map(chunkSize) else { outOfMemory(chunkSize) }
      state.pointee.chunks.append(chunk)
      state.pointee.cursor = chunk.start
      state.pointee.remaining = chunk.byteCount
      state.pointee.nextChunkSize = min(state.pointee.nextChunkSize * 2, 1 << 24)
    }
    guard let block = state.pointee.cursor else { return nil }
    state.pointee.cursor = block + needed
    state.pointee.remaining -= needed
    block.storeBytes(of: size, as: Int.self)
    return block + headerSize
  }

  private static func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    guard let pointer else { return allocate(size) }
    let oldSize = (pointer - headerSize).load(as: Int.self)
    if size <= oldSize { return pointer }
    // The newest block grows in place when its chunk has room (cmark-gfm's buffers grow by half
    // their size at a time, so copying each step would leave most of the arena as dead copies).
    let state = statePointer
    let oldEnd = pointer + ((oldSize + 7) & ~7)
    let newEnd = pointer + ((size + 7) & ~7)
    if let cursor = state.pointee.cursor, oldEnd == cursor, newEnd - cursor <= state.pointee.remaining {
      state.pointee.remaining -= newEnd - cursor
      state.pointee.cursor = newEnd
      (pointer - headerSize).storeBytes(of: size, as: Int.self)
      return pointer
    }
    guard let fresh = allocate(size) else { return nil }
    fresh.copyMemory(from: pointer, byteCount: oldSize)
    return fresh
  }

  private static func outOfMemory(_ bytes: Int) -> Never {
    var line = "ReplyKit: out of memory: the parse needed \(bytes) more bytes that could not be mapped\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(70)
  }

  /// The largest first chunk kept mapped between parses.
  static let keptChunkLimit = 1 << 20

  /// Zeroes the part of `block` (`size` bytes, from ``allocate(_:)``) that an earlier parse wrote.
  private static func zeroDirty(_ block: UnsafeMutableRawPointer, _ size: Int) {
    guard let dirty = statePointer.pointee.dirtyEnd, block < dirty else { return }
    block.initializeMemory(as: UInt8.self, repeating: 0, count: min(size, dirty - block))
  }

  /// Releases every chunk but a small first one, which the next parse starts from. Call with the
  /// lock held, once nothing points into the arena.
  static func releaseAll() {
    let state = statePointer
    var chunks = state.pointee.chunks[...]
    var kept: HugePages.Region?
    if let first = chunks.first, first.byteCount <= keptChunkLimit {
      kept = first
      chunks = chunks.dropFirst()
    }
    for chunk in chunks { chunk.unmap() }
    guard let first = kept else {
      state.pointee = State()
      return
    }
    let end = first.start + first.byteCount
    // The cursor is in the first chunk unless a later one was opened (then all of it was used).
    var written = chunks.isEmpty ? (state.pointee.cursor ?? first.start) : end
    if let dirty = state.pointee.dirtyEnd, dirty > written { written = dirty }
    state.pointee = State(
      chunks: [first], cursor: first.start, dirtyEnd: written, remaining: first.byteCount,
      nextChunkSize: min(max(1 << 16, first.byteCount) * 2, 1 << 24))
  }
}
