/// A parsed markdown document: a value-type tree of ``MarkdownNode``s built from cmark-gfm's parse.
///
/// The tree is stored flat in pre-order (see ``MarkdownNode``), so a document of any depth — the
/// pathological inputs reach 100,000 levels — is compared, hashed, encoded, decoded, walked and
/// freed without recursion, also on threads with small stacks.
///
/// Parsing is thread-safe: cmark-gfm's inline parser edits process-global state, so every parse in
/// the process is serialised behind one lock; documents themselves are immutable values.
///
/// - Complexity: parsing is what cmark-gfm costs plus O(n) in the number of nodes.
public struct MarkdownDocument: Sendable, Hashable, Codable {
  /// The nodes in pre-order; `nodes[0]` is the ``MarkdownNode/Kind/document`` root.
  public let nodes: [MarkdownNode]
  /// The options the document was parsed with (renderers read `tagFilter` from here).
  public let options: ParseOptions
  /// What ``InputGuard`` changed in the input to keep parsing linear and output bounded; empty for
  /// every input within the ``InputLimits`` the document was parsed with.
  public let diagnostics: [MarkdownDiagnostic]

  /// Parses markdown text.
  ///
  /// Never fails: every string is a markdown document. NUL characters become U+FFFD, as
  /// CommonMark requires. The text first goes through ``InputGuard`` with `limits`: past a limit,
  /// the offending syntax is parsed as literal text and reported in ``diagnostics`` (source lines
  /// still count the input's lines; columns then count the guarded text's bytes).
  ///
  /// - Complexity: O(n) with the default limits; ``InputLimits/unlimited`` gives cmark-gfm's own
  ///   worst cases, some quadratic.
  public init(_ markdown: String, options: ParseOptions = .github, limits: InputLimits = .default) {
    self.init(markdown, options: options, limits: limits, paragraphLead: nil)
  }

  /// Parses markdown text whose paragraph on line `paragraphLead.line` began
  /// `paragraphLead.bytes` bytes before it, which the input guard counts as one-shot parsing
  /// would (see ``GuardScanner/paragraphLead``).
  init(_ markdown: String, options: ParseOptions, limits: InputLimits, paragraphLead: (line: Int, bytes: Int)?) {
    ParseMeter.add(markdown.utf8.count)
    let guarded = InputGuard.apply(markdown, options: options, limits: limits, paragraphLead: paragraphLead)
    var nodes = CmarkBridge.parse(guarded.text, options: options)
    if !guarded.linesBrokenBefore.isEmpty {
      // Lines as the input counts them: a stream finds its block boundaries by them.
      for index in nodes.indices {
        guard var range = nodes[index].range else { continue }
        range.start.line = guarded.inputLine(range.start.line)
        range.end.line = guarded.inputLine(range.end.line)
        nodes[index].range = range
      }
    }
    self.nodes = nodes
    self.options = options
    self.diagnostics = guarded.diagnostics
  }

  /// Parses markdown from UTF-8 bytes; invalid sequences become U+FFFD.
  public init<Bytes: Collection>(
    bytes: Bytes, options: ParseOptions = .github, limits: InputLimits = .default
  ) where Bytes.Element == UInt8 {
    let text =
      bytes.withContiguousStorageIfAvailable { String(decoding: $0, as: UTF8.self) }
      ?? String(decoding: Array(bytes), as: UTF8.self)
    self.init(text, options: options, limits: limits)
  }

  /// Creates a document from nodes made elsewhere (a decoder, a transform).
  ///
  /// - Precondition: `nodes` is a well-formed pre-order tree whose first node is the document.
  public init(nodes: [MarkdownNode], options: ParseOptions, diagnostics: [MarkdownDiagnostic] = []) {
    self.nodes = nodes
    self.options = options
    self.diagnostics = diagnostics
  }

  /// The index of the root node (always 0).
  public var rootIndex: Int { 0 }

  /// The indices of the children of the node at `index`, in order.
  ///
  /// - Complexity: O(1) to create; iterating visits each child once, skipping its subtree in O(1).
  public func children(of index: Int) -> MarkdownChildren {
    MarkdownChildren(nodes: nodes, parent: index)
  }

