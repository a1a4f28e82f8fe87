#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The source ranges of inlines, made from cmark-gfm's positions and kept honest.
///
/// cmark-gfm 0.29.0.gfm.6 reports inline positions with known faults: soft breaks have none;
/// extension autolinks (`https://…`, `www.…`, e-mail) and some text beside them have none or keep
/// the span of the text they were cut from; `<…>` autolinks on the later lines of a paragraph count
/// columns from the paragraph's start, past the end of the line. This type clamps every position
/// into its line and finds links and images whose position cannot be theirs in the source, so
/// a link's range covers the link as written.
struct InlineRanges {
  /// Per line, its start offset and the offset of its end (its line ending excluded): line `l` is
  /// `bounds[2 * (l - 1)] ..< bounds[2 * (l - 1) + 1]`; lines end at LF, CR or CRLF as cmark-gfm
  /// counts them. In the parse's arena (``ParseArena/integers(_:)``), like the C tree it goes with:
  /// a parse of a short piece would otherwise pay a `malloc` and a `free` for it.
  private let bounds: UnsafeMutablePointer<Int>
  /// The number of lines (at least 1).
  private let lineCount: Int

  /// The lines of `source`. Call only while the parse's arena is live (under `cmarkParserLock`,
  /// before ``ParseArena/releaseAll()``), and use the value no longer than that.
  init(_ source: String) {
    var source = source
    (bounds, lineCount) = source.withUTF8 { bytes in
      let count = bytes.count
      // At most one line per CR or LF, plus the last; both found by memchr, not byte by byte.
      func occurrences(of byte: UInt8) -> Int {
        var found = 0
        var position = bytes.firstOffset(of: byte, from: 0, to: count)
        while position < count {
          found += 1
          position = bytes.firstOffset(of: byte, from: position + 1, to: count)
        }
        return found
      }
      let endings = occurrences(of: ASCII.newline) + occurrences(of: ASCII.carriageReturn)
      let bounds = ParseArena.integers(2 * (endings + 1))
      var written = 0
      var start = 0
      // The next LF and the next CR at or after `start` (the count when there is none).
      var newline = -1
      var carriageReturn = -1
      while true {
        if newline < start { newline = bytes.firstOffset(of: ASCII.newline, from: start, to: count) }
        if carriageReturn < start {
          carriageReturn = bytes.firstOffset(of: ASCII.carriageReturn, from: start, to: count)
        }
        let end = min(newline, carriageReturn)
        guard end < count else { break }
        bounds[written] = start
        bounds[written + 1] = end
        written += 2
        start = end == carriageReturn && newline == end + 1 ? end + 2 : end + 1
      }
      bounds[written] = start
      bounds[written + 1] = count
      return (bounds, written / 2 + 1)
    }
  }

  /// The byte offset where line `line` (1-based, in range) starts.
  @inline(__always) private func start(ofLine line: Int) -> Int { bounds[2 * (line - 1)] }

  /// The length in bytes of line `line` (1-based, in range), without its line ending.
  @inline(__always) private func length(ofLine line: Int) -> Int { bounds[2 * line - 1] - bounds[2 * (line - 1)] }

  /// cmark-gfm's position of an inline, made safe: `nil` when it has none (line or column 0, or a
  /// line past the end); columns past the end of their line clamped to the line's last byte, and
  /// an end before the start moved to the start.
  func inlineRange(_ range: SourceRange) -> SourceRange? {
    guard range.start.line >= 1, range.start.column >= 1, range.start.line <= lineCount else { return nil }
    var result = range
    result.start.column = min(range.start.column, max(length(ofLine: range.start.line), 1))
    if range.end.line < 1 || range.end.line > lineCount || range.end < result.start {
      result.end = result.start
    } else {
      result.end.column = max(min(range.end.column, length(ofLine: range.end.line)), 1)
      if result.end < result.start { result.end = result.start }
    }
    return result
  }

  // MARK: Links

