/// The rules applied to the healed, parsed document: ``HealRule/pendingReferenceLink``,
/// ``HealRule/pendingLinkShowsText`` (turning the scanner's placeholder destination into a
/// pending link), ``HealRule/unresolvedFootnoteReference`` and ``HealRule/openFenceLineNewline``;
/// and the separator written between two strikethrough closers
/// (``InlineHealScanner/closerSeparator``) is dropped, and so are link closers the parse read as
/// text (``removingPendingClosers(_:)``).
enum HealedDisplayMarks {
  /// The healer's placeholder destination and closer separator as strings, made once (they were
  /// made on every heal).
  static let sentinelText = String(decoding: InlineHealScanner.pendingDestination, as: UTF8.self)
  static let separatorText = String(decoding: InlineHealScanner.closerSeparator, as: UTF8.self)

  /// Marks pending links (not at brackets `source`, the text `parsed` was parsed from, escapes),
  /// hides unresolved footnote references and drops the newline cmark adds after an incomplete
  /// last line of an open fenced code block.
  ///
  /// - Complexity: O(n) in the document's nodes.
  static func apply(
    _ parsed: MarkdownDocument, source: [UInt8]? = nil, incompleteLastLine: Bool, options: ParseOptions,
    applied: inout AppliedHealRules
  ) -> StreamHealer.Healed {
    if let source, !mayHoldMarks(source) {
      return StreamHealer.Healed(
        document: droppingOpenLineNewline(parsed, incompleteLastLine: incompleteLastLine, applied: &applied))
    }
    let document = PendingReferences.mark(parsed, source: source)
    var nodes = document.nodes
    let sentinel = Self.sentinelText
    // Inside an address the autolink extension linked, `[^n]` is part of the address, shown as
    // it stands (hidden from the text alone, it made the text disagree with the href: a trial).
    var addressEnd = 0
    for index in nodes.indices {
      switch nodes[index].kind {
      case .link(let info) where info.isPending:
        applied.insert(.pendingReferenceLink)
      case .link(let info) where info.destination == sentinel:
        nodes[index].kind = .link(PendingReferences.pendingLink)
      case .image(let info) where info.destination == sentinel:
        // The closer written for an open bracket before it completed an image the scanner read
        // as text: shown as that pending link, its alternative text not clickable.
        nodes[index].kind = .link(PendingReferences.pendingLink)
      case .link(var info):
        if isAddress(nodes, at: index, destination: info.destination) { addressEnd = nodes[index].subtreeEnd }
        // An autolink that took the closer into its address (`http://a[` + `](…)`).
        if let kept = removingPendingClosers(info.destination) {
          info.destination = kept
          nodes[index].kind = .link(info)
        }
      case .text(let string):
        var shown = string
        if let kept = removingPendingClosers(shown) { shown = kept }
        if options.contains(.footnotes) && index >= addressEnd && containsFootnoteOpener(shown) {
          let hidden = hidingFootnoteReferences(shown)
          if hidden != shown { applied.insert(.unresolvedFootnoteReference) }
          shown = hidden
        }
        if shown != string { nodes[index].kind = .text(shown) }
      case .code(let code):
        // A closer that landed in code (the parse read the text otherwise than the scan) never shows.
        if let kept = removingPendingClosers(code) { nodes[index].kind = .code(kept) }
      case .codeBlock(var info):
        if let kept = removingPendingClosers(info.code) {
          info.code = kept
          nodes[index].kind = .codeBlock(info)
        }
      default: break
      }
    }
    let separator = Self.separatorText
    if nodes.contains(where: { if case .inlineHTML(separator) = $0.kind { true } else { false } }) {
      nodes = removingLeaves(nodes) { if case .inlineHTML(separator) = $0.kind { true } else { false } }
    }
    let marked = MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
    return StreamHealer.Healed(
      document: droppingOpenLineNewline(marked, incompleteLastLine: incompleteLastLine, applied: &applied))
  }

