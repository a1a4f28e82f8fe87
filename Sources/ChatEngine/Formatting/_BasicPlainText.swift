/// The minimal plain text behind ``ReplyFormatter/basic``; iterative over the flat node array.
enum _BasicPlainText {
  static func codeBlocks(_ document: MarkdownDocument) -> [String] {
    document.nodes.compactMap { node in
      guard case .codeBlock(let info) = node.kind else { return nil }
      return dropFinalNewline(info.code)
    }
  }

  static func render(_ document: MarkdownDocument) -> String {
    let nodes = document.nodes
    var output = ""
    // Open ancestors of the current node: (index, subtreeEnd).
    var ancestors: [(index: Int, end: Int)] = []
    // The tight list that held the previous leaf block, if any.
    var previousTightList: Int?
    var index = 1
    while index < nodes.count {
      while let last = ancestors.last, last.end <= index { ancestors.removeLast() }
      let node = nodes[index]
      guard let text = leafText(nodes, at: index) else {
        if node.kind.isBlock { ancestors.append((index, node.subtreeEnd)) }
        index += 1
        continue
      }
      let list = ancestors.last { if case .list = nodes[$0.index].kind { return true } else { return false } }
      let tightList: Int? = list.flatMap { entry in
        if case .list(let info) = nodes[entry.index].kind, info.isTight { return entry.index }
        return nil
      }
      if !output.isEmpty {
        output += tightList != nil && tightList == previousTightList ? "\n" : "\n\n"
      }
      output += marker(nodes, ancestors: ancestors, leaf: index) + text
      previousTightList = tightList
      index = node.subtreeEnd
    }
    return output
  }

  /// The bullet or number when `leaf` is the first block of a list item.
  private static func marker(_ nodes: [MarkdownNode], ancestors: [(index: Int, end: Int)], leaf: Int) -> String {
    guard let parent = ancestors.last, parent.index + 1 == leaf, case .item(let task) = nodes[parent.index].kind,
      ancestors.count >= 2, case .list(let info) = nodes[ancestors[ancestors.count - 2].index].kind
    else { return "" }
    let box = task.map { $0 == .checked ? "☑ " : "☐ " } ?? ""
    guard info.type == .ordered else { return task == nil ? "• " : box }
    var number = info.start
    var sibling = ancestors[ancestors.count - 2].index + 1
    while sibling < parent.index {
      number += 1
      sibling = nodes[sibling].subtreeEnd
    }
    return "\(number)\(info.delimiter == .paren ? ")" : ".") " + box
  }

  /// The text of a leaf block (paragraph, heading, code, table row), or `nil` for other nodes.
  private static func leafText(_ nodes: [MarkdownNode], at index: Int) -> String? {
    let node = nodes[index]
    switch node.kind {
    case .paragraph, .heading:
      return inlineText(nodes, from: index + 1, to: node.subtreeEnd)
    case .codeBlock(let info):
      return dropFinalNewline(info.code)
    case .tableRow:
      var cells: [String] = []
      var cell = index + 1
      while cell < node.subtreeEnd {
        cells.append(inlineText(nodes, from: cell + 1, to: nodes[cell].subtreeEnd))
        cell = nodes[cell].subtreeEnd
      }
      return cells.joined(separator: "\t")
    default:
      return nil
    }
  }

  private static func inlineText(_ nodes: [MarkdownNode], from start: Int, to end: Int) -> String {
    var text = ""
    for node in nodes[start..<end] {
      switch node.kind {
      case .text(let string), .code(let string): text += string
      case .softBreak: text += " "
      case .lineBreak: text += "\n"
      default: break
      }
    }
    return text
  }

  private static func dropFinalNewline(_ code: String) -> String {
    code.hasSuffix("\n") ? String(code.dropLast()) : code
  }
}
