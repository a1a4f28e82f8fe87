/// Finds bracketed text that a link reference definition arriving later could still turn into a
/// link (`[text][label]`, `[text][]`, `[text]`) and shows it as a pending link: its text without
/// the brackets, not clickable. Without this the brackets would flash and then vanish when the
/// definition arrives (P3).
///
/// Works on a parsed document: labels already defined were resolved by the parse, so every
/// bracket pair left in a text node is unresolved. Brackets split across inline nodes
/// (`[*a*]`) are left alone. Footnote references (`[^x]`) are hidden elsewhere.
enum PendingReferences {
  /// Whether any text node (outside links and images) holds a candidate, or a candidate spans
  /// inline nodes (`[`code`][label]`).
  static func hasCandidate(_ document: MarkdownDocument, in range: Range<Int>) -> Bool {
    let nodes = document.nodes
    // Every candidate starts with a `[` in a text node: most documents have none.
    guard
      nodes[range].contains(where: { node in
        if case .text(let string) = node.kind { return containsOpenBracket(string) }
        return false
      })
    else { return false }
    var insideLink = -1
    for index in range {
      if insideLink >= 0 && index >= insideLink { insideLink = -1 }
      switch nodes[index].kind {
      case .link, .image:
        if insideLink < 0 { insideLink = nodes[index].subtreeEnd }
      case .text(let string) where insideLink < 0:
        if containsOpenBracket(string) && !candidates(in: Array(string.utf8)).isEmpty { return true }
      default:
        break
      }
    }
    return !spans(document, in: range, acrossLinks: true).isEmpty
  }

  /// Whether `string` holds a `[` (a byte scan over its UTF-8 storage).
  static func containsOpenBracket(_ string: String) -> Bool {
    var copy = string
    return copy.withUTF8 { $0.contains(UInt8(ascii: "[")) }
  }

