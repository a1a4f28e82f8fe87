/// The state of one plain-text rendering pass: a ``MarkdownWalker`` with a stack of line prefixes
/// (quote markers, list markers, hanging indents).
struct PlainTextWriter: MarkdownWalker {
  /// What separates the next block from the previous one.
  enum Separator { case none, newline, blankLine }

  /// A container's line prefix: `first` on its first line, `rest` after.
  struct Prefix {
    var first: [UInt8]
    var rest: [UInt8]
    var firstUsed = false
  }

  let document: MarkdownDocument
  let nodes: [MarkdownNode]
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
    self.document = document
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

  /// Walks the whole document.
  mutating func writeDocument() {
    let document = self.document
    document.walk(&self)
  }

  /// Walks the subtree of the node at `index`.
  mutating func writeBlock(_ index: Int) {
    let document = self.document
    document.walk(&self, subtree: index)
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
    // Nothing written yet: the line a block before opened holds nothing (a table whose header
    // shows only omitted raw HTML), so the next line still starts with its prefixes (a review:
    // `<b>|`, `-|`, a blank and `- x` wrote `x` before its bullet).
    guard !out.isEmpty else {
      atLineStart = true
      return
    }
    // Nothing shown yet but spaces the line's end trims (a paragraph of a code span of spaces):
    // no blank line leads the text (fuzz seed 1341: `` ``` ``` ``, a blank, `a` started with two).
    if !lineIsCode && !out.contains(where: { $0 != UInt8(ascii: " ") }) {
      out.removeAll(keepingCapacity: true)
      atLineStart = true
      return
    }
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
  ///
  /// A soft break before anything shown on a line shows nothing; with `dropsLeadingSpaces`, nor
  /// does text of spaces only that would start a line: a paragraph of inline HTML and the spaces
  /// and line ends between its tags (`<b> <i>`, the tags omitted) writes no line, as a raw HTML
  /// block writes none, rather than an empty line with blank lines around it.
  mutating func writeInline(_ text: String, dropsLeadingSpaces: Bool = false) {
    guard !text.isEmpty else { return }
    if atLineStart || pending != .none {
      if dropsLeadingSpaces && text.utf8.allSatisfy({ $0 == UInt8(ascii: " ") }) { return }
      pendingSoftBreak = false
    }
    ensureLine()
    if pendingSoftBreak {
      pendingSoftBreak = false
      if !(lastScalarIsWide() && (text.unicodeScalars.first.map(DisplayWidth.isWide) ?? false)) {
        out.append(UInt8(ascii: " "))
      }
    }
    var text = text
    text.withUTF8 { bytes in
      var lineStart = 0
      var newline = bytes.firstOffset(of: UInt8(ascii: "\n"), from: 0, to: bytes.count)
      while newline < bytes.count {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]))
        hardBreak()
        ensureLine()
        lineStart = newline + 1
        newline = bytes.firstOffset(of: UInt8(ascii: "\n"), from: lineStart, to: bytes.count)
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart...]))
    }
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

  /// Enters a node; an image is written whole, its alt text skipped.
  mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
    switch nodes[index].kind {
    case .document, .paragraph, .heading, .thematicBreak, .emphasis, .strong, .strikethrough, .link, .list:
      break
    case .blockQuote:
      prefixes.append(Prefix(first: Self.quotePrefix, rest: Self.quotePrefix))
    case .item(let task):
      guard let context = walk.list, context.index == walk.parent else {
        prefixes.append(Prefix(first: [], rest: []))
        break
      }
      let list = context.info
      var marker: [UInt8] = []
      let number = context.itemNumber
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
        marker.append(contentsOf: bullets[context.nesting % bullets.count])
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
    case .text(let text):
      writeInline(text, dropsLeadingSpaces: true)
    case .code(let text):
      writeInline(text)
    case .softBreak:
      pendingSoftBreak = true
    case .lineBreak:
      hardBreak()
    case .inlineHTML(let html):
      if HTMLText.isLineBreak(html) { hardBreak() }
    case .image(let link):
      let alt = MarkdownDocument.inlineText(of: index, in: nodes)
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
      return .skipChildren
    case .footnoteReference(let reference):
      writeInline("[\(reference.number)]")
    }
    return .visitChildren
  }

  mutating func exit(_ index: Int, in walk: MarkdownWalk) {
    switch nodes[index].kind {
    case .blockQuote:
      prefixes.removeLast()
    case .item, .footnoteDefinition:
      // An empty item or footnote still shows its marker, as HTML shows it.
      if prefixes.count <= PlainTextRenderer.maximumIndentationDepth, let last = prefixes.last, !last.firstUsed {
        ensureLine()
        trimTrailingSpaces()
      }
      prefixes.removeLast()
    case .tableCell:
      inTableCell = false
    case .link(let link) where !link.isPending:
      let text = MarkdownDocument.inlineText(of: index, in: nodes)
      if !LinkText.urlAddsNothing(text: text, destination: link.destination) {
        writeInline(" (")
        out.append(contentsOf: LinkText.displayedURL(link.destination).utf8)
        out.append(UInt8(ascii: ")"))
      }
    default:
      break
    }
    guard nodes[index].kind.isBlock else { return }
    // A soft break that nothing followed (its line held only omitted raw HTML) ends with its
    // block: it must not put a space before the next one.
    pendingSoftBreak = false
    guard walk.parent != nil else { return }
    switch nodes[index].kind {
    case .tableRow, .tableCell: return
    case .footnoteDefinition: requestSeparator(.newline)
    default: requestSeparator(Self.isTight(walk) ? .newline : .blankLine)
    }
  }

  /// Writes code lines verbatim; empty lines carry only the trimmed prefix.
  private mutating func writeCode(_ code: String) {
    guard !code.isEmpty else { return }
    var code = code
    code.withUTF8 { bytes in
      var lineStart = 0
      while lineStart <= bytes.count {
        let lineEnd = bytes.firstOffset(of: UInt8(ascii: "\n"), from: lineStart, to: bytes.count)
        if lineStart > 0 { newline() }
        ensureLine()
        if lineEnd == lineStart {
          trimTrailingSpaces()
        } else {
          out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
          lineIsCode = true
        }
        lineStart = lineEnd + 1
      }
    }
  }

  /// Whether the blocks inside the current node's parent are separated by a newline only: inside
  /// a tight list and its items. Shared with the terminal renderer.
  static func isTight(_ walk: MarkdownWalk) -> Bool {
    guard let parent = walk.parent else { return false }
    switch walk.document.nodes[parent].kind {
    case .list(let list): return list.isTight
    case .item: return walk.list?.isTight ?? false
    default: return false
    }
  }

  static let quotePrefix: [UInt8] = Array("> ".utf8)
  static let bullets: [[UInt8]] = [Array("•".utf8), Array("◦".utf8), Array("▪".utf8)]
  static let checked: [UInt8] = Array("☑".utf8)
  static let unchecked: [UInt8] = Array("☐".utf8)
}
