/// The state of one terminal rendering pass: a ``MarkdownWalker`` over the blocks, leaf blocks
/// laid out whole (inline content collected into ``StyledText``, then wrapped).
struct ANSIWriter: MarkdownWalker {
  let document: MarkdownDocument
  let nodes: [MarkdownNode]
  let options: ANSIOptions
  /// The theme, or all-plain styles when colour is off (so runs merge and nothing is styled).
  let theme: ANSITheme
  var lines: ANSILineWriter
  /// Reused for paragraphs, so their buffers are allocated once.
  var scratch = StyledText()
  /// Reused for the open inlines of ``collect(_:base:into:open:)``.
  private var openScratch: [OpenInline] = []
  /// Reused for the lines of ``writeWrapped(_:)``.
  private var lineScratch: [LineBreaker.Line] = []
  /// The node after the code block numbered last and its number (``ANSIOptions/numbersCodeBlocks``).
  private var lastCodeBlock: (node: Int, number: Int)?

  /// A writer with no document, for pieces of code (see ``writeCode(_:language:state:)``).
  init(options: ANSIOptions) {
    self.init(document: MarkdownDocument(nodes: [], options: .github), options: options)
  }

  init(document: MarkdownDocument, options: ANSIOptions) {
    self.document = document
    self.nodes = document.nodes
    self.options = options
    self.theme = options.color ? options.theme : Self.plainTheme
    self.lines = ANSILineWriter(
      width: options.width, color: options.color, hyperlinks: options.hyperlinks,
      capacity: document.nodes.count * 24)
  }

  mutating func writeDocument() {
    let document = self.document
    document.walk(&self)
  }

  mutating func writeBlock(_ index: Int) {
    guard index > 0, index < nodes.count else { return }
    let document = self.document
    document.walk(&self, subtree: index)
  }

  func finish() -> String {
    String(decoding: lines.out, as: UTF8.self)
  }

  func splitLines() -> [String] { lines.splitLines() }