  /// Whether `string` holds a `[` or a `]`.
  static func containsBracket(_ string: String) -> Bool {
    var copy = string
    return copy.withUTF8 { $0.contains { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") } }
  }

  /// A candidate across sibling inline nodes: from the `[` in one text node to the `]` in a later
  /// sibling text node (`end` is past a following `[label]` or `[]`).
  struct Span {
    let openNode: Int
    let open: Int
    let closeNode: Int
    let close: Int
    let end: Int
  }

  /// The candidates that span inline nodes, in document order.
  ///
  /// With `acrossLinks`, a link or image between the brackets does not end a candidate: an
  /// autolink (`[a@b.com][label]`, `[www.x.com][label]`) is made from text that cmark-gfm still
  /// reads as link text when the label is defined (fuzz seed 1234). The question whether a
  /// block may change asks it so; the display marks only candidates without one.
  static func spans(_ document: MarkdownDocument, in range: Range<Int>, acrossLinks: Bool = false) -> [Span] {
    let nodes = document.nodes
    var found: [Span] = []
    var insideLink = -1
    for parent in range {
      if insideLink >= 0 && parent >= insideLink { insideLink = -1 }
      switch nodes[parent].kind {
      case .link, .image:
        if insideLink < 0 { insideLink = nodes[parent].subtreeEnd }
        continue
      case .paragraph, .heading, .tableCell, .emphasis, .strong, .strikethrough:
        guard insideLink < 0 else { continue }
      default:
        continue
      }
      var pendingOpen: (node: Int, offset: Int)?
      for child in document.children(of: parent) {
        switch nodes[child].kind {
        case .text(let string):
          guard containsBracket(string) else {
            // Neither closes a pending `[` nor opens one (what the scan below finds); a label may
            // run on over it, across soft breaks (`[`, `foo`, `]` on three lines: fuzz seed
            // 1230) and hard ones (`[  `, `foo]`: seed 1260), as long as cmark-gfm reads labels
            // (``ReferenceLabels/maximumLength`` bytes).
            if string.utf8.count > ReferenceLabels.maximumLength { pendingOpen = nil }
            continue
          }
          let bytes = Array(string.utf8)
          var scanFrom = 0
          if let open = pendingOpen {
            pendingOpen = nil
            if let close = bytes.firstIndex(where: { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "[") }),
              bytes[close] == UInt8(ascii: "]")
            {
              var end = close + 1
              if end < bytes.count, bytes[end] == UInt8(ascii: "["), let labelEnd = closing(bytes, after: end) {
                end = labelEnd + 1
              }
              found.append(Span(openNode: open.node, open: open.offset, closeNode: child, close: close, end: end))
              scanFrom = end
            }
          }
          // The last `[` with no `]` after it may open a span.
          if let last = bytes[scanFrom...].lastIndex(of: UInt8(ascii: "[")),
            !bytes[last...].contains(UInt8(ascii: "]")),
            last + 1 == bytes.count || bytes[last + 1] != UInt8(ascii: "^")
          {
            pendingOpen = (child, last)
          }
        case .link, .image:
          if !acrossLinks { pendingOpen = nil }
        case .footnoteReference:
          pendingOpen = nil
        default:
          break
        }
      }
    }
    return found
  }

  /// The document with every candidate replaced by a pending link
  /// (``MarkdownNode/LinkInfo/isPending``, an empty destination). Returns the document unchanged
  /// when there is none.
  ///
  /// With `source` (the text `document` was parsed from), brackets it writes escaped or as
  /// entities are no candidate's (``EscapedBrackets``).
  ///
  /// - Complexity: O(n) in the number of nodes and their text; no recursion.
  static func mark(_ document: MarkdownDocument, source: [UInt8]? = nil) -> MarkdownDocument {
    guard let source, EscapedBrackets.mayEscapeBrackets(source) else { return mark(document) }
    return EscapedBrackets.restoring(mark(EscapedBrackets.masking(document, source: source)))
  }

  private static func mark(_ document: MarkdownDocument) -> MarkdownDocument {
    let nodes = document.nodes
    guard hasCandidate(document, in: 0..<nodes.count) else { return document }
    var opens: [Int: (open: Int, closeNode: Int)] = [:]
    var closes: [Int: (close: Int, end: Int)] = [:]
    for span in spans(document, in: 0..<nodes.count) {
      opens[span.openNode] = (span.open, span.closeNode)
      closes[span.closeNode] = (span.close, span.end)
    }
    // The close node of the span being wrapped: spans inside it (within an emphasis between its
    // brackets) are left as text, since one wrap at a time keeps the depths a tree (an inner span
    // closing ended the outer wrap, and the outer's closing text went one level below a leaf:
    // the healer's separator comment then held it as a child and showed: fuzz seed 1341).
    var activeClose: Int?
    var output: [MarkdownNode] = []
    output.reserveCapacity(nodes.count + 8)
    var insideLink = -1
    var wrapped = 0
    func emitText(_ bytes: ArraySlice<UInt8>, depth: Int) {
      guard !bytes.isEmpty else { return }
      output.append(MarkdownNode(kind: .text(text(bytes)), subtreeEnd: 0, depth: depth))
    }
    for index in nodes.indices {
      if insideLink >= 0 && index >= insideLink { insideLink = -1 }
      var node = nodes[index]
      switch node.kind {
      case .link, .image:
        if insideLink < 0 { insideLink = node.subtreeEnd }
      case .text(let string) where insideLink < 0:
        let depth = node.depth
        let closing = index == activeClose ? closes[index] : nil
        let opening = activeClose == nil || closing != nil ? opens[index] : nil
        if closing == nil && opening == nil && !containsOpenBracket(string) {
          // No candidate starts, ends or lies here: the text as it is (what the scan below makes of it).
          if !string.isEmpty { output.append(MarkdownNode(kind: .text(string), subtreeEnd: 0, depth: depth + wrapped)) }
          continue
        }
        let bytes = Array(string.utf8)
        var start = 0
        if let close = closing {
          emitText(bytes[..<close.close], depth: depth + 1)
          wrapped = 0
          activeClose = nil
          start = close.end
        }
        let stop = opening?.open ?? bytes.count
        var position = start
        for candidate in candidates(in: Array(bytes[start..<stop])) {
          emitText(bytes[position..<(start + candidate.open)], depth: depth + wrapped)
          output.append(MarkdownNode(kind: .link(pendingLink), subtreeEnd: 0, depth: depth + wrapped))
          emitText(bytes[(start + candidate.open + 1)..<(start + candidate.close)], depth: depth + wrapped + 1)
          position = start + candidate.end
        }
        emitText(bytes[position..<stop], depth: depth + wrapped)
        if let open = opening {
          output.append(MarkdownNode(kind: .link(pendingLink), subtreeEnd: 0, depth: depth))
          emitText(bytes[(open.open + 1)...], depth: depth + 1)
          wrapped = 1
          activeClose = open.closeNode
        }
        continue
      default:
        break
      }
      node.depth += wrapped
      output.append(node)
    }
    // Subtree ends from depths, with a stack of open ancestors.
    var open: [Int] = []
    for index in output.indices {
      while let last = open.last, output[last].depth >= output[index].depth {
        output[last].subtreeEnd = index
        open.removeLast()
      }
      open.append(index)
    }
    for index in open { output[index].subtreeEnd = output.count }
    return MarkdownDocument(nodes: output, options: document.options, diagnostics: document.diagnostics)
  }

  /// The payload of a link whose label's definition has not arrived.
  static let pendingLink = MarkdownNode.LinkInfo(destination: "", title: "", isPending: true)

  private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

  struct Candidate {
    /// The `[` of the text.
    let open: Int
    /// The `]` of the text.
    let close: Int
    /// Past the candidate (after `[label]` or `[]` when present).
    let end: Int
  }

  /// `[text]` spans whose text holds no bracket and something other than white space, each with
  /// a following `[label]` or `[]` taken along.
  static func candidates(in bytes: [UInt8]) -> [Candidate] {
    let open = UInt8(ascii: "[")
    var found: [Candidate] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == open, let end = closing(bytes, after: index) else {
        index += 1
        continue
      }
      let inner = bytes[(index + 1)..<end]
      guard inner.first != UInt8(ascii: "^"), inner.count <= ReferenceLabels.maximumLength,
        inner.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A })
      else {
        index = end
        continue
      }
      var after = end + 1
      if after < bytes.count, bytes[after] == open, let labelEnd = closing(bytes, after: after) {
        after = labelEnd + 1
      }
      found.append(Candidate(open: index, close: end, end: after))
      index = after
    }
    return found
  }

  /// The first `]` after the `[` at `start`, if no other `[` comes before it.
  private static func closing(_ bytes: [UInt8], after start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "]") { return index }
      if bytes[index] == UInt8(ascii: "[") { return nil }
      index += 1
    }
    return nil
  }
}
