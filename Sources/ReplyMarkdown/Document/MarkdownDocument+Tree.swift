extension MarkdownDocument {
  /// The index of the parent of the node at `index`, or `nil` for the root.
  ///
  /// The parent is the nearest node before `index` that is one level shallower, found by scanning
  /// back.
  ///
  /// - Precondition: `index` is a valid node index.
  /// - Complexity: O(k), where k is the number of nodes between the parent and `index` (the
  ///   subtrees of the node's earlier siblings). For many look-ups, walk with ``MarkdownWalk``,
  ///   whose ``MarkdownWalk/parent`` is O(1).
  public func parent(of index: Int) -> Int? {
    let depth = nodes[index].depth
    guard depth > 0 else { return nil }
    var candidate = index - 1
    while candidate > 0 && nodes[candidate].depth >= depth { candidate -= 1 }
    return candidate
  }

  /// The indices of the ancestors of the node at `index`, the root first and its parent last;
  /// empty for the root.
  ///
  /// - Precondition: `index` is a valid node index.
  /// - Complexity: O(depth + the siblings passed on the way down from the root), each sibling
  ///   skipped with its subtree in O(1).
  public func ancestors(of index: Int) -> [Int] {
    var ancestors: [Int] = []
    ancestors.reserveCapacity(nodes[index].depth)
    var node = 0
    while node != index {
      ancestors.append(node)
      var child = node + 1
      while nodes[child].subtreeEnd <= index { child = nodes[child].subtreeEnd }
      node = child
    }
    return ancestors
  }

  /// The indices of every descendant of the node at `index`, in document order (its subtree
  /// without itself).
  ///
  /// - Precondition: `index` is a valid node index.
  /// - Complexity: O(1); the range holds the subtree's nodes contiguously.
  public func descendants(of index: Int) -> Range<Int> {
    (index + 1)..<nodes[index].subtreeEnd
  }

  /// The plain text under the node at `index`: the text of a link, a heading, an emphasis, an image's
  /// alt text, a paragraph.
  ///
  /// Text and code spans count as written (escapes and entities decoded), line breaks as one
  /// space, footnote references as `[n]`; markup and raw HTML add nothing. Text in separate blocks is
  /// joined without a separator, so for a block with structure (a list, a quote) the Copy text of
  /// ``PlainTextRenderer`` is what to use. A code block's own text is its code.
  ///
  /// - Precondition: `index` is a valid node index.
  /// - Complexity: O(k) in the nodes of the subtree and the length of the text.
  public func plainText(of index: Int) -> String {
    if case .codeBlock(let code) = nodes[index].kind { return code.code }
    return Self.inlineText(of: index, in: nodes)
  }

  /// The text of the inline descendants of `index` (see ``plainText(of:)``); shared with the
  /// renderers, which have the nodes at hand.
  static func inlineText(of index: Int, in nodes: [MarkdownNode]) -> String {
    var text = ""
    for child in (index + 1)..<nodes[index].subtreeEnd {
      switch nodes[child].kind {
      case .text(let string), .code(let string): text += string
      case .softBreak, .lineBreak: text += " "
      case .footnoteReference(let reference): text += "[\(reference.number)]"
      default: break
      }
    }
    return text
  }
}