  /// Enters a block; leaf blocks are written whole and their inlines skipped.
  mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
    switch nodes[index].kind {
    case .document, .list:
      return .visitChildren
    case .blockQuote:
      let bar = ANSILineWriter.Segment(bytes: Self.quoteBar, style: theme.quoteBar)
      lines.push(.init(first: [bar], rest: [bar], width: 2))
      return .visitChildren
    case .item(let task):
      pushItem(task: task, walk)
      return .visitChildren
    case .footnoteDefinition(let note):
      let label = Array("[\(note.number)]".utf8)
      lines.push(
        .init(
          first: [.init(bytes: label, style: theme.footnote), .init(bytes: [0x20], style: .plain)],
          rest: [.init(bytes: Self.spaces(label.count + 1), style: .plain)], width: label.count + 1))
      return .visitChildren
    case .paragraph:
      var text = scratch
      scratch = StyledText()
      var open = openScratch
      openScratch = []
      collect(index, base: .plain, into: &text, open: &open)
      writeWrapped(text)
      scratch = text
      openScratch = open
    case .heading(let level):
      writeHeading(index, level: level)
    case .codeBlock(let code):
      writeCodeBlock(code, at: index)
    case .htmlBlock(let html):
      for line in HTMLText.blockLines(html) {
        var text = StyledText()
        text.append(line, style: theme.html)
        writeWrapped(text)
      }
    case .thematicBreak:
      let width = lines.contentWidth
      lines.beginLine()
      lines.write(Self.repeated(Self.horizontal, width)[...], style: theme.rule)
      lines.endLine()
    case .table(let alignments):
      var table = ANSITable(alignments: alignments, width: lines.contentWidth)
      for row in children(of: index) {
        table.rows.append(tableCells(row))
        if case .tableRow(true) = nodes[row].kind { table.headerRows += 1 }
      }
      table.write(to: &lines, border: theme.tableBorder, header: theme.tableHeader)
    case .tableRow, .tableCell:
      break
    default:
      break
    }
    return .skipChildren
  }

  mutating func exit(_ index: Int, in walk: MarkdownWalk) {
    let kind = nodes[index].kind
    switch kind {
    case .blockQuote:
      lines.pop()
    case .item, .footnoteDefinition:
      // An empty item or footnote still shows its marker, as HTML shows it.
      if lines.innermostIsUnused {
        lines.beginLine()
        lines.endLine()
      }
      lines.pop()
    default:
      break
    }
    guard kind.isBlock, walk.parent != nil else { return }
    if case .footnoteDefinition = kind {
      lines.requestSeparator(.newline)
    } else {
      lines.requestSeparator(PlainTextWriter.isTight(walk) ? .newline : .blankLine)
    }
  }

  private mutating func pushItem(task: MarkdownNode.TaskState?, _ walk: MarkdownWalk) {
    guard let context = walk.list, context.index == walk.parent else {
      lines.push(.init(first: [], rest: [.init(bytes: Self.spaces(2), style: .plain)], width: 2))
      return
    }
    let list = context.info
    let number = context.itemNumber
    var first: [ANSILineWriter.Segment] = []
    var width = 0
    if list.type == .ordered {
      let marker = Array("\(number)\(list.delimiter == .paren ? ")" : ".")".utf8)
      first.append(.init(bytes: marker, style: theme.listMarker))
      width += marker.count
      if task != nil {
        first.append(.init(bytes: [0x20], style: .plain))
        width += 1
      }
    }
    if let task {
      first.append(
        task == .checked
          ? .init(bytes: PlainTextWriter.checked, style: theme.taskChecked)
          : .init(bytes: PlainTextWriter.unchecked, style: theme.taskUnchecked))
      width += 1
    } else if list.type == .bullet {
      let bullets = PlainTextWriter.bullets
      first.append(.init(bytes: bullets[context.nesting % bullets.count], style: theme.listMarker))
      width += 1
    }
    first.append(.init(bytes: [0x20], style: .plain))
    width += 1
    lines.push(.init(first: first, rest: [.init(bytes: Self.spaces(width), style: .plain)], width: width))
  }

  private func children(of index: Int) -> MarkdownChildren {
    MarkdownChildren(nodes: nodes, parent: index)
  }

  // MARK: Leaf blocks

  /// Wraps styled text to the content width and writes its lines.
  private mutating func writeWrapped(_ text: StyledText) {
    guard !text.isEmpty else { return }
    var broken = lineScratch
    lineScratch = []
    broken.removeAll(keepingCapacity: true)
    let width = lines.contentWidth
    text.bytes.withUnsafeBufferPointer { LineBreaker.wrap($0, width: width, appendingTo: &broken) }
    for line in broken {
      lines.beginLine()
      lines.write(text, line.range)
      lines.endLine()
    }
    lineScratch = broken
  }

  private mutating func writeHeading(_ index: Int, level: Int) {
    let style = level == 1 ? theme.heading1 : level == 2 ? theme.heading2 : theme.heading
    var text = StyledText()
    var open = openScratch
    openScratch = []
    collect(index, base: style, into: &text, open: &open)
    openScratch = open
    guard !text.isEmpty else { return }
    let broken = text.bytes.withUnsafeBufferPointer { LineBreaker.wrap($0, width: lines.contentWidth) }
    var widest = 0
    for line in broken {
      lines.beginLine()
      lines.write(text, line.range)
      lines.endLine()
      widest = max(widest, line.width)
    }
    guard level <= 2, widest > 0 else { return }
    lines.beginLine()
    lines.write(Self.repeated(level == 1 ? Self.doubleHorizontal : Self.horizontal, widest)[...], style: style)
    lines.endLine()
  }

  private mutating func writeCodeBlock(_ code: MarkdownNode.CodeBlockInfo, at index: Int) {
    // Found once: the language is worked out from the info string on each call.
    let language = code.language
    if options.numbersCodeBlocks {
      var label = StyledText()
      if let language { label.append(language + " · ", style: theme.codeLabel) }
      label.append("code \(codeBlockNumber(at: index))", style: theme.codeLabel)
      writeWrapped(label)
    } else if let language {
      var label = StyledText()
      label.append(language, style: theme.codeLabel)
      writeWrapped(label)
    }
    if code.code.isEmpty { return }
    var state = CodeLineState.initial
    // The copy text read in place, where `PlainTextRenderer.copyText(of:)` would copy the code.
    var source = code.code
    source.withUTF8 { bytes in
      let copyText = UnsafeBufferPointer(rebasing: bytes[0..<PlainTextRenderer.copyTextCount(utf8: bytes)])
      writeCode(utf8: copyText, language: language, state: &state)
    }
  }

  /// The number of the code block at node `index`, counted from 1 in node (document) order.
  /// Counts on from the block numbered last, so a whole document costs O(n).
  private mutating func codeBlockNumber(at index: Int) -> Int {
    var (node, number) = lastCodeBlock ?? (0, 0)
    if index < node { (node, number) = (0, 0) }
    for position in node..<index {
      if case .codeBlock = nodes[position].kind { number += 1 }
    }
    // The block at `index` itself.
    number += 1
    lastCodeBlock = (index + 1, number)
    return number
  }

  /// Writes lines of code (without the final line break) in the gutter, highlighted in
  /// `languageName` when colour is on and the highlighter knows it, from `state` (left at the
  /// state after the last line). Streaming writes a long block's settled lines with it.
  mutating func writeCode(_ code: String, language languageName: String?, state: inout CodeLineState) {
    var source = code
    source.withUTF8 { writeCode(utf8: $0, language: languageName, state: &state) }
  }

  /// ``writeCode(_:language:state:)`` for code as UTF-8 bytes.
  private mutating func writeCode(
    utf8 bytes: UnsafeBufferPointer<UInt8>, language languageName: String?, state: inout CodeLineState
  ) {
    let width = lines.contentWidth
    let highlighter = options.highlighter
    // Highlighting only colours: with colour off the output is the same without it.
    let language = options.color ? languageName.flatMap { highlighter.language(info: $0) } : nil
    var buffer: [UInt8] = []
    var runs: [CodeRun] = []
    var lineStart = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
      var end = index
      if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
      buffer.removeAll(keepingCapacity: true)
      runs.removeAll(keepingCapacity: true)
      if let language {
        let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self)
        let highlighted = highlighter.highlight(line, language: language, state: state)
        state = highlighted.state
        appendHighlighted(bytes, lineStart..<end, spans: highlighted.spans, into: &buffer, runs: &runs)
      } else {
        Self.expandTabs(bytes, lineStart..<end, into: &buffer)
      }
      while let last = buffer.last, last == 0x20 { buffer.removeLast() }
      writeCodeLine(buffer, runs: runs, width: width)
      lineStart = index + 1
    }
  }

  /// A run of a highlighted code line: bytes up to `end` (from the previous run's end) in `style`.
  struct CodeRun {
    var end: Int
    var style: ANSIStyle
  }

  /// Copies a code line as ``expandTabs(_:_:into:)`` does, with a run per highlighted span (and
  /// plain runs between them).
  private func appendHighlighted(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, spans: [CodeSpan], into buffer: inout [UInt8],
    runs: inout [CodeRun]
  ) {
    let hasTab = bytes[range].contains(0x09)
    var column = 0
    var position = range.lowerBound
    func copy(upTo end: Int, style: ANSIStyle) {
      guard end > position else { return }
      Self.appendCode(bytes, position..<end, into: &buffer, column: &column, expandingTabs: hasTab)
      position = end
      if let last = runs.last, last.style == style {
        runs[runs.count - 1].end = buffer.count
      } else {
        runs.append(CodeRun(end: buffer.count, style: style))
      }
    }
    let length = range.count
    for span in spans {
      // A highlighter's span is clamped to the line, whatever it says (no overflow on `Int.max`).
      let lower = range.lowerBound + min(max(span.range.lowerBound, 0), length)
      let upper = range.lowerBound + min(max(span.range.upperBound, 0), length)
      guard lower >= position, lower < upper else { continue }
      copy(upTo: lower, style: .plain)
      copy(upTo: upper, style: ansiStyle(span))
    }
    copy(upTo: range.upperBound, style: .plain)
  }

  /// The terminal style of a span: its colour at the options' depth (none for normal text, which
  /// keeps the terminal's colour), bold, italic, underline and strikethrough; never a background.
  private func ansiStyle(_ span: CodeSpan) -> ANSIStyle {
    let style = span.style
    var result = ANSIStyle.plain
    if span.kind != .normal, let color = style.foreground {
      result = options.colorDepth.style(red: color.red, green: color.green, blue: color.blue)
    }
    result.bold = style.bold
    result.italic = style.italic
    result.underline = style.underline
    result.strikethrough = style.strikethrough
    return result
  }

  private mutating func writeCodeLine(_ line: [UInt8], runs: [CodeRun], width: Int) {
    let pieces = line.withUnsafeBufferPointer { LineBreaker.chop($0, width: width - 2) }
    for (position, piece) in pieces.enumerated() {
      lines.beginLine()
      lines.write(position == 0 ? Self.codeGutter : Self.continuation, style: theme.codeGutter)
      if runs.isEmpty {
        lines.write(line[piece.range], style: theme.codeBlock)
      } else {
        var start = piece.range.lowerBound
        for run in runs where run.end > start && start < piece.range.upperBound {
          let end = min(run.end, piece.range.upperBound)
          lines.write(line[start..<end], style: run.style)
          start = end
        }
        if start < piece.range.upperBound { lines.write(line[start..<piece.range.upperBound], style: .plain) }
      }
      lines.endLine()
    }
  }

  /// Copies a line of code with controls made visible and tabs expanded to stops of 4 columns.
  static func expandTabs(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into buffer: inout [UInt8]) {
    var column = 0
    appendCode(bytes, range, into: &buffer, column: &column, expandingTabs: bytes[range].contains(0x09))
  }

  /// Copies part of a line of code with controls made visible; with `expandingTabs`, tabs become
  /// spaces to the next stop of 4 columns, counted from `column` (advanced past the copy).
  static func appendCode(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into buffer: inout [UInt8], column: inout Int,
    expandingTabs: Bool
  ) {
    guard expandingTabs else {
      TerminalSafeText.append(bytes, range, to: &buffer, tab: nil, newline: StyledText.space)
      return
    }
    var segmentStart = range.lowerBound
    for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == 0x09 {
      let before = buffer.count
      TerminalSafeText.append(bytes, segmentStart..<index, to: &buffer, tab: nil, newline: StyledText.space)
      column += buffer[before...].withUnsafeBufferPointer { DisplayWidth.of(utf8: $0) }
      if index < range.upperBound {
        let spaces = 4 - column % 4
        buffer.append(contentsOf: repeatElement(0x20, count: spaces))
        column += spaces
      }
      segmentStart = index + 1
    }
  }

  // MARK: Inlines

  /// An open inline container while collecting: the node, and the style and link inside it;
  /// `inLink`: inside a link's text, where invisible format characters are dropped.
  private typealias OpenInline = (node: Int, style: ANSIStyle, link: Int, inLink: Bool)

  /// Collects the inline content of a block into styled text, iteratively. `open` is a stack
  /// to work in (emptied first), passed in so that its buffer is reused.
  private func collect(_ block: Int, base: ANSIStyle, into text: inout StyledText, open: inout [OpenInline]) {
    text.removeAll()
    open.removeAll(keepingCapacity: true)
    open.append((block, base, -1, false))
    var pendingSpace: ANSIStyle? = nil
    var index = block + 1
    let end = nodes[block].subtreeEnd

    func appendText(_ string: String, _ style: ANSIStyle, _ link: Int, text: inout StyledText, inLink: Bool = false) {
      let string = inLink ? InvisibleFormat.droppedFromText(string) : string
      guard !string.isEmpty else { return }
      if let space = pendingSpace {
        pendingSpace = nil
        if !(text.endsWithWideCharacter && (string.unicodeScalars.first.map(DisplayWidth.isWide) ?? false)) {
          text.appendSpace(style: space)
        }
      }
      text.append(string, style: style, link: link)
    }

    // Through a buffer pointer, reading a node's fields does not copy the node.
    let allNodes = nodes
    allNodes.withUnsafeBufferPointer { nodes in
      while index < end {
        while open.count > 1, let top = open.last, nodes[top.node].subtreeEnd <= index {
          open.removeLast()
          closeInline(top.node, text: &text, outer: open[open.count - 1].style)
        }
        let (_, style, link, inLink) = open[open.count - 1]
        // Text first (most nodes), read in place.
        if let (string, isCode) = Self.inlineString(nodes[index]) {
          appendText(string, isCode ? style.merging(theme.inlineCode) : style, link, text: &text, inLink: inLink)
          index += 1
          continue
        }
        let subtreeEnd = nodes[index].subtreeEnd
        var inner: (ANSIStyle, Int)? = nil
        var opensLink = false
        switch nodes[index].kind {
        case .text(let string):
          appendText(string, style, link, text: &text, inLink: inLink)
        case .code(let code):
          appendText(code, style.merging(theme.inlineCode), link, text: &text, inLink: inLink)
        case .softBreak:
          pendingSpace = style
        case .lineBreak:
          pendingSpace = nil
          text.appendLineBreak()
        case .inlineHTML(let html):
          if HTMLText.isLineBreak(html) {
            pendingSpace = nil
            text.appendLineBreak()
          }
        case .emphasis: inner = (style.merging(theme.emphasis), link)
        case .strong: inner = (style.merging(theme.strong), link)
        case .strikethrough: inner = (style.merging(theme.strikethrough), link)
        case .link(let info):
          // OSC 8 follows the HTML URL policy: a dangerous target is shown as text, never linked.
          let target = !info.isPending && hyperlinked(info.destination) ? text.addLink(info.destination) : -1
          inner = (style.merging(theme.link), target)
          opensLink = true
        case .image(let info):
          let alt = InvisibleFormat.droppedFromText(MarkdownDocument.inlineText(of: index, in: allNodes))
          let url = InvisibleFormat.shownInURL(LinkText.displayedURL(info.destination))
          appendText(
            alt.isEmpty ? url : alt, alt.isEmpty ? style.merging(theme.url) : style.merging(theme.image), link,
            text: &text)
          if !alt.isEmpty && !url.isEmpty {
            text.append(" (", style: style, link: link)
            text.append(url, style: style.merging(theme.url), link: link)
            text.append(")", style: style, link: link)
          }
          index = subtreeEnd
          continue
        case .footnoteReference(let reference):
          appendText("[\(reference.number)]", style.merging(theme.footnote), link, text: &text)
        default:
          break
        }
        if let inner, subtreeEnd > index + 1 {
          open.append((index, inner.0, inner.1, inLink || opensLink))
        } else if inner != nil {
          closeInline(index, text: &text, outer: style)
        }
        index += 1
      }
    }
    while open.count > 1, let top = open.popLast() {
      closeInline(top.node, text: &text, outer: open[open.count - 1].style)
    }
  }

  /// The string of a text node or code span (`isCode`), or nil for other nodes. Borrows the
  /// node, where a `switch` over the kind of an array element would copy the whole node.
  @inline(__always)
  private static func inlineString(_ node: borrowing MarkdownNode) -> (String, isCode: Bool)? {
    switch node.kind {
    case .text(let string): return (string, false)
    case .code(let code): return (code, true)
    default: return nil
    }
  }

  /// The cells of the table row `row`, styled as the table shows them (a header row in the
  /// header style).
  func tableCells(_ row: Int) -> [StyledText] {
    var isHeader = false
    if case .tableRow(let header) = nodes[row].kind { isHeader = header }
    var cells: [StyledText] = []
    var count = 0
    for _ in children(of: row) { count += 1 }
    cells.reserveCapacity(count)
    // Collected in one buffer, then copied out at their exact size.
    var text = StyledText()
    var open: [OpenInline] = []
    for cell in children(of: row) {
      collect(cell, base: isHeader ? theme.tableHeader : .plain, into: &text, open: &open)
      cells.append(StyledText(copying: text))
    }
    return cells
  }

  /// Whether a link to `destination` is an OSC 8 hyperlink: hyperlinks are on, the URL has a
  /// scheme, HTML output would keep it (``URLSafety``: no `javascript:`, `file:`, `data:text/html`),
  /// and it is at most ``maximumHyperlinkBytes`` long.
  private func hyperlinked(_ destination: String) -> Bool {
    options.hyperlinks && destination.utf8.count <= Self.maximumHyperlinkBytes && LinkText.hasScheme(destination)
      && !URLSafety.isDangerous(destination)
  }

  /// The longest URL made a hyperlink (2,048 bytes); a longer one shows after its text, as without
  /// hyperlinks. A hyperlink repeats its URL on every line its text wraps to, so a 100 KB
  /// autolink made 250 MB of output at 40 columns; terminals drop URLs this long anyway.
  static let maximumHyperlinkBytes = 2048

  /// After a link's text, without hyperlinks: ` (url)` when the URL adds something.
  private func closeInline(_ index: Int, text: inout StyledText, outer: ANSIStyle) {
    // A pending link's destination has not arrived: its text alone.
    guard case .link(let info) = nodes[index].kind, !info.isPending else { return }
    if hyperlinked(info.destination) { return }
    let label = MarkdownDocument.inlineText(of: index, in: nodes)
    guard
      !LinkText.urlAddsNothing(text: label, destination: info.destination) || InvisibleFormat.contains(label)
        || InvisibleFormat.containsHiddenInURL(info.destination)
    else { return }
    text.append(" (", style: outer)
    text.append(InvisibleFormat.shownInURL(LinkText.displayedURL(info.destination)), style: outer.merging(theme.url))
    text.append(")", style: outer)
  }

  // MARK: Constants

  static func spaces(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x20, count: count) }

  static func repeated(_ piece: [UInt8], _ count: Int) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(piece.count * max(count, 0))
    for _ in 0..<max(count, 0) { result.append(contentsOf: piece) }
    return result
  }

  static let quoteBar: [UInt8] = Array("┃ ".utf8)
  static let codeGutter: StaticString = "│ "
  static let continuation: StaticString = "↪ "
  static let horizontal: [UInt8] = Array("─".utf8)
  static let doubleHorizontal: [UInt8] = Array("═".utf8)

  static let plainTheme = ANSITheme(
    heading1: .plain, heading2: .plain, heading: .plain, emphasis: .plain, strong: .plain, strikethrough: .plain,
    inlineCode: .plain, codeBlock: .plain, codeLabel: .plain, codeGutter: .plain, link: .plain, url: .plain,
    image: .plain, quoteBar: .plain, listMarker: .plain, taskChecked: .plain, taskUnchecked: .plain,
    tableBorder: .plain, tableHeader: .plain, rule: .plain, footnote: .plain, html: .plain)
}
