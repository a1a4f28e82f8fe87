/// The HTML output form of the stream consumer: one byte buffer — committed blocks, held blocks,
/// the open long block's head and settled parts, the open remainder — and the lowest byte an
/// update changed (for ``MarkdownStreamHTMLRenderer/Edit``).
struct HTMLStreamOutput: StreamConsumerOutput {
  static var piecesFollowHeld: Bool { true }

  let renderer: HTMLRenderer
  private(set) var bytes: [UInt8] = []
  /// Where the held blocks start.
  private(set) var committedLength = 0
  private(set) var rewroteCommitted = false
  /// Where the head and settled parts start.
  private var heldLength = 0
  /// Where the open remainder starts.
  private var settledLength = 0
  /// The lowest byte changed since ``startUpdate()``.
  private(set) var low = 0
  /// The HTML of the held blocks, kept for when they are listed again or commit unchanged.
  private var heldHTML = HeldRenderCache<[UInt8]>()
  /// The language of the open code block, when the renderer highlights it.
  private var codeLanguage: CodeLanguage?
  /// The highlighting state after the settled code lines: each settled line is highlighted once,
  /// the open lines from this state every update (provisional, never kept).
  private var codeState = CodeLineState.initial
  /// The open remainder shown, when it is still whole at the end of ``bytes``: the serial of its
  /// tail, and where the text of its last node ends (`nil`: that node is no text). A tail that
  /// continues it (``MarkdownStreamTail/extends``) only adds its text there.
  private var shownOpen: (serial: Int, textEnd: Int?)?

  /// How many held blocks were rendered so far (a held block listed again unchanged is not).
  var heldBlocksRendered: Int { heldHTML.renders }

  init(renderer: HTMLRenderer) {
    self.renderer = renderer
  }

  private mutating func truncate(_ length: Int) {
    if length < bytes.count {
      bytes.removeSubrange(length...)
      shownOpen = nil
    }
    low = min(low, length)
  }

  mutating func startUpdate() { low = bytes.count }

  mutating func commit(_ blocks: [MarkdownStreamBlock]) {
    truncate(committedLength)
    for block in blocks {
      if let html = heldHTML.take(id: block.id, document: block.document, after: true) {
        bytes.append(contentsOf: html)
      } else {
        renderer.append(block.document, to: &bytes)
      }
    }
    committedLength = bytes.count
    heldLength = bytes.count
    settledLength = bytes.count
  }

  /// The edit keeps the committed HTML when the replacement starts with it (as it does but where
  /// ``rewroteCommitted`` says otherwise): a consumer that wrote it need not write it again.
  mutating func replaceAll(with document: MarkdownDocument, committing blocks: [MarkdownStreamBlock]) {
    var replacement: [UInt8] = []
    renderer.append(document, to: &replacement)
    let keepsCommitted = replacement.starts(with: bytes[..<committedLength])
    if !keepsCommitted { rewroteCommitted = true }
    truncate(keepsCommitted ? committedLength : 0)
    heldHTML.removeAll()
    bytes = replacement
    shownOpen = nil
    committedLength = bytes.count
    heldLength = bytes.count
    settledLength = bytes.count
  }

  mutating func dropHeld() {
    truncate(committedLength)
    heldLength = committedLength
    settledLength = committedLength
  }

  mutating func hold(_ blocks: [MarkdownStreamHeldBlock]) {
    truncate(heldLength)
    let renderer = renderer
    for block in blocks {
      bytes.append(
        contentsOf: heldHTML.rendering(id: block.id, document: block.document, after: true) {
          var html: [UInt8] = []
          renderer.append(block.document, to: &html)
          return html
        })
    }
    heldLength = bytes.count
    settledLength = bytes.count
  }

  func rendersInPieces(_ container: MarkdownStreamTail.Container) -> Bool { true }

