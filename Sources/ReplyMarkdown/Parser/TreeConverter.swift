import CCmarkGFM

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns cmark-gfm's node tree into our flat pre-order node list, iteratively.
struct TreeConverter {
  let types: CmarkBridge.ExtensionTypes
  /// The source, for footnote labels (cmark-gfm offers no getter for a definition's label).
  let source: String

  typealias CNode = OpaquePointer

  func convert(_ root: CNode) -> [MarkdownNode] {
    var nodes: [MarkdownNode] = []
    nodes.reserveCapacity(max(32, source.utf8.count / 12))
    // The open ancestors of the current node form a stack linked through the nodes themselves:
    // while a node is open its `subtreeEnd` holds the index of the open node around it (-1 for
    // the root), and is set to its real value when it closes. No stack to allocate per parse.
    var innermostOpen = -1
    var depth = 0
    var footnoteRefIndices: [Int] = []
    var footnoteDefIndices: [Int] = []
    var footnoteFacts = FootnoteFacts()
    // Links and images are the only nodes whose positions may need searching for: those that do
    // not start where they are written.
    var hasMisplacedLinks = false
    let lines = InlineRanges(source)

    var current: CNode = root
    while true {
      // Enter `current`.
      if cmark_node_get_type(current) == CMARK_NODE_TEXT {
        appendText(current, depth: depth, to: &nodes, lines: lines)
      } else {
        let kind = self.kind(of: current)
        let range: SourceRange?
        if kind.isBlock {
          range = depth > 0 ? Self.range(of: current) : nil
        } else if case .softBreak = kind {
          range = nil  // cmark-gfm gives soft breaks no position.
        } else {
          range = lines.inlineRange(Self.range(of: current))
        }
        switch kind {
        case .link:
          hasMisplacedLinks = hasMisplacedLinks || lines.needsRepair(range, isImage: false, in: source.utf8)
        case .image:
          hasMisplacedLinks = hasMisplacedLinks || lines.needsRepair(range, isImage: true, in: source.utf8)
        case .footnoteReference:
          footnoteRefIndices.append(nodes.count)
          footnoteFacts.referenceIDs.append(FootnoteFacts.renderedReferenceID(current))
        case .footnoteDefinition:
          footnoteDefIndices.append(nodes.count)
          footnoteFacts.definitionReferenceCounts.append(FootnoteFacts.renderedBackreferenceCount(current))
        default: break
        }
        nodes.append(MarkdownNode(kind: kind, subtreeEnd: nodes.count + 1, depth: depth, range: range))
      }
      if let child = cmark_node_first_child(current) {
        nodes[nodes.count - 1].subtreeEnd = innermostOpen
        innermostOpen = nodes.count - 1
        depth += 1
        current = child
        continue
      }
      // `current` is a leaf: move to the next sibling, closing finished ancestors on the way up.
      var node = current
      while true {
        if node == root {
          finish(&nodes, refs: footnoteRefIndices, defs: footnoteDefIndices, facts: footnoteFacts)
          if hasMisplacedLinks { lines.repairLinks(&nodes, source: source) } else { lines.trimOverlaps(&nodes) }
          return nodes
        }
        if let next = cmark_node_next(node) {
          current = next
          break
        }
        guard let parent = cmark_node_parent(node), innermostOpen >= 0 else {
          // Not reached for a tree from cmark-gfm; nodes left open keep the end they were added with.
          while innermostOpen >= 0 {
            let index = innermostOpen
            innermostOpen = nodes[index].subtreeEnd
            nodes[index].subtreeEnd = index + 1
          }
          finish(&nodes, refs: footnoteRefIndices, defs: footnoteDefIndices, facts: footnoteFacts)
          if hasMisplacedLinks { lines.repairLinks(&nodes, source: source) } else { lines.trimOverlaps(&nodes) }
          return nodes
        }
        let index = innermostOpen
        innermostOpen = nodes[index].subtreeEnd
        nodes[index].subtreeEnd = nodes.count
        depth -= 1
        node = parent
      }
    }
  }

