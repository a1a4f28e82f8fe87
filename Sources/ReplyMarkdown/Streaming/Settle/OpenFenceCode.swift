/// The code of an open top-level fenced code block, computed from its lines without cmark-gfm.
///
/// Inside an open fence, a line that cannot close the fence is code: cmark-gfm strips up to the
/// opener's indentation in spaces and keeps the rest verbatim. Anything this does not model
/// exactly (a carriage return, a NUL, a tab inside that indentation) gives `nil`, and the caller
/// parses instead.
enum OpenFenceCode {
  /// The code cmark-gfm gives for `lines` (complete lines, or a final partial one) inside a fence
  /// whose opener is indented by `indent` spaces; `nil` when unsure.
  ///
  /// - Complexity: O(n) in the bytes of `lines`.
  static func code(_ lines: ArraySlice<UInt8>, indent: Int) -> String? {
    // An opener at the margin strips nothing: the lines are the code, once no byte needs a parse.
    if indent == 0 {
      let needsParse = lines.withUnsafeBufferPointer { buffer in
        buffer.firstOffset(of: 0, from: 0, to: buffer.count) < buffer.count
          || buffer.firstOffset(of: SourceLines.carriageReturn, from: 0, to: buffer.count) < buffer.count
      }
      return needsParse ? nil : String(decoding: lines, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(lines.count)
    var toStrip = indent
    for byte in lines {
      if byte == 0 || byte == SourceLines.carriageReturn { return nil }
      if toStrip > 0 {
        if byte == 0x20 {
          toStrip -= 1
          continue
        }
        if byte == 0x09 { return nil }
        toStrip = 0
      }
      out.append(byte)
      if byte == SourceLines.newline { toStrip = indent }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The opener's indentation in spaces (at most 3 for a fence).
  static func indent(ofOpener opener: [UInt8]) -> Int {
    FenceLine(opener[...])?.indent ?? 0
  }

  /// A document holding only the code block of `head` (a parse of the opening fence line) with
  /// `code` as its code; `nil` when `head` is not such a parse.
  static func document(head: MarkdownDocument, code: String) -> MarkdownDocument? {
    guard head.nodes.count == 2, case .codeBlock(var info) = head.nodes[1].kind else { return nil }
    info.code = code
    return MarkdownDocument(
      nodes: [
        MarkdownNode(kind: .document, subtreeEnd: 2, depth: 0),
        MarkdownNode(kind: .codeBlock(info), subtreeEnd: 2, depth: 1),
      ], options: head.options)
  }

  /// The displayed open line of the fence (everything after the settled lines, healed as
  /// ``StreamHealer`` heals inside a fence), as a document; `nil` when unsure.
  static func openDocument(
    _ open: ArraySlice<UInt8>, head: MarkdownDocument, fence: UInt8, length: Int, indent: Int
  ) -> MarkdownDocument? {
    var end = open.endIndex
    if end > open.startIndex && open[end - 1] == SourceLines.carriageReturn { end -= 1 }
    end -= ByteHolds.growableGraphemeLength(open[..<end])
    var lineStart = end
    while lineStart > open.startIndex && open[lineStart - 1] != SourceLines.newline
      && open[lineStart - 1] != SourceLines.carriageReturn
    {
      lineStart -= 1
    }
    if lineStart < end && StreamHealer.isFenceCloserPrefix(open[lineStart..<end], fence: fence, length: length) {
      end = lineStart
    }
    guard let code = code(open[..<end], indent: indent) else { return nil }
    return document(head: head, code: code)
  }
}