  mutating func beginPieces(_ container: MarkdownStreamTail.Container?, tight: Bool) {
    // Without pieces the open remainder follows the held blocks; ``showOpen(_:)`` replaces it,
    // or adds to it.
    if container != nil || settledLength != heldLength { truncate(heldLength) }
    switch container {
    case nil:
      break
    case .codeBlock(let head):
      codeLanguage = nil
      codeState = .initial
      if let highlighter = renderer.highlighter,
        let info = head.nodes.lazy.compactMap({ node -> MarkdownNode.CodeBlockInfo? in
          if case .codeBlock(let info) = node.kind { return info }
          return nil
        }).first
      {
        codeLanguage = info.language.flatMap { highlighter.language(info: $0) }
      }
      // The head without its closing tags: the code follows.
      var html: [UInt8] = []
      renderer.append(head, to: &html)
      let suffix = Self.codeBlockEnd
      if html.count >= suffix.count && html[(html.count - suffix.count)...].elementsEqual(suffix) {
        html.removeLast(suffix.count)
      }
      bytes.append(contentsOf: html)
    case .list(let info):
      if info.type == .bullet {
        bytes.append(contentsOf: "<ul>\n".utf8)
      } else if info.start != 1 {
        bytes.append(contentsOf: "<ol start=\"\(info.start)\">\n".utf8)
      } else {
        bytes.append(contentsOf: "<ol>\n".utf8)
      }
    case .table(let head):
      var html: [UInt8] = []
      renderer.append(head, to: &html)
      if let end = Self.lastRange(of: Self.headEnd, in: html) {
        bytes.append(contentsOf: html[..<end.upperBound])
      }
    }
    settledLength = container == nil ? heldLength : bytes.count
  }

  mutating func appendPart(
    _ part: MarkdownStreamSettledPart, position: Int, container: MarkdownStreamTail.Container, tight: Bool
  ) {
    truncate(settledLength)
    switch container {
    case .codeBlock:
      if case .codeBlock(let info) = part.document.nodes[part.node].kind {
        codeState = writeCode(info.code, document: part.document, from: codeState)
      }
    case .list:
      writeItems(part.document, items: [part.node], list: part.parent, tight: tight)
    case .table:
      if position == 0 { bytes.append(contentsOf: "<tbody>\n".utf8) }
      bytes.append(contentsOf: bodyRows(part.document, table: part.node))
    }
    settledLength = bytes.count
  }

  mutating func showOpen(_ open: StreamOpenPart?) {
    if let open, open.tail.extends != 0, let shown = shownOpen, shown.serial == open.tail.extends,
      let textEnd = shown.textEnd, !renderer.options.contains(.sourcePositions)
    {
      // The tail shown, with more text in its last node: escaping is byte by byte, and the
      // closing tags after that text do not change.
      var added: [UInt8] = []
      Self.appendHTMLEscaped(open.tail.appendedText, to: &added)
      bytes.insert(contentsOf: added, at: textEnd)
      low = min(low, textEnd)
      shownOpen = (open.tail.serial, textEnd + added.count)
      return
    }
    truncate(settledLength)
    shownOpen = nil
    guard let open else { return }
    let document = open.tail.remainder
    guard let container = open.tail.container else {
      var textEnd: Int?
      renderer.append(document, to: &bytes, lastTextEnd: &textEnd)
      shownOpen = (open.tail.serial, textEnd)
      return
    }
    if case .codeBlock = container, document.nodes.count == 2, case .codeBlock(let info) = document.nodes[1].kind {
      // The commonest open part of all, a fence's open line, without listing blocks. Unless
      // highlighted, code is escaped byte by byte as text is: code that continues the line
      // (``MarkdownStreamTail/extends``) goes where this code ends.
      writeCode(info.code, document: document, from: codeState)
      if codeLanguage == nil || renderer.highlighter == nil { shownOpen = (open.tail.serial, bytes.count) }
      bytes.append(contentsOf: Self.codeBlockEnd)
      return
    }
    let blocks = Array(document.topLevelBlocks)
    var rest = blocks[...]
    switch container {
    case .codeBlock:
      if let first = blocks.first, case .codeBlock(let info) = document.nodes[first].kind {
        writeCode(info.code, document: document, from: codeState)
        rest = rest.dropFirst()
      }
      bytes.append(contentsOf: Self.codeBlockEnd)
    case .list(let info):
      if let first = blocks.first, case .list = document.nodes[first].kind {
        let textEnd = writeItems(document, items: Array(document.children(of: first)), list: first, tight: open.tight)
        rest = rest.dropFirst()
        // The open item's words may grow in place, as a paragraph's (below).
        if rest.isEmpty { shownOpen = (open.tail.serial, textEnd) }
      }
      bytes.append(contentsOf: (info.type == .bullet ? "</ul>\n" : "</ol>\n").utf8)
    case .table:
      var rows: [UInt8] = []
      var textEnd: Int?
      if let first = blocks.first, case .table = document.nodes[first].kind {
        (rows, textEnd) = bodyRowsAndTextEnd(document, table: first)
        rest = rest.dropFirst()
      }
      if open.settled.isEmpty && !rows.isEmpty { bytes.append(contentsOf: "<tbody>\n".utf8) }
      // The open row's last cell may grow in place, as a paragraph's words (above).
      if rest.isEmpty, let textEnd { shownOpen = (open.tail.serial, bytes.count + textEnd) }
      bytes.append(contentsOf: rows)
      if !open.settled.isEmpty || !rows.isEmpty { bytes.append(contentsOf: "</tbody>\n".utf8) }
      bytes.append(contentsOf: "</table>\n".utf8)
    }
    if !rest.isEmpty { renderer.append(document, topLevelBlocks: rest, to: &bytes) }
  }