  /// Gives every link and image whose range does not start with `[`, `![` or `<` the span where its
  /// text is written (autolinks are written as their text, or as `<text>`), searched from its
  /// previous sibling on; then ends each inline before its next sibling starts.
  ///
  /// - Complexity: O(n) in the nodes, plus a search per misplaced link of at most `searchWindow`
  ///   bytes, never past the end of the block that holds it (`unboundedSearchWindow` bytes when
  ///   no block around it has a position).
  func repairLinks(_ nodes: inout [MarkdownNode], source: String) {
    var source = source
    source.withUTF8 { bytes in
      // Every depth the nodes reach has its slot in the arrays below from the start.
      var depths = 1
      for position in nodes.indices where nodes[position].depth >= depths { depths = nodes[position].depth + 1 }
      // In document order the latest node at each depth above a node is its ancestor there.
      var latest = [Int](repeating: 0, count: depths)
      // The latest node at each depth with a usable position (a sibling when after the parent).
      var positioned = [Int](repeating: 0, count: depths)
      // The latest node with a usable position, at any depth.
      var lastPositioned: Int? = nil
      // The latest link placed at each depth, and the offset just past it.
      var placed = [(index: Int, end: Int)](repeating: (index: 0, end: 0), count: depths)
      var index = 1
      while index < nodes.count {
        defer {
          let depth = nodes[index].depth
          latest[depth] = index
          if nodes[index].range.flatMap({ offset($0.start) }) != nil {
            positioned[depth] = index
            lastPositioned = index
          }
          index += 1
        }
        // Read in place: a copy of the node would retain and release its payload.
        var isImage = false
        switch nodes[index].kind {
        case .link: break
        case .image: isImage = true
        default: continue
        }
        if let range = nodes[index].range, let start = offset(range.start),
          Self.isWrittenStart(at: start, isImage: isImage, byte: { $0 < bytes.count ? bytes[$0] : nil })
        {
          continue
        }
        let depth = nodes[index].depth
        let parent = depth >= 1 && depth - 1 < latest.count ? latest[depth - 1] : 0
        // Search from the nearest earlier sibling with a position (a soft break has none), else
        // from the start of the nearest ancestor block with one, else (a table's cells and rows may
        // have none) from the last node before it that has one.
        var from: Int? = nil
        if depth < positioned.count && positioned[depth] > parent, let range = nodes[positioned[depth]].range {
          from = offset(range.start)
        }
        if from == nil {
          for level in stride(from: min(depth - 1, latest.count - 1), through: 1, by: -1) {
            if let range = nodes[latest[level]].range, let start = offset(range.start) {
              from = start
              break
            }
          }
        }
        var start = from ?? lastPositioned.flatMap { nodes[$0].range.flatMap { offset($0.start) } } ?? 0
        // Siblings are in source order: never before the end of the last sibling placed here (the
        // positions of text on a paragraph's later lines can lag behind, which would search the
        // same bytes again for every link).
        if depth < placed.count, placed[depth].index > parent { start = max(start, placed[depth].end) }
        // Never past the end of the nearest block around it that says where it ends; without one,
        // a short way only.
        var limit = min(bytes.count, start + Self.unboundedSearchWindow)
        for level in stride(from: min(depth - 1, latest.count - 1), through: 1, by: -1) {
          let ancestor = nodes[latest[level]]
          // A table cell's position is not trusted.
          if case .tableCell = ancestor.kind { continue }
          guard ancestor.kind.isBlock, let range = ancestor.range, let end = lineEnd(range.end), end > start else {
            continue
          }
          limit = min(bytes.count, start + Self.searchWindow, end)
          break
        }
        place(index, in: &nodes, bytes, from: start, to: limit)
        if let range = nodes[index].range, let end = offset(range.end) {
          placed[depth] = (index, end + 1)
        }
      }
      trimOverlaps(&nodes)
    }
  }

  /// How far from its previous sibling a misplaced link is searched for.
  /// (A link is written just after its previous sibling; where cmark-gfm's positions of the text
  /// before it lag, a longer search would only find the same text further on, for every link of a
  /// long paragraph.)
  static let searchWindow = 8 * 1024
  /// How far it is searched for when no block around it says where it ends.
  static let unboundedSearchWindow = 4 * 1024