  /// Whether the healed text `source` may hold what ``apply(_:source:incompleteLastLine:options:applied:)``
  /// marks or drops beyond an open fence's last newline: a bracket (a link, a reference waiting
  /// for its definition, a footnote reference, a closer the heal wrote), an `&` (an entity may
  /// decode to a bracket) or the separator's control byte. Most heals of a list item, a table row
  /// or a paragraph of words hold none, and skip the walk over the nodes.
  ///
  /// - Complexity: O(n) in the bytes, four byte searches.
  static func mayHoldMarks(_ source: [UInt8]) -> Bool {
    source.withUnsafeBufferPointer { bytes in
      let end = bytes.count
      return bytes.firstOffset(of: ASCII.openBracket, from: 0, to: end) < end
        || bytes.firstOffset(of: ASCII.closeBracket, from: 0, to: end) < end
        || bytes.firstOffset(of: UInt8(ascii: "&"), from: 0, to: end) < end
        || bytes.firstOffset(of: 1, from: 0, to: end) < end
    }
  }

  /// `document` without the newline cmark-gfm adds after the incomplete last line of an open
  /// fenced code block that ends it (``HealRule/openFenceLineNewline``).
  static func droppingOpenLineNewline(
    _ document: MarkdownDocument, incompleteLastLine: Bool, applied: inout AppliedHealRules
  ) -> MarkdownDocument {
    // A code block is a leaf: one that ends the document is its last node.
    let index = document.nodes.count - 1
    guard incompleteLastLine, index >= 0, case .codeBlock(var info) = document.nodes[index].kind, info.isFenced,
      info.code.hasSuffix("\n")
    else { return document }
    var nodes = document.nodes
    info.code.removeLast()
    nodes[index].kind = .codeBlock(info)
    applied.insert(.openFenceLineNewline)
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// Whether `document`, a parse of healed text, would show a closer or separator the heal wrote
  /// after ``apply(_:source:incompleteLastLine:options:applied:)``: the placeholder destination
  /// anywhere but a pending link's own, not removable as a whole closer (`www.)` took `](x-…`
  /// into its address and left `:)` after it: fuzz seed 1420), or the separator's control byte
  /// outside the separator alone (`>*<!D`, `>*a`: the declaration, which the scan ended at the
  /// quote's marker, took it in). Only what `healed`, the text parsed, holds and `received`, the
  /// text before healing, does not counts.
  ///
  /// - Complexity: O(n) in `healed` and `received`, and in the document's text where the heal
  ///   wrote a placeholder or separator.
  static func showsHealMarks(_ document: MarkdownDocument, healed: [UInt8], received: [UInt8]) -> Bool {
    // Without its colon, which the autolink extension trims from an address's end.
    let sentinel = Array(InlineHealScanner.pendingDestination.dropLast())
    let checksSentinel =
      SourceLines.contains(healed, healed.indices, sentinel)
      && !SourceLines.contains(received, received.indices, sentinel)
    let checksSeparator = healed.contains(1) && !received.contains(1)
    guard checksSentinel || checksSeparator else { return false }
    let sentinelString = Self.sentinelText
    let separator = Self.separatorText
    func holds(_ string: String, _ pattern: [UInt8]) -> Bool {
      var copy = string
      return copy.withUTF8 { SourceLines.contains($0, pattern) }
    }
    func shows(_ string: String) -> Bool {
      if checksSeparator && holds(string, [1]) { return true }
      guard checksSentinel, holds(string, sentinel) else { return false }
      return holds(removingPendingClosers(string) ?? string, sentinel)
    }
    for node in document.nodes {
      switch node.kind {
      case .link(let info) where info.destination != sentinelString: if shows(info.destination) { return true }
      case .image(let info) where info.destination != sentinelString: if shows(info.destination) { return true }
      case .text(let string), .code(let string), .htmlBlock(let string): if shows(string) { return true }
      case .inlineHTML(let string) where string != separator: if shows(string) { return true }
      case .codeBlock(let info): if shows(info.code) { return true }
      default: continue
      }
    }
    return false
  }

  /// Whether the link at `index` shows its own address: one text whose destination is it, or it
  /// after `http://` or `mailto:` (what the autolink extension makes).
  static func isAddress(_ nodes: [MarkdownNode], at index: Int, destination: String) -> Bool {
    guard nodes[index].subtreeEnd == index + 2, case .text(let text) = nodes[index + 1].kind else { return false }
    return destination == text || destination == "http://" + text || destination == "mailto:" + text
  }

  /// `nodes` without the leaves `drop` picks (nodes with children are kept), every subtree end
  /// moved to match.
  ///
  /// - Complexity: O(n).
  static func removingLeaves(_ nodes: [MarkdownNode], where drop: (MarkdownNode) -> Bool) -> [MarkdownNode] {
    // `kept[i]`: how many nodes before index `i` stay (for i up to nodes.count).
    var kept = [Int](repeating: 0, count: nodes.count + 1)
    var removed = [Bool](repeating: false, count: nodes.count)
    for index in nodes.indices {
      removed[index] = nodes[index].subtreeEnd == index + 1 && drop(nodes[index])
      kept[index + 1] = kept[index] + (removed[index] ? 0 : 1)
    }
    var result: [MarkdownNode] = []
    result.reserveCapacity(kept[nodes.count])
    for index in nodes.indices where !removed[index] {
      var node = nodes[index]
      node.subtreeEnd = kept[node.subtreeEnd]
      result.append(node)
    }
    return result
  }

  /// `string` without the link closers the scanner wrote (`](x-replykit-pending:)` or
  /// `(x-replykit-pending:)`), or nil when it holds none. They show as text where the parse read
  /// their bracket as text after all (an outer bracket once a link formed inside it, through a
  /// definition or a destination form the scanner does not follow): the display never shows them.
  static func removingPendingClosers(_ string: String) -> String? {
    let sentinel = InlineHealScanner.pendingDestination
    guard containsPendingCloser(string) else { return nil }
    let bytes = Array(string.utf8)
    var out: [UInt8] = []
    var index = 0
    var found = false
    while index < bytes.count {
      if bytes[index] == ASCII.openParenthesis, index + sentinel.count + 1 < bytes.count,
        bytes[(index + 1)..<(index + 1 + sentinel.count)].elementsEqual(sentinel),
        bytes[index + 1 + sentinel.count] == ASCII.closeParenthesis
      {
        if out.last == ASCII.closeBracket { out.removeLast() }
        index += sentinel.count + 2
        found = true
        continue
      }
      out.append(bytes[index])
      index += 1
    }
    return found ? String(decoding: out, as: UTF8.self) : nil
  }

  /// Whether `string` holds `(x-replykit-pending:)`, found by `memchr` for its `(` (most text
  /// holds none, and checking copies nothing).
  static func containsPendingCloser(_ string: String) -> Bool {
    let sentinel = InlineHealScanner.pendingDestination
    var copy = string
    return copy.withUTF8 { buffer in
      var index = buffer.firstOffset(of: ASCII.openParenthesis, from: 0, to: buffer.count)
      while index + sentinel.count + 1 < buffer.count {
        if buffer[index + 1 + sentinel.count] == ASCII.closeParenthesis,
          buffer[(index + 1)..<(index + 1 + sentinel.count)].elementsEqual(sentinel)
        {
          return true
        }
        index = buffer.firstOffset(of: ASCII.openParenthesis, from: index + 1, to: buffer.count)
      }
      return false
    }
  }

  /// Whether `string` holds `[^` (a byte scan: `String.contains(_:)` costs far more per call).
  static func containsFootnoteOpener(_ string: String) -> Bool {
    var copy = string
    return copy.withUTF8 { buffer in
      guard buffer.count > 1 else { return false }
      for index in 1..<buffer.count where buffer[index] == ASCII.caret && buffer[index - 1] == ASCII.openBracket {
        return true
      }
      return false
    }
  }

  /// The first `[^` in `text`, as `firstRange(of: "[^")` finds it (two characters, each the
  /// ASCII one alone), found through its UTF-8 bytes: the generic search costs several times more.
  static func firstFootnoteOpener(in text: Substring) -> Range<String.Index>? {
    let utf8 = text.utf8
    var from = utf8.startIndex
    while let byte = utf8[from...].firstIndex(of: ASCII.openBracket) {
      if let open = String.Index(byte, within: text), text[open] == "[" {
        let caret = text.index(after: open)
        if caret < text.endIndex, text[caret] == "^" { return open..<text.index(after: caret) }
      }
      from = utf8.index(after: byte)
    }
    return nil
  }

  /// `[^label]` left as text means its definition has not arrived: hide it until it does.
  static func hidingFootnoteReferences(_ string: String) -> String {
    var out = ""
    var rest = Substring(string)
    while let open = firstFootnoteOpener(in: rest) {
      out += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      if let close = after.firstIndex(of: "]"), close > after.startIndex,
        !after[..<close].contains(where: { $0 == " " || $0 == "\n" || $0 == "[" })
      {
        rest = after[after.index(after: close)...]
      } else {
        out += "[^"
        rest = after
      }
    }
    return out + rest
  }
}
