/// The state of one plain-text rendering pass: an iterative walk with an explicit stack of open
/// nodes and a stack of line prefixes (quote markers, list markers, hanging indents).
struct PlainTextWriter {
  /// What separates the next block from the previous one.
  enum Separator { case none, newline, blankLine }

  /// A container's line prefix: `first` on its first line, `rest` after.
  struct Prefix {
    var first: [UInt8]
    var rest: [UInt8]
    var firstUsed = false
  }

  /// An open list: its tightness and the number of its next item.
  struct OpenList {
    var isTight: Bool
    var next: Int
  }

  let nodes: [MarkdownNode]
  var lists: [OpenList] = []
  var out: [UInt8] = []
  var prefixes: [Prefix] = []
  var pending: Separator = .none
  /// How many prefixes the blank line of `pending` carries.
  var pendingDepth = 0
  var atLineStart = true
  var pendingSoftBreak = false
  /// Whether the open line is a line of code, whose trailing spaces are kept.
  var lineIsCode = false
  var inTableCell = false
  var cellCount = 0
  var rowCount = 0

  init(document: MarkdownDocument) {
    self.nodes = document.nodes
    out.reserveCapacity(document.nodes.count * 12)
  }

  mutating func finish() -> String {
    endOutput()
    return String(decoding: out, as: UTF8.self)
  }

  /// Trims the last line when it is prose.
  mutating func endOutput() {
    if !lineIsCode { trimTrailingSpaces() }
  }

  /// Walks nodes `start..<end` in order, entering and exiting each.
  mutating func walk(from start: Int, to end: Int) {
    var stack: [Int] = [0]
    var index = start
    while index < end {
      while stack.count > 1, let top = stack.last, nodes[top].subtreeEnd <= index {
        stack.removeLast()
        exit(top, parent: stack.last)
      }
      if enter(index, parent: stack.last) {
        index = nodes[index].subtreeEnd
        continue
      }
      if nodes[index].subtreeEnd > index + 1 {
        stack.append(index)
      } else {
        exit(index, parent: stack.last)
      }
      index += 1
    }
    while stack.count > 1, let top = stack.popLast() { exit(top, parent: stack.last) }
  }

  // MARK: Lines and prefixes

  /// Starts a content line if none is open: the pending separator, then the prefixes.
  mutating func ensureLine() {
    flushSeparator()
    guard atLineStart else { return }
    atLineStart = false
    let depth = min(prefixes.count, PlainTextRenderer.maximumIndentationDepth)
    for level in 0..<depth {
      if prefixes[level].firstUsed {
        out.append(contentsOf: prefixes[level].rest)
      } else {
        out.append(contentsOf: prefixes[level].first)
        prefixes[level].firstUsed = true
      }
    }
  }

  mutating func flushSeparator() {
    guard pending != .none else { return }
    let separator = pending
    pending = .none
    guard !out.isEmpty else { return }
    newline()
    if separator == .blankLine {
      let depth = min(pendingDepth, prefixes.count, PlainTextRenderer.maximumIndentationDepth)
      for level in 0..<depth {
        out.append(contentsOf: prefixes[level].firstUsed ? prefixes[level].rest : prefixes[level].first)
      }
      trimTrailingSpaces()
      out.append(UInt8(ascii: "\n"))
      atLineStart = true
    }
  }

  /// Ends the open line (trimming trailing spaces on prose lines).
  mutating func newline() {
    if !atLineStart || !out.isEmpty {
      if !lineIsCode { trimTrailingSpaces() }
      out.append(UInt8(ascii: "\n"))
    }
    lineIsCode = false
    atLineStart = true
  }

  mutating func trimTrailingSpaces() {
    while let last = out.last, last == UInt8(ascii: " ") { out.removeLast() }
  }

  mutating func requestSeparator(_ separator: Separator) {
    pending = separator
    pendingDepth = prefixes.count
  }

  // MARK: Inline text

  /// Writes inline text, resolving a pending soft break against its first character.
  mutating func writeInline(_ text: String) {
    guard !text.isEmpty else { return }
    ensureLine()
    if pendingSoftBreak {
      pendingSoftBreak = false
      if !(lastScalarIsWide() && (text.unicodeScalars.first.map(DisplayWidth.isWide) ?? false)) {
        out.append(UInt8(ascii: " "))
      }
    }
    var lineStart = text.utf8.startIndex
    let utf8 = text.utf8
    var index = utf8.startIndex
    while index < utf8.endIndex {
      if utf8[index] == UInt8(ascii: "\n") {
        out.append(contentsOf: utf8[lineStart..<index])
        hardBreak()
        ensureLine()
        lineStart = utf8.index(after: index)
      }
      index = utf8.index(after: index)
    }
    out.append(contentsOf: utf8[lineStart..<utf8.endIndex])
  }

  mutating func hardBreak() {
    pendingSoftBreak = false
    if inTableCell {
      ensureLine()
      out.append(UInt8(ascii: " "))
    } else {
      ensureLine()
      newline()
    }
  }

  private func lastScalarIsWide() -> Bool {
    var index = out.count - 1
    while index > 0 && out[index] & 0xC0 == 0x80 { index -= 1 }
    guard index >= 0 else { return false }
    let scalar = out.withUnsafeBufferPointer { GraphemeScanner.decode($0, at: index).value }
    return DisplayWidth.scalarWidth(scalar) == 2
  }

  // MARK: Nodes