  /// Gives a misplaced link the first place in `from..<limit` where its text is written.
  private func place(
    _ link: Int, in nodes: inout [MarkdownNode], _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int
  ) {
    let text = Array(MarkdownDocument.inlineText(of: link, in: nodes).utf8)
    guard !text.isEmpty else {
      nodes[link].range = nil
      return
    }
    guard let found = Self.find(text, in: bytes, from: from, to: limit) else {
      nodes[link].range = nil
      return
    }
    var start = found
    var end = found + text.count - 1
    if start > 0 && bytes[start - 1] == ASCII.lessThan && end + 1 < bytes.count && bytes[end + 1] == ASCII.greaterThan {
      start -= 1
      end += 1
    }
    nodes[link].range = range(start, end)
    // An autolink's one text child is its text as written.
    if nodes[link].subtreeEnd == link + 2, case .text = nodes[link + 1].kind {
      nodes[link + 1].range = range(found, found + text.count - 1)
    }
  }

  /// Ends each inline with a range before the start of its next sibling, where cmark-gfm left the
  /// span of a text that an autolink was cut from.
  func trimOverlaps(_ nodes: inout [MarkdownNode]) {
    for index in 1..<max(nodes.count, 1) where !nodes[index].kind.isBlock {
      let next = nodes[index].subtreeEnd
      guard next < nodes.count, nodes[next].depth == nodes[index].depth, let range = nodes[index].range,
        let following = nodes[next].range, following.start <= range.end,
        let followingStart = offset(following.start), let start = offset(range.start), followingStart > start
      else { continue }
      nodes[index].range = self.range(start, followingStart - 1)
    }
  }

  private func offset(_ position: SourcePosition) -> Int? {
    guard position.line >= 1, position.line <= lineCount, position.column >= 1 else { return nil }
    return start(ofLine: position.line) + position.column - 1
  }

  /// The offset just past the line of `position` (its line ending excluded), or nil.
  private func lineEnd(_ position: SourcePosition) -> Int? {
    guard position.line >= 1, position.line <= lineCount else { return nil }
    return bounds[2 * position.line - 1]
  }

  private func position(_ offset: Int) -> SourcePosition {
    // `low` and `high` are 0-based line indices.
    var low = 0
    var high = lineCount - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if bounds[2 * middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return SourcePosition(line: low + 1, column: offset - bounds[2 * low] + 1)
  }

  private func range(_ start: Int, _ end: Int) -> SourceRange {
    SourceRange(start: position(start), end: position(end))
  }

  /// Whether a link (an image, with `isImage`) whose range starts at byte `start` starts where
  /// it is written: at `[` or `<` (`![`), which ``repairLinks(_:source:)`` leaves as it is.
  /// `byte` reads the source (nil past its end).
  @inline(__always)
  private static func isWrittenStart(at start: Int, isImage: Bool, byte: (Int) -> UInt8?) -> Bool {
    if isImage { return byte(start) == UInt8(ascii: "!") && byte(start + 1) == ASCII.openBracket }
    let first = byte(start)
    return first == ASCII.openBracket || first == ASCII.lessThan
  }

  /// Whether the link or image with range `range` in `source` is one ``repairLinks(_:source:)``
  /// would search for (``isWrittenStart(at:isImage:byte:)`` says no): the tree converter calls
  /// that search only when one is.
  func needsRepair(_ range: SourceRange?, isImage: Bool, in source: String.UTF8View) -> Bool {
    guard let range, let start = offset(range.start) else { return true }
    let count = source.count
    return !Self.isWrittenStart(at: start, isImage: isImage) { position in
      position < count ? source[source.index(source.startIndex, offsetBy: position)] : nil
    }
  }

  private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int) -> Int? {
    guard let first = needle.first, limit - from >= needle.count, let base = bytes.baseAddress else { return nil }
    // The first byte by memchr, then the rest by memcmp: a misplaced link can be kilobytes away,
    // and the text before it is often other URLs that share a long prefix with it.
    let last = limit - needle.count
    return needle.withUnsafeBufferPointer { needle in
      guard let rest = needle.baseAddress else { return nil }
      var candidate = from
      while candidate <= last {
        candidate = bytes.firstOffset(of: first, from: candidate, to: last + 1)
        guard candidate <= last else { return nil }
        if memcmp(base + candidate + 1, rest + 1, needle.count - 1) == 0 { return candidate }
        candidate += 1
      }
      return nil
    }
  }

}
