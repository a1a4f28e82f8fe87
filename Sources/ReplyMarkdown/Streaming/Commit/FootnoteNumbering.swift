/// Numbers footnote references across the blocks of a stream as the whole reply numbers them: a
/// footnote takes the next number at its first reference, and each reference counts its
/// occurrence.
///
/// A block is parsed on its own, so cmark-gfm numbers its references from 1; this carries the
/// count from block to block.
struct FootnoteNumbering: Sendable {
  private var numbers: [String: Int] = [:]
  private var occurrences: [String: Int] = [:]

  /// `document` with its footnote references renumbered after every earlier block, and this
  /// numbering advanced past them.
  mutating func renumber(_ document: MarkdownDocument) -> MarkdownDocument {
    var nodes = document.nodes
    var changed = false
    for index in nodes.indices {
      guard case .footnoteReference(var reference) = nodes[index].kind else { continue }
      let key = ReferenceLabels.normalized(ArraySlice(reference.label.utf8))
      let number = numbers[key] ?? (numbers.count + 1)
      numbers[key] = number
      let occurrence = (occurrences[key] ?? 0) + 1
      occurrences[key] = occurrence
      if reference.number != number || reference.occurrence != occurrence {
        reference.number = number
        reference.occurrence = occurrence
        nodes[index].kind = .footnoteReference(reference)
        changed = true
      }
    }
    return changed ? MarkdownDocument(nodes: nodes, options: document.options) : document
  }

  /// Whether `document` holds a footnote reference.
  static func hasReferences(_ document: MarkdownDocument) -> Bool {
    document.nodes.contains { if case .footnoteReference = $0.kind { true } else { false } }
  }
}