  /// Appends the text node `node` at `depth`: dropped when empty (cmark leaves empty text nodes
  /// where it trimmed trailing spaces), merged into the text node before it when that is its
  /// previous sibling (cmark splits text at delimiters), else a node of its own.
  private func appendText(_ node: CNode, depth: Int, to nodes: inout [MarkdownNode], lines: InlineRanges) {
    guard let literal = cmark_node_get_literal(node), literal.pointee != 0 else { return }
    let string = String(cString: literal)
    let last = nodes.count - 1
    if last >= 0, nodes[last].depth == depth, nodes[last].subtreeEnd == nodes.count,
      case .text(var previous) = nodes[last].kind
    {
      // Clearing the node first leaves `previous` uniquely referenced, so appending is amortised
      // O(1), not a copy per node.
      nodes[last].kind = .softBreak
      previous += string
      nodes[last].kind = .text(previous)
      if let range = nodes[last].range, let next = lines.inlineRange(Self.range(of: node)), next.end > range.end {
        nodes[last].range = SourceRange(start: range.start, end: next.end)
      }
      return
    }
    nodes.append(
      MarkdownNode(
        kind: .text(string), subtreeEnd: nodes.count + 1, depth: depth,
        range: lines.inlineRange(Self.range(of: node))))
  }

  /// Fills in footnote labels and reference counts, which are only known once all is read.
  private func finish(_ nodes: inout [MarkdownNode], refs: [Int], defs: [Int], facts: FootnoteFacts) {
    guard !defs.isEmpty || !refs.isEmpty else { return }
    var labels: [String] = []
    var source = self.source
    source.withUTF8 { bytes in
      var lines = LineIndex(bytes)
      for (position, index) in defs.enumerated() {
        guard case .footnoteDefinition(var info) = nodes[index].kind else { continue }
        info.number = position + 1
        info.referenceCount = facts.definitionReferenceCounts[position]
        if let range = nodes[index].range, let start = lines.offset(ofLine: range.start.line) {
          info.label = Self.footnoteLabel(bytes, offset: start + max(range.start.column - 1, 0))
        }
        labels.append(info.label)
        nodes[index].kind = .footnoteDefinition(info)
      }
    }
    for (position, index) in refs.enumerated() {
      guard case .footnoteReference(var info) = nodes[index].kind else { continue }
      if info.number >= 1 && info.number <= labels.count { info.label = labels[info.number - 1] }
      info.occurrence = FootnoteFacts.occurrence(in: facts.referenceIDs[position], label: info.label)
      nodes[index].kind = .footnoteReference(info)
    }
  }

  /// Byte offsets of line starts (after LF, CR or CRLF, as cmark-gfm counts lines), found lazily
  /// up to the highest line asked for.
  private struct LineIndex {
    let bytes: UnsafeBufferPointer<UInt8>
    var starts = [0]
    var scanned = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func offset(ofLine line: Int) -> Int? {
      guard line >= 1 else { return nil }
      while starts.count < line && scanned < bytes.count {
        let byte = bytes[scanned]
        scanned += 1
        if byte == UInt8(ascii: "\n") {
          starts.append(scanned)
        } else if byte == UInt8(ascii: "\r") {
          if scanned < bytes.count && bytes[scanned] == UInt8(ascii: "\n") { scanned += 1 }
          starts.append(scanned)
        }
      }
      return line <= starts.count ? starts[line - 1] : nil
    }
  }