  /// Enters a node; returns true when the node was written whole (its children must be skipped).
  mutating func enter(_ index: Int, parent: Int?) -> Bool {
    switch nodes[index].kind {
    case .document, .paragraph, .heading, .thematicBreak, .emphasis, .strong, .strikethrough, .link:
      break
    case .list(let list):
      lists.append(OpenList(isTight: list.isTight, next: list.start))
    case .blockQuote:
      prefixes.append(Prefix(first: Self.quotePrefix, rest: Self.quotePrefix))
    case .item(let task):
      guard let parent, case .list(let list) = nodes[parent].kind, !lists.isEmpty else {
        prefixes.append(Prefix(first: [], rest: []))
        break
      }
      var marker: [UInt8] = []
      let number = lists[lists.count - 1].next
      lists[lists.count - 1].next += 1
      if list.type == .ordered {
        marker.append(contentsOf: String(number).utf8)
        marker.append(list.delimiter == .paren ? UInt8(ascii: ")") : UInt8(ascii: "."))
        if let task {
          marker.append(UInt8(ascii: " "))
          marker.append(contentsOf: task == .checked ? Self.checked : Self.unchecked)
        }
      } else if let task {
        marker.append(contentsOf: task == .checked ? Self.checked : Self.unchecked)
      } else {
        let bullets = Self.bullets
        marker.append(contentsOf: bullets[(lists.count - 1) % bullets.count])
      }
      let width = marker.withUnsafeBufferPointer { DisplayWidth.of(utf8: $0) }
      marker.append(UInt8(ascii: " "))
      prefixes.append(Prefix(first: marker, rest: [UInt8](repeating: UInt8(ascii: " "), count: width + 1)))
    case .footnoteDefinition(let note):
      let marker = Array("[\(note.number)] ".utf8)
      prefixes.append(Prefix(first: marker, rest: [UInt8](repeating: UInt8(ascii: " "), count: marker.count)))
    case .codeBlock(let code):
      writeCode(PlainTextRenderer.copyText(of: code))
    case .htmlBlock(let html):
      let lines = HTMLText.blockLines(html)
      for (position, line) in lines.enumerated() {
        if position > 0 { newline() }
        writeInline(line)
      }
    case .table:
      rowCount = 0
    case .tableRow:
      if rowCount > 0 { newline() }
      rowCount += 1
      cellCount = 0
      ensureLine()
    case .tableCell:
      if cellCount > 0 {
        ensureLine()
        out.append(UInt8(ascii: "\t"))
      }
      cellCount += 1
      inTableCell = true
    case .text(let text), .code(let text):
      writeInline(text)
    case .softBreak:
      pendingSoftBreak = true
    case .lineBreak:
      hardBreak()
    case .inlineHTML(let html):
      if HTMLText.isLineBreak(html) { hardBreak() }
    case .image(let link):
      let alt = Self.plainText(of: index, in: nodes)
      let url = LinkText.displayedURL(link.destination)
      if alt.isEmpty {
        writeInline(url)
      } else if url.isEmpty {
        writeInline(alt)
      } else {
        writeInline(alt)
        out.append(contentsOf: " (".utf8)
        out.append(contentsOf: url.utf8)
        out.append(UInt8(ascii: ")"))
      }
      return true
    case .footnoteReference(let reference):
      writeInline("[\(reference.number)]")
    }
    return false
  }

  mutating func exit(_ index: Int, parent: Int?) {
    let kind = nodes[index].kind
    switch kind {
    case .blockQuote, .footnoteDefinition:
      prefixes.removeLast()
    case .list:
      lists.removeLast()
    case .item:
      if prefixes.count <= PlainTextRenderer.maximumIndentationDepth, let last = prefixes.last, !last.firstUsed {
        ensureLine()
        trimTrailingSpaces()
      }
      prefixes.removeLast()
    case .tableCell:
      inTableCell = false
    case .link(let link) where !link.isPending:
      let text = Self.plainText(of: index, in: nodes)
      if !LinkText.urlAddsNothing(text: text, destination: link.destination) {
        writeInline(" (")
        out.append(contentsOf: LinkText.displayedURL(link.destination).utf8)
        out.append(UInt8(ascii: ")"))
      }
    default:
      break
    }
    guard kind.isBlock, let parent else { return }
    switch kind {
    case .tableRow, .tableCell: return
    case .footnoteDefinition: requestSeparator(.newline)
    default: requestSeparator(isTight(parent) ? .newline : .blankLine)
    }
  }

  /// Writes code lines verbatim; empty lines carry only the trimmed prefix.
  private mutating func writeCode(_ code: String) {
    guard !code.isEmpty else { return }
    for (position, line) in code.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      if position > 0 { newline() }
      ensureLine()
      if line.isEmpty {
        trimTrailingSpaces()
      } else {
        out.append(contentsOf: line)
        lineIsCode = true
      }
    }
  }

  /// Whether blocks inside `parent` are separated by a newline only (tight lists and their items).
  private func isTight(_ parent: Int) -> Bool {
    switch nodes[parent].kind {
    case .list(let list): return list.isTight
    case .item: return lists.last?.isTight ?? false
    default: return false
    }
  }

  /// The text of a node's inline children: text and code as they are, breaks as spaces, nested
  /// images by their alt text.
  static func plainText(of index: Int, in nodes: [MarkdownNode]) -> String {
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

  static let quotePrefix: [UInt8] = Array("> ".utf8)
  static let bullets: [[UInt8]] = [Array("•".utf8), Array("◦".utf8), Array("▪".utf8)]
  static let checked: [UInt8] = Array("☑".utf8)
  static let unchecked: [UInt8] = Array("☐".utf8)
}