  // MARK: Pieces

  /// Writes lines of the open code block, highlighted from `state` when the renderer highlights
  /// its language, else escaped; returns the state after them.
  @discardableResult
  private mutating func writeCode(_ code: String, document: MarkdownDocument, from state: CodeLineState)
    -> CodeLineState
  {
    guard let language = codeLanguage, let highlighter = renderer.highlighter else {
      Self.appendHTMLEscaped(code, to: &bytes)
      return state
    }
    var writer = HTMLWriter(document: document, options: renderer.options, highlighter: highlighter)
    let after = writer.writeHighlighted(code, language: language, highlighter: highlighter, from: state)
    writer.out.withBytes { bytes.append(contentsOf: $0) }
    return after
  }

  /// Appends `text` to `bytes` escaped as ``ByteWriter/writeHTMLEscaped(_:)`` escapes it, without
  /// a buffer of its own: an open code line is escaped on every update.
  static func appendHTMLEscaped(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { source in
      bytes.reserveCapacity(bytes.count + source.count)
      ByteWriter.forEachHTMLEscapedPiece(source) { bytes.append(contentsOf: $0) }
    }
  }

  static let codeBlockEnd = Array("</code></pre>\n".utf8)
  static let headEnd = Array("</thead>\n".utf8)

  /// Writes `items` of the list `list` as the list's items, with its tightness set to `tight`.
  /// Returns where in ``bytes`` the text of the document's last node ends, when the items hold
  /// it and it is text.
  @discardableResult
  private mutating func writeItems(_ document: MarkdownDocument, items: [Int], list: Int, tight: Bool) -> Int? {
    var nodes = document.nodes
    if case .list(var info) = nodes[list].kind, info.isTight != tight {
      info.isTight = tight
      nodes[list].kind = .list(info)
    }
    let adjusted = MarkdownDocument(nodes: nodes, options: document.options)
    var writer = HTMLWriter(document: adjusted, options: renderer.options, highlighter: renderer.highlighter)
    for item in items { writer.walk(from: item, to: nodes[item].subtreeEnd, parents: [0, list]) }
    let textEnd = writer.lastTextEnd.map { bytes.count + $0 }
    bytes.append(contentsOf: writer.out.bytes())
    return textEnd
  }

  /// The body rows of the table at `table` in `document`, as the whole table renders them.
  private func bodyRows(_ document: MarkdownDocument, table: Int) -> [UInt8] {
    bodyRowsAndTextEnd(document, table: table).html
  }

  /// ``bodyRows(_:table:)``, and where in them the output of the last text node ends.
  private func bodyRowsAndTextEnd(_ document: MarkdownDocument, table: Int) -> (html: [UInt8], textEnd: Int?) {
    // The rows after the header, walked inside the table's open body: what the whole table
    // renders between `<tbody>` and `</tbody>` (its head, rendered again on every update, cost a
    // table's open row more than the row).
    guard let first = document.children(of: table).dropFirst().first(where: { _ in true }) else { return ([], nil) }
    var writer = HTMLWriter(document: document, options: renderer.options, highlighter: renderer.highlighter)
    writer.needsClosingTableBody = true
    writer.walk(from: first, to: document.nodes[table].subtreeEnd, parents: [0, table])
    var html = writer.out.bytes()
    if html.last != ASCII.newline { html.append(ASCII.newline) }
    return (html, writer.lastTextEnd)
  }

  private static func matches(_ needle: [UInt8], in haystack: [UInt8], at index: Int) -> Bool {
    guard haystack[index] == needle[0] else { return false }
    for offset in 1..<needle.count where haystack[index + offset] != needle[offset] { return false }
    return true
  }

  static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    for index in stride(from: haystack.count - needle.count, through: 0, by: -1)
    where matches(needle, in: haystack, at: index) {
      return index..<(index + needle.count)
    }
    return nil
  }
}
