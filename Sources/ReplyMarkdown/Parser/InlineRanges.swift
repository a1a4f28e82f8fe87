/// The source ranges of inlines, made from cmark-gfm's positions and kept honest.
///
/// cmark-gfm 0.29.0.gfm.6 reports inline positions with known faults: soft breaks have none;
/// extension autolinks (`https://…`, `www.…`, e-mail) and some text beside them have none or keep
/// the span of the text they were cut from; `<…>` autolinks on the later lines of a paragraph count
/// columns from the paragraph's start, past the end of the line. This type clamps every position
/// into its line and finds links and images whose position cannot be theirs in the source, so
/// a link's range covers the link as written.
struct InlineRanges {
  /// `starts[l - 1]` is the byte offset of line `l`; lines end at LF, CR or CRLF as cmark-gfm
  /// counts them.
  private var starts: [Int] = [0]
  /// `lengths[l - 1]` is the length of line `l` in bytes, without its line ending.
  private var lengths: [Int] = []

  init(_ source: String) {
    var source = source
    source.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == ASCII.newline || byte == ASCII.carriageReturn {
          lengths.append(index - starts[starts.count - 1])
          if byte == ASCII.carriageReturn && index + 1 < bytes.count && bytes[index + 1] == ASCII.newline {
            index += 1
          }
          starts.append(index + 1)
        }
        index += 1
      }
      lengths.append(bytes.count - starts[starts.count - 1])
    }
  }

  /// cmark-gfm's position of an inline, made safe: `nil` when it has none (line or column 0, or a
  /// line past the end); columns past the end of their line clamped to the line's last byte, and
  /// an end before the start moved to the start.
  func inlineRange(_ range: SourceRange) -> SourceRange? {
    guard range.start.line >= 1, range.start.column >= 1, range.start.line <= lengths.count else { return nil }
    var result = range
    result.start.column = min(range.start.column, max(lengths[range.start.line - 1], 1))
    if range.end.line < 1 || range.end.line > lengths.count || range.end < result.start {
      result.end = result.start
    } else {
      result.end.column = max(min(range.end.column, lengths[range.end.line - 1]), 1)
      if result.end < result.start { result.end = result.start }
    }
    return result
  }

  // MARK: Links

  /// Gives every link and image whose range does not start with `[`, `![` or `<` the span where its
  /// text is written (autolinks are written as their text, or as `<text>`), searched from its
  /// previous sibling on; then ends each inline before its next sibling starts.
  ///
  /// - Complexity: O(n) in the nodes, plus a search of at most `searchWindow` bytes per
  ///   misplaced link.
  func repairLinks(_ nodes: inout [MarkdownNode], source: String) {
    var source = source
    source.withUTF8 { bytes in
      var index = 1
      while index < nodes.count {
        defer { index += 1 }
        let node = nodes[index]
        guard !node.kind.isBlock else { continue }
        var isImage = false
        switch node.kind {
        case .link: break
        case .image: isImage = true
        default: continue
        }
        if let range = node.range, let start = offset(range.start),
          isImage
            ? Self.hasPrefix(bytes, start, "![")
            : Self.hasPrefix(bytes, start, "[") || Self.hasPrefix(bytes, start, "<")
        {
          continue
        }
        place(index, in: &nodes, bytes)
      }
      trimOverlaps(&nodes)
    }
  }

  /// How far from its previous sibling a misplaced link is searched for.
  static let searchWindow = 64 * 1024

  private func place(_ link: Int, in nodes: inout [MarkdownNode], _ bytes: UnsafeBufferPointer<UInt8>) {
    let text = Array(MarkdownDocument.inlineText(of: link, in: nodes).utf8)
    guard !text.isEmpty else {
      nodes[link].range = nil
      return
    }
    // Search from the previous sibling's start, else from the parent's.
    var from = 0
    var back = link - 1
    while back > 0 && nodes[back].depth > nodes[link].depth { back -= 1 }
    if let range = nodes[back].range, let start = offset(range.start) { from = start }
    let limit = min(bytes.count, from + Self.searchWindow)
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
  private func trimOverlaps(_ nodes: inout [MarkdownNode]) {
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
    guard position.line >= 1, position.line <= starts.count, position.column >= 1 else { return nil }
    return starts[position.line - 1] + position.column - 1
  }

  private func position(_ offset: Int) -> SourcePosition {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return SourcePosition(line: low + 1, column: offset - starts[low] + 1)
  }

  private func range(_ start: Int, _ end: Int) -> SourceRange {
    SourceRange(start: position(start), end: position(end))
  }

  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ prefix: StaticString) -> Bool {
    guard offset + prefix.utf8CodeUnitCount <= bytes.count else { return false }
    for position in 0..<prefix.utf8CodeUnitCount where bytes[offset + position] != prefix.utf8Start[position] {
      return false
    }
    return true
  }

  private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int) -> Int? {
    guard let first = needle.first, limit - from >= needle.count else { return nil }
    var candidate = from
    while candidate + needle.count <= limit {
      if bytes[candidate] == first && needle.indices.allSatisfy({ bytes[candidate + $0] == needle[$0] }) {
        return candidate
      }
      candidate += 1
    }
    return nil
  }
}
