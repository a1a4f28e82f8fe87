extension MarkdownDocument {
  /// What ``treeDescription(of:options:)`` adds to each line.
  public struct TreeDescriptionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    /// Creates options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Append each node's source range as `@line:column-line:column` (1-based, UTF-8 byte columns,
    /// end inclusive); nodes without a range get none.
    public static let sourceRanges = TreeDescriptionOptions(rawValue: 1 << 0)
  }

  /// How many levels a tree description draws; deeper lines are drawn at this level, with their
  /// depth written out, so a description stays linear in the size of any document.
  public static let maximumDescribedDepth = 64

  /// A dump of the subtree at `index`, one node per line with its payload, drawn as a tree: the
  /// expected value of golden tests of the AST.
  ///
  /// ```text
  /// Document
  /// ├─ Heading level: 1
  /// │  └─ Text "Title"
  /// └─ Paragraph
  ///    ├─ Text "A "
  ///    └─ Link destination: "https://example.com"
  ///       └─ Text "link"
  /// ```
  ///
  /// Strings are quoted and escaped as Swift literals, so every line is one line.
  ///
  /// - Precondition: `index` is a valid node index, or 0 in the empty document (whose description
  ///   is empty).
  /// - Complexity: O(k) in the nodes of the subtree and the length of their payloads; no
  ///   recursion. Nodes deeper than ``maximumDescribedDepth`` below `index` are drawn at that depth.
  public func treeDescription(of index: Int = 0, options: TreeDescriptionOptions = []) -> String {
    if nodes.isEmpty && index == 0 { return "" }
    var out = ""
    var prefix = ""
    var prefixLengths: [Int] = []
    let rootDepth = nodes[index].depth
    let maximum = Self.maximumDescribedDepth
    var walk = MarkdownWalk(self, subtree: index)
    while let event = walk.next() {
      switch event {
      case .enter(let node):
        let level = nodes[node].depth - rootDepth
        if !out.isEmpty { out += "\n" }
        let isLast = walk.parent.map { nodes[node].subtreeEnd == nodes[$0].subtreeEnd } ?? true
        if level > 0 {
          out += prefix
          out += level > maximum ? "┆  [depth \(level)] " : isLast ? "└─ " : "├─ "
        }
        out += Self.describe(nodes[node].kind)
        if options.contains(.sourceRanges), let range = nodes[node].range {
          out += " @\(range.start.line):\(range.start.column)-\(range.end.line):\(range.end.column)"
        }
        if level > 0 && level < maximum && nodes[node].subtreeEnd > node + 1 {
          prefixLengths.append(prefix.utf8.count)
          prefix += isLast ? "   " : "│  "
        }
      case .exit(let node):
        let level = nodes[node].depth - rootDepth
        if level > 0 && level < maximum && nodes[node].subtreeEnd > node + 1, let length = prefixLengths.popLast() {
          prefix = String(prefix.utf8.prefix(length)) ?? ""
        }
      }
    }
    return out
  }

  /// One line of a tree description: the kind's name and payload.
  private static func describe(_ kind: MarkdownNode.Kind) -> String {
    func quoted(_ string: String) -> String { String(reflecting: string) }
    switch kind {
    case .document: return "Document"
    case .blockQuote: return "BlockQuote"
    case .list(let list):
      let numbering =
        list.type == .ordered ? "ordered start: \(list.start) delimiter: \(list.delimiter.rawValue)" : "bullet"
      return "List \(numbering) \(list.isTight ? "tight" : "loose")"
    case .item(let task): return task.map { "Item task: \($0.rawValue)" } ?? "Item"
    case .codeBlock(let code):
      return "CodeBlock info: \(quoted(code.info)) \(code.isFenced ? "fenced" : "indented") code: \(quoted(code.code))"
    case .htmlBlock(let html): return "HTMLBlock \(quoted(html))"
    case .paragraph: return "Paragraph"
    case .heading(let level): return "Heading level: \(level)"
    case .thematicBreak: return "ThematicBreak"
    case .table(let alignments): return "Table alignments: [\(alignments.map(\.rawValue).joined(separator: ", "))]"
    case .tableRow(let isHeader): return isHeader ? "TableRow header" : "TableRow"
    case .tableCell: return "TableCell"
    case .footnoteDefinition(let note):
      return "FootnoteDefinition label: \(quoted(note.label)) number: \(note.number) references: \(note.referenceCount)"
    case .text(let text): return "Text \(quoted(text))"
    case .softBreak: return "SoftBreak"
    case .lineBreak: return "LineBreak"
    case .code(let code): return "InlineCode \(quoted(code))"
    case .inlineHTML(let html): return "InlineHTML \(quoted(html))"
    case .emphasis: return "Emphasis"
    case .strong: return "Strong"
    case .strikethrough: return "Strikethrough"
    case .link(let link): return "Link" + describe(link)
    case .image(let image): return "Image" + describe(image)
    case .footnoteReference(let reference):
      return
        "FootnoteReference label: \(quoted(reference.label)) number: \(reference.number) occurrence: \(reference.occurrence)"
    }
  }

  private static func describe(_ link: MarkdownNode.LinkInfo) -> String {
    let title = link.title.isEmpty ? "" : " title: \(String(reflecting: link.title))"
    return " destination: \(String(reflecting: link.destination))\(title)"
  }
}