  /// The indices of the top-level blocks.
  public var topLevelBlocks: MarkdownChildren { children(of: 0) }
}

/// The child indices of one node of a ``MarkdownDocument``.
public struct MarkdownChildren: Sequence, Sendable {
  let nodes: [MarkdownNode]
  let parent: Int

  /// Iterates child indices in order.
  public struct Iterator: IteratorProtocol {
    let nodes: [MarkdownNode]
    var position: Int
    let end: Int

    public mutating func next() -> Int? {
      guard position < end else { return nil }
      defer { position = nodes[position].subtreeEnd }
      return position
    }
  }

  public func makeIterator() -> Iterator {
    guard parent < nodes.count else { return Iterator(nodes: nodes, position: 0, end: 0) }
    return Iterator(nodes: nodes, position: parent + 1, end: nodes[parent].subtreeEnd)
  }
}

extension MarkdownDocument {
  /// Decodes a document encoded by ``encode(to:)``, checking that its nodes form the tree every
  /// reader relies on: the root is the ``MarkdownNode/Kind/document``, each node's subtree ends
  /// after it and within its parent's, each node's depth is its parent's plus one, and its
  /// numbers are in the range a parse gives them (``valueProblem(_:nodeCount:)``). A cached
  /// document that was cut short or edited throws `DecodingError.dataCorrupted` rather than
  /// crashing a renderer later.
  ///
  /// - Complexity: O(n) in the number of nodes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let nodes = try container.decode([MarkdownNode].self, forKey: .nodes)
    if let problem = Self.treeProblem(nodes) {
      throw DecodingError.dataCorruptedError(
        forKey: .nodes, in: container, debugDescription: "not a document tree: \(problem)")
    }
    self.init(
      nodes: nodes, options: try container.decode(ParseOptions.self, forKey: .options),
      diagnostics: try container.decode([MarkdownDiagnostic].self, forKey: .diagnostics))
  }

  /// Why a node's values are out of the range a parse gives them, or nil: an ordered list's start
  /// (at most nine digits), a heading's level (1 to 6), a footnote's number and reference counts
  /// (not negative; a definition referenced no more often than the document has nodes). Renderers
  /// count with them: an edited start of `Int.max` overflowed numbering the next item, and a
  /// reference count of 10^12 wrote back-links until memory ran out.
  static func valueProblem(_ kind: MarkdownNode.Kind, nodeCount: Int) -> String? {
    switch kind {
    case .list(let info) where !(0...999_999_999).contains(info.start):
      return "list start \(info.start) outside 0...999999999"
    case .heading(let level) where !(1...6).contains(level):
      return "heading level \(level) outside 1...6"
    case .footnoteDefinition(let note) where note.number < 0 || !(0...nodeCount).contains(note.referenceCount):
      return "footnote number \(note.number) or reference count \(note.referenceCount) out of range"
    case .footnoteReference(let reference)
    where reference.number < 0 || !(0...nodeCount).contains(reference.occurrence):
      return "footnote reference number \(reference.number) or occurrence \(reference.occurrence) out of range"
    default:
      return nil
    }
  }

  /// Why `nodes` is not a pre-order tree of a document, or nil when it is one (no nodes at all is
  /// the empty document).
  static func treeProblem(_ nodes: [MarkdownNode]) -> String? {
    guard let root = nodes.first else { return nil }
    guard case .document = root.kind else { return "node 0 is not the document" }
    var ends: [Int] = []
    for (index, node) in nodes.enumerated() {
      while ends.last == index { ends.removeLast() }
      let limit = ends.last ?? nodes.count
      guard node.subtreeEnd > index, node.subtreeEnd <= limit else {
        return "node \(index) ends its subtree at \(node.subtreeEnd), outside \(index + 1)...\(limit)"
      }
      guard node.depth == ends.count else { return "node \(index) has depth \(node.depth), not \(ends.count)" }
      if index > 0, case .document = node.kind { return "node \(index) is a second document" }
      if let problem = Self.valueProblem(node.kind, nodeCount: nodes.count) { return "node \(index): \(problem)" }
      ends.append(node.subtreeEnd)
    }
    return nodes[0].subtreeEnd == nodes.count ? nil : "the document ends at \(nodes[0].subtreeEnd), not \(nodes.count)"
  }
}
