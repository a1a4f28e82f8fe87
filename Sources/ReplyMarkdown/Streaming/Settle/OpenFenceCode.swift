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
    shownOpenLine(open, head: head, fence: fence, length: length, indent: indent)?.document
  }

  /// What ``openDocument(_:head:fence:length:indent:)`` shows, and where.
  struct ShownLine {
    /// The code block with the code shown.
    var document: MarkdownDocument
    /// Where the open (last) line starts, and where the shown text ends: before a carriage return
    /// that ends the text, a grapheme that later scalars may extend, and the whole line while it
    /// may still close the fence.
    var lineStart: Int
    var end: Int

    /// Whether bytes that arrive after ``end`` and continue the line (`continuation`: no line
    /// break, no NUL) show as they are, appended to the code: the shown part of the line holds a
    /// byte other than a space. Then the opener's indentation is stripped within it, and the line
    /// cannot become a closing fence: a line that starts with a byte other than a space or the
    /// fence character, or that has one after its run of fence characters, or whose run ended
    /// short, never closes, whatever follows it (a line of spaces may still).
    static func continues(_ line: ArraySlice<UInt8>, with continuation: ArraySlice<UInt8>) -> Bool {
      guard line.contains(where: { $0 != ASCII.space }) else { return false }
      return !continuation.contains { $0 == SourceLines.newline || $0 == SourceLines.carriageReturn || $0 == 0 }
    }
  }

  /// ``openDocument(_:head:fence:length:indent:)`` with where its open line starts and its shown
  /// text ends.
  static func shownOpenLine(
    _ open: ArraySlice<UInt8>, head: MarkdownDocument, fence: UInt8, length: Int, indent: Int
  ) -> ShownLine? {
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
    guard let code = code(open[..<end], indent: indent), let document = document(head: head, code: code) else {
      return nil
    }
    return ShownLine(document: document, lineStart: lineStart, end: end)
  }
}
