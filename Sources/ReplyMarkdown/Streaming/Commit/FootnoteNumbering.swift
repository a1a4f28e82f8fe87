/// Numbers footnote references across the blocks of a stream as the whole reply numbers them: a
/// footnote takes the next number at its first reference, and each reference counts its
/// occurrence.
///
/// A block is parsed on its own, so cmark-gfm numbers its references from 1; this carries the
/// count from block to block.
struct FootnoteNumbering: Sendable {
  private var numbers: [String: Int] = [:]
  private var occurrences: [String: Int] = [:]
  /// Footnote labels that committed blocks show as text, `[^label]`, because they committed
  /// before the label's definition arrived (past the budget of ``MarkdownStream/ReferencePolicy``),
  /// until they are numbered: the order of their first use, and how many times each was shown
  /// (references the whole reply counts).
  private var shownUnresolved: [String: (first: Int, count: Int)] = [:]
  private var shownUnresolvedUses = 0

  /// Notes the footnote labels that `document`, a block committed past the budget, shows as text
  /// (`[^label]` in its text nodes, not in code) and that have no number yet.
  ///
  /// - Complexity: O(n) in the bytes of its text nodes.
  mutating func noteShownUnresolved(in document: MarkdownDocument) {
    for node in document.nodes {
      guard case .text(let text) = node.kind, text.utf8.contains(UInt8(ascii: "^")) else { continue }
      ReferenceLabels.forEachUsed(in: ArraySlice(text.utf8), footnoteLengths: []) { label in
        // Labels are keyed with their caret; references, as definitions write them, without.
        guard label.hasPrefix("^"), label != ReferenceLabels.anyFootnote, case let key = String(label.dropFirst()),
          numbers[key] == nil
        else { return }
        shownUnresolvedUses += 1
        shownUnresolved[key, default: (shownUnresolvedUses, 0)].count += 1
      }
    }
  }

  /// Numbers the labels noted by ``noteShownUnresolved(in:)`` that `defined` holds (keys with
  /// their caret, as ``ReferenceLabels`` makes them), in the order
  /// of their first use: the whole reply numbers a footnote at its first reference, which was in
  /// a committed block, so it comes before those first referenced later (a footnote cited in the
  /// reply's first paragraph, committed past the budget as `[^a]`, then `[^b]` cited, then both
  /// defined: `[^b]` showed as 1 on a terminal whose footnote section, from the whole reply,
  /// lists `[^a]` as 1; a review). Its references shown as text count as occurrences (the next
  /// reference is `fnref-a-2`). A label numbered since its first use, by a block committed after
  /// it, keeps its number. Returns whether a label was numbered.
  ///
  /// - Complexity: O(d log d) in the labels of `defined`.
  mutating func numberShownUnresolved(definedNow defined: Set<String>) -> Bool {
    guard !shownUnresolved.isEmpty else { return false }
    let arrived = defined.compactMap { label -> (key: String, first: Int, count: Int)? in
      guard label.hasPrefix("^"), case let key = String(label.dropFirst()), let shown = shownUnresolved[key] else {
        return nil
      }
      return (key, shown.first, shown.count)
    }
    var numbered = false
    for label in arrived.sorted(by: { $0.first < $1.first }) {
      shownUnresolved[label.key] = nil
      guard numbers[label.key] == nil else { continue }
      numbers[label.key] = numbers.count + 1
      occurrences[label.key] = (occurrences[label.key] ?? 0) + label.count
      numbered = true
    }
    return numbered
  }

  /// `document` with its footnote references renumbered after every earlier block, and this
  /// numbering advanced past them.
  mutating func renumber(_ document: MarkdownDocument) -> MarkdownDocument {
    Self.numbering(document) { key in
      let number = numbers[key] ?? (numbers.count + 1)
      numbers[key] = number
      let occurrence = (occurrences[key] ?? 0) + 1
      occurrences[key] = occurrence
      return (number, occurrence)
    }
  }

  /// Labels numbered, and references counted, past this numbering by blocks that may still
  /// change (held blocks): kept apart, so that showing them copies nothing of the numbering (a
  /// copy per update was quadratic in a reply citing thousands of footnotes: a trial).
  struct Overlay: Sendable {
    fileprivate var added: [String: Int] = [:]
    fileprivate var counted: [String: Int] = [:]
  }

  /// `document` numbered after this numbering and `overlay`, which it advances (this numbering
  /// is left as it is).
  ///
  /// - Complexity: O(n) in the nodes of `document`.
  func number(_ document: MarkdownDocument, overlay: inout Overlay) -> MarkdownDocument {
    Self.numbering(document) { key in
      let number: Int
      if let known = numbers[key] ?? overlay.added[key] {
        number = known
      } else {
        number = numbers.count + overlay.added.count + 1
        overlay.added[key] = number
      }
      let occurrence = (overlay.counted[key] ?? occurrences[key] ?? 0) + 1
      overlay.counted[key] = occurrence
      return (number, occurrence)
    }
  }

  /// `document` numbered as the next block after `overlay` would be, nothing advanced (the tail,
  /// which is tentative).
  ///
  /// - Complexity: O(n) in the nodes of `document`: what it numbers anew is kept apart, and
  ///   neither this numbering nor `overlay` is copied.
  func numbered(_ document: MarkdownDocument, after overlay: Overlay) -> MarkdownDocument {
    guard FootnoteNumbering.hasReferences(document) else { return document }
    // Numbers: this numbering, then the overlay, then the tail's own.
    var local = Overlay()
    return Self.numbering(document) { key in
      let number: Int
      if let known = numbers[key] ?? overlay.added[key] ?? local.added[key] {
        number = known
      } else {
        number = numbers.count + overlay.added.count + local.added.count + 1
        local.added[key] = number
      }
      let occurrence = (local.counted[key] ?? overlay.counted[key] ?? occurrences[key] ?? 0) + 1
      local.counted[key] = occurrence
      return (number, occurrence)
    }
  }

  /// `document` with each footnote reference given the number and occurrence `assign` gives its
  /// label's key, in document order.
  private static func numbering(
    _ document: MarkdownDocument, _ assign: (String) -> (number: Int, occurrence: Int)
  ) -> MarkdownDocument {
    var nodes = document.nodes
    var changed = false
    for index in nodes.indices {
      guard case .footnoteReference(var reference) = nodes[index].kind else { continue }
      let (number, occurrence) = assign(ReferenceLabels.normalized(ArraySlice(reference.label.utf8)))
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