  /// The label of the footnote definition whose content starts at byte `offset`: cmark-gfm puts
  /// that position after `[^label]:`, so the label is found by scanning back to the `[^`.
  private static func footnoteLabel(_ bytes: UnsafeBufferPointer<UInt8>, offset start: Int) -> String {
    var offset = min(start, bytes.count)
    // Scan back to the nearest `]:`, then to the `[^` that opens the label.
    while offset >= 2, !(bytes[offset - 1] == UInt8(ascii: ":") && bytes[offset - 2] == UInt8(ascii: "]")) {
      offset -= 1
    }
    guard offset >= 2 else { return "" }
    let close = offset - 2
    // A label holds no `]`, blank or line break, but may hold `[^` (`[^1[^1]:` defines `1[^1`):
    // it starts after the first `[^` of the run of such bytes before the `]` (block quote markers
    // without a space, `>[^a]:`, may come before it in the run).
    var runStart = close
    while runStart > 0 {
      let byte = bytes[runStart - 1]
      if byte == UInt8(ascii: "]") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
      {
        break
      }
      runStart -= 1
    }
    var opener = runStart
    while opener + 1 < close, !(bytes[opener] == UInt8(ascii: "[") && bytes[opener + 1] == UInt8(ascii: "^")) {
      opener += 1
    }
    guard opener + 1 < close else { return "" }
    let open = opener + 2
    let label = bytes[open..<close]
    // cmark-gfm reads NUL as U+FFFD, also inside labels.
    guard label.contains(0) else { return String(decoding: UnsafeBufferPointer(rebasing: label), as: UTF8.self) }
    return String(decoding: label.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }, as: UTF8.self)
  }

  private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer)
  }

  private static func range(of node: CNode) -> SourceRange {
    SourceRange(
      start: SourcePosition(
        line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node))),
      end: SourcePosition(line: Int(cmark_node_get_end_line(node)), column: Int(cmark_node_get_end_column(node))))
  }

  private func kind(of node: CNode) -> MarkdownNode.Kind {
    let type = cmark_node_get_type(node)
    switch type {
    case CMARK_NODE_DOCUMENT: return .document
    case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
    case CMARK_NODE_LIST:
      let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
      let delimiter: MarkdownNode.ListInfo.Delimiter
      switch cmark_node_get_list_delim(node) {
      case CMARK_PERIOD_DELIM: delimiter = .period
      case CMARK_PAREN_DELIM: delimiter = .paren
      default: delimiter = ordered ? .period : .none
      }
      return .list(
        MarkdownNode.ListInfo(
          type: ordered ? .ordered : .bullet, start: Int(cmark_node_get_list_start(node)),
          delimiter: delimiter, isTight: cmark_node_get_list_tight(node) != 0))
    case CMARK_NODE_ITEM:
      if let typeString = cmark_node_get_type_string(node), strcmp(typeString, "tasklist") == 0 {
        return .item(task: cmark_gfm_extensions_get_tasklist_item_checked(node) ? .checked : .unchecked)
      }
      return .item(task: nil)
    case CMARK_NODE_CODE_BLOCK:
      var fenceLength: Int32 = 0
      var fenceOffset: Int32 = 0
      var fenceCharacter: CChar = 0
      let fenced = cmark_node_get_fenced(node, &fenceLength, &fenceOffset, &fenceCharacter) != 0
      return .codeBlock(
        MarkdownNode.CodeBlockInfo(
          info: Self.string(cmark_node_get_fence_info(node)), code: Self.string(cmark_node_get_literal(node)),
          isFenced: fenced))
    case CMARK_NODE_HTML_BLOCK: return .htmlBlock(Self.string(cmark_node_get_literal(node)))
    case CMARK_NODE_PARAGRAPH: return .paragraph
    case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
    case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
    case CMARK_NODE_FOOTNOTE_DEFINITION:
      return .footnoteDefinition(
        MarkdownNode.FootnoteDefinitionInfo(label: "", number: 0, referenceCount: 0))
    case CMARK_NODE_TEXT: return .text(Self.string(cmark_node_get_literal(node)))
    case CMARK_NODE_SOFTBREAK: return .softBreak
    case CMARK_NODE_LINEBREAK: return .lineBreak
    case CMARK_NODE_CODE: return .code(Self.string(cmark_node_get_literal(node)))
    case CMARK_NODE_HTML_INLINE: return .inlineHTML(Self.string(cmark_node_get_literal(node)))
    case CMARK_NODE_EMPH: return .emphasis
    case CMARK_NODE_STRONG: return .strong
    case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
      let info = MarkdownNode.LinkInfo(
        destination: Self.string(cmark_node_get_url(node)), title: Self.string(cmark_node_get_title(node)))
      return type == CMARK_NODE_LINK ? .link(info) : .image(info)
    case CMARK_NODE_FOOTNOTE_REFERENCE:
      let number = Int(Self.string(cmark_node_get_literal(node))) ?? 0
      return .footnoteReference(MarkdownNode.FootnoteReferenceInfo(number: number, label: "", occurrence: 1))
    case types.table:
      let columns = Int(cmark_gfm_extensions_get_table_columns(node))
      var alignments: [MarkdownNode.TableAlignment] = []
      if let raw = cmark_gfm_extensions_get_table_alignments(node) {
        for column in 0..<columns {
          switch raw[column] {
          case UInt8(ascii: "l"): alignments.append(.left)
          case UInt8(ascii: "c"): alignments.append(.center)
          case UInt8(ascii: "r"): alignments.append(.right)
          default: alignments.append(.none)
          }
        }
      }
      return .table(alignments: alignments)
    case types.tableRow: return .tableRow(isHeader: cmark_gfm_extensions_get_table_row_is_header(node) != 0)
    case types.tableCell: return .tableCell
    case types.strikethrough: return .strikethrough
    default:
      // Custom nodes are never produced by the parser; keep their text, if any, as text.
      return .text(Self.string(cmark_node_get_literal(node)))
    }
  }
}
