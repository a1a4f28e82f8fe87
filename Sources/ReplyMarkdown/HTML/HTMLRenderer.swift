/// Renders a ``MarkdownDocument`` as HTML, byte-identical to cmark-gfm's `cmark_render_html` with
/// the same options and the parser's extensions.
///
/// Safe by default: raw HTML is replaced by `<!-- raw HTML omitted -->` and `javascript:`,
/// `vbscript:`, `file:` and non-image `data:` URLs are dropped, unless ``Options/unsafe`` is set.
///
/// - Complexity: O(n) in the size of the document and its output; no recursion, so any depth
///   renders on any stack.
public struct HTMLRenderer: Sendable {
  /// HTML rendering options, named after cmark-gfm's render options.
  public struct Options: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32
    /// Creates options from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Render raw HTML and dangerous URLs as written (`CMARK_OPT_UNSAFE`). Never for untrusted input.
    public static let unsafe = Options(rawValue: 1 << 0)
    /// Render soft breaks as `<br />` (`CMARK_OPT_HARDBREAKS`).
    public static let hardBreaks = Options(rawValue: 1 << 1)
    /// Render soft breaks as spaces (`CMARK_OPT_NOBREAKS`).
    public static let noBreaks = Options(rawValue: 1 << 2)
    /// Add `data-sourcepos` attributes to blocks (`CMARK_OPT_SOURCEPOS`).
    public static let sourcePositions = Options(rawValue: 1 << 3)
    /// Use `<pre lang="x">` for code languages (`CMARK_OPT_GITHUB_PRE_LANG`).
    public static let githubPreLang = Options(rawValue: 1 << 4)
    /// Put the info string after the language in `data-meta` (`CMARK_OPT_FULL_INFO_STRING`).
    public static let fullInfoString = Options(rawValue: 1 << 5)
    /// Align table cells with `style` rather than `align` (`CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES`).
    public static let tablePreferStyleAttributes = Options(rawValue: 1 << 6)
  }

  /// The rendering options.
  public var options: Options
  /// Highlights code blocks whose language it knows: their code is written in
  /// `<span class="hl-…">` elements named by ``CodeTokenKind/cssClass`` (style them with
  /// ``CodeTheme/stylesheet(scope:)``). Nil, the default, writes code as cmark-gfm does.
  public var highlighter: (any CodeHighlighter)?

  /// Creates a renderer; the default is the safe rendering, byte-identical to cmark-gfm.
  public init(options: Options = [], highlighter: (any CodeHighlighter)? = nil) {
    self.options = options
    self.highlighter = highlighter
  }

  /// Renders the whole document.
  public func render(_ document: MarkdownDocument) -> String {
    var writer = HTMLWriter(document: document, options: options, highlighter: highlighter)
    writer.writeDocument()
    return writer.out.string()
  }

  /// Renders the whole document and hands the UTF-8 output to `body` without building a `String`
  /// (for writing straight to a file or socket). The buffer is only valid inside `body`.
  public func withRenderedUTF8<R>(_ document: MarkdownDocument, _ body: (UnsafeBufferPointer<UInt8>) throws -> R)
    rethrows -> R
  {
    var writer = HTMLWriter(document: document, options: options, highlighter: highlighter)
    writer.writeDocument()
    return try writer.out.withBytes(body)
  }

  /// Renders the top-level blocks at the given node indices (children of the root), in order, as
  /// they render inside the whole document, without the footnote section's closing tags.
  ///
  /// Used by streaming, which renders committed blocks one at a time.
  public func render(_ document: MarkdownDocument, topLevelBlock index: Int) -> String {
    var writer = HTMLWriter(document: document, options: options, highlighter: highlighter)
    document.walk(&writer, subtree: index)
    return writer.out.string()
  }

  /// Appends to `bytes` what ``render(_:)`` returns for `document`, or with `topLevelBlock`
  /// what ``render(_:topLevelBlock:)`` returns, as UTF-8, without building a `String` (the
  /// stream consumers append a rendering per update).
  func append(_ document: MarkdownDocument, topLevelBlock index: Int? = nil, to bytes: inout [UInt8]) {
    var lastTextEnd: Int?
    append(document, topLevelBlock: index, to: &bytes, lastTextEnd: &lastTextEnd)
  }

  /// The top-level blocks `indices` of `document`, in order, as one rendering: a footnote section
  /// their footnote definitions open is closed after the last, as the document's end closes it.
  /// (A stream's open part after its long block was written block by block: each footnote
  /// definition opened a section of its own that nothing closed, `<section><ol><li>…</li>` in
  /// the display: a review.)
  func append(_ document: MarkdownDocument, topLevelBlocks indices: some Sequence<Int>, to bytes: inout [UInt8]) {
    var writer = HTMLWriter(document: document, options: options, highlighter: highlighter)
    for index in indices { document.walk(&writer, subtree: index) }
    writer.closeFootnoteSection()
    writer.out.withBytes { bytes.append(contentsOf: $0) }
  }

  /// ``append(_:topLevelBlock:to:)``, noting where in `bytes` the text of the document's last node
  /// ends when that node is text (`nil` otherwise): what follows it there are the closing tags of
  /// its ancestors, which more text in that node does not change.
  func append(
    _ document: MarkdownDocument, topLevelBlock index: Int? = nil, to bytes: inout [UInt8], lastTextEnd: inout Int?
  ) {
    var writer = HTMLWriter(document: document, options: options, highlighter: highlighter)
    if let index { document.walk(&writer, subtree: index) } else { writer.writeDocument() }
    lastTextEnd = writer.lastTextEnd.map { bytes.count + $0 }
    writer.out.withBytes { bytes.append(contentsOf: $0) }
  }
}

/// The state of one HTML rendering pass: a ``MarkdownWalker`` writing each node's tags as the walk
/// enters and exits it.
struct HTMLWriter: MarkdownWalker, ~Copyable {
  let document: MarkdownDocument
  let nodes: [MarkdownNode]
  let options: HTMLRenderer.Options
  let highlighter: (any CodeHighlighter)?
  let tagFilter: Bool
  var out: ByteWriter
  var footnoteIndex = 0
  var writtenFootnoteIndex = 0
  var inTableHeader = false
  var needsClosingTableBody = false
  var cellIndex = 0
  /// Where in ``out`` the text of the document's last node ends, when that node is text.
  var lastTextEnd: Int?

  init(document: MarkdownDocument, options: HTMLRenderer.Options, highlighter: (any CodeHighlighter)? = nil) {
    self.document = document
    self.nodes = document.nodes
    self.options = options
    self.highlighter = highlighter
    self.tagFilter = document.options.contains(.tagFilter)
    self.out = ByteWriter(capacity: document.nodes.count * 32)
  }

  mutating func writeDocument() {
    let document = self.document
    document.walk(&self)
  }

  /// Walks the consecutive siblings `start..<end`, whose open ancestors are `parents`.
  mutating func walk(from start: Int, to end: Int, parents: [Int]) {
    var walk = MarkdownWalk(document, from: start, to: end, ancestors: parents)
    MarkdownDocument.drive(&walk, &self)
  }

  private mutating func sourcePos(_ index: Int) {
    guard options.contains(.sourcePositions), let range = nodes[index].range else { return }
    out.write(" data-sourcepos=\"")
    out.write(range.start.line)
    out.write(byte: UInt8(ascii: ":"))
    out.write(range.start.column)
    out.write(byte: UInt8(ascii: "-"))
    out.write(range.end.line)
    out.write(byte: UInt8(ascii: ":"))
    out.write(range.end.column)
    out.write(byte: UInt8(ascii: "\""))
  }

  private func isTightParagraph(_ walk: MarkdownWalk) -> Bool {
    let stack = walk.ancestors
    guard stack.count >= 2, case .list(let list) = nodes[stack[stack.count - 2]].kind else { return false }
    return list.isTight
  }

  mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
    switch nodes[index].kind {
    case .document: break
    case .blockQuote:
      out.newlineIfNeeded()
      out.write("<blockquote")
      sourcePos(index)
      out.write(">\n")
    case .list(let list):
      out.newlineIfNeeded()
      if list.type == .bullet {
        out.write("<ul")
        sourcePos(index)
        out.write(">\n")
      } else {
        out.write("<ol")
        sourcePos(index)
        if list.start != 1 {
          out.write(" start=\"")
          out.write(list.start)
          out.write("\"")
        }
        out.write(">\n")
      }
    case .item(let task):
      out.newlineIfNeeded()
      out.write("<li")
      sourcePos(index)
      out.write(">")
      switch task {
      case .checked?: out.write("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> ")
      case .unchecked?: out.write("<input type=\"checkbox\" disabled=\"\" /> ")
      case nil: break
      }
    case .codeBlock(let code):
      writeCodeBlock(index, code)
    case .htmlBlock(let html):
      out.newlineIfNeeded()
      if !options.contains(.unsafe) {
        out.write("<!-- raw HTML omitted -->")
      } else if tagFilter {
        writeFilteredHTML(html)
      } else {
        out.write(string: html)
      }
      out.newlineIfNeeded()
    case .paragraph:
      if !isTightParagraph(walk) {
        out.newlineIfNeeded()
        out.write("<p")
        sourcePos(index)
        out.write(">")
      }
    case .heading(let level):
      out.newlineIfNeeded()
      out.write("<h")
      out.write(level)
      sourcePos(index)
      out.write(">")
    case .thematicBreak:
      out.newlineIfNeeded()
      out.write("<hr")
      sourcePos(index)
      out.write(" />\n")
    case .table:
      out.newlineIfNeeded()
      out.write("<table")
      sourcePos(index)
      out.write(">")
      needsClosingTableBody = false
    case .tableRow(let isHeader):
      out.newlineIfNeeded()
      if isHeader {
        inTableHeader = true
        out.write("<thead>")
        out.newlineIfNeeded()
      } else if !needsClosingTableBody {
        out.write("<tbody>")
        out.newlineIfNeeded()
        needsClosingTableBody = true
      }
      out.write("<tr")
      sourcePos(index)
      out.write(">")
      cellIndex = 0
    case .tableCell:
      out.newlineIfNeeded()
      out.write(inTableHeader ? "<th" : "<td")
      if walk.ancestors.count >= 2, case .table(let alignments) = nodes[walk.ancestors[walk.ancestors.count - 2]].kind,
        cellIndex < alignments.count
      {
        switch alignments[cellIndex] {
        case .left: writeAlign("left")
        case .center: writeAlign("center")
        case .right: writeAlign("right")
        case .none: break
        }
      }
      cellIndex += 1
      sourcePos(index)
      out.write(">")
    case .footnoteDefinition(let note):
      if footnoteIndex == 0 { out.write("<section class=\"footnotes\" data-footnotes>\n<ol>\n") }
      footnoteIndex += 1
      out.write("<li id=\"fn-")
      out.writeHrefEscaped(note.label)
      out.write("\">\n")
    case .text(let text):
      out.writeHTMLEscaped(text)
      if index == nodes.count - 1 { lastTextEnd = out.count }
    case .softBreak:
      if options.contains(.hardBreaks) {
        out.write("<br />\n")
      } else if options.contains(.noBreaks) {
        out.write(" ")
      } else {
        out.write("\n")
      }
    case .lineBreak:
      out.write("<br />\n")
    case .code(let code):
      out.write("<code>")
      out.writeHTMLEscaped(code)
      out.write("</code>")
    case .inlineHTML(let html):
      if !options.contains(.unsafe) {
        out.write("<!-- raw HTML omitted -->")
      } else if tagFilter && HTMLTagFilter.isFiltered(html.utf8) {
        out.write("&lt;")
        var html = html
        html.withUTF8 { out.write(UnsafeBufferPointer(rebasing: $0.dropFirst())) }
      } else {
        out.write(string: html)
      }
    case .emphasis: out.write("<em>")
    case .strong: out.write("<strong>")
    case .strikethrough: out.write("<del>")
    case .link(let link) where link.isPending:
      // Not clickable, and the partial URL never shown (a streaming display only).
      out.write("<a data-pending=\"\">")
    case .link(let link):
      out.write("<a href=\"")
      if options.contains(.unsafe) || !URLSafety.isDangerous(link.destination) {
        out.writeHrefEscaped(link.destination)
      }
      if !link.title.isEmpty {
        out.write("\" title=\"")
        out.writeHTMLEscaped(link.title)
      }
      out.write("\">")
    case .image(let link):
      writeImage(index, link: link)
      return .skipChildren
    case .footnoteReference(let ref):
      out.write("<sup class=\"footnote-ref\"><a href=\"#fn-")
      out.writeHrefEscaped(ref.label)
      out.write("\" id=\"fnref-")
      out.writeHrefEscaped(ref.label)
      if ref.occurrence > 1 {
        out.write("-")
        out.write(ref.occurrence)
      }
      out.write("\" data-footnote-ref>")
      out.write(ref.number)
      out.write("</a></sup>")
    }
    return .visitChildren
  }

  mutating func exit(_ index: Int, in walk: MarkdownWalk) {
    switch nodes[index].kind {
    case .document:
      closeFootnoteSection()
    case .blockQuote:
      out.newlineIfNeeded()
      out.write("</blockquote>\n")
    case .list(let list):
      out.newlineIfNeeded()
      out.write(list.type == .bullet ? "</ul>\n" : "</ol>\n")
    case .item:
      out.write("</li>\n")
    case .paragraph:
      if !isTightParagraph(walk) {
        if let parent = walk.parent, case .footnoteDefinition(let note) = nodes[parent].kind,
          nodes[index].subtreeEnd == nodes[parent].subtreeEnd
        {
          out.write(" ")
          writeFootnoteBackref(note)
        }
        out.write("</p>\n")
      }
    case .heading(let level):
      out.write("</h")
      out.write(level)
      out.write(">\n")
    case .table:
      if needsClosingTableBody {
        out.newlineIfNeeded()
        out.write("</tbody>")
        out.newlineIfNeeded()
      }
      needsClosingTableBody = false
      out.newlineIfNeeded()
      out.write("</table>")
      out.newlineIfNeeded()
    case .tableRow(let isHeader):
      out.newlineIfNeeded()
      out.write("</tr>")
      if isHeader {
        out.newlineIfNeeded()
        out.write("</thead>")
        inTableHeader = false
      }
    case .tableCell:
      out.write(inTableHeader ? "</th>" : "</td>")
    case .footnoteDefinition(let note):
      if writeFootnoteBackref(note) { out.write("\n") }
      out.write("</li>\n")
    case .emphasis: out.write("</em>")
    case .strong: out.write("</strong>")
    case .strikethrough: out.write("</del>")
    case .link: out.write("</a>")
    default: break
    }
  }

  private mutating func writeAlign(_ alignment: StaticString) {
    if options.contains(.tablePreferStyleAttributes) {
      out.write(" style=\"text-align: ")
      out.write(alignment)
      out.write("\"")
    } else {
      out.write(" align=\"")
      out.write(alignment)
      out.write("\"")
    }
  }

  /// Ends the footnote section, when a footnote definition opened one.
  mutating func closeFootnoteSection() {
    if footnoteIndex > 0 { out.write("</ol>\n</section>\n") }
  }

  @discardableResult
  private mutating func writeFootnoteBackref(_ note: MarkdownNode.FootnoteDefinitionInfo) -> Bool {
    guard writtenFootnoteIndex < footnoteIndex else { return false }
    writtenFootnoteIndex = footnoteIndex
    out.write("<a href=\"#fnref-")
    out.writeHrefEscaped(note.label)
    out.write("\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩</a>")
    if note.referenceCount > 1 {
      for occurrence in 2...note.referenceCount {
        out.write(" <a href=\"#fnref-")
        out.writeHrefEscaped(note.label)
        out.write("-")
        out.write(occurrence)
        out.write(
          "\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩<sup class=\"footnote-ref\">"
        )
        out.write(occurrence)
        out.write("</sup></a>")
      }
    }
    return true
  }

  private mutating func writeCodeBlock(_ index: Int, _ code: MarkdownNode.CodeBlockInfo) {
    out.newlineIfNeeded()
    let info = code.info.utf8
    if info.isEmpty {
      out.write("<pre")
      sourcePos(index)
      out.write("><code>")
    } else {
      let firstWordEnd = info.firstIndex(where: ASCII.isCmarkSpace) ?? info.endIndex
      let language = String(info[info.startIndex..<firstWordEnd]) ?? ""
      let rest: String? =
        firstWordEnd < info.endIndex && options.contains(.fullInfoString)
        ? String(info[info.index(after: firstWordEnd)...]) : nil
      out.write("<pre")
      sourcePos(index)
      out.write(options.contains(.githubPreLang) ? " lang=\"" : "><code class=\"language-")
      out.writeHTMLEscaped(language)
      if let rest {
        out.write("\" data-meta=\"")
        out.writeHTMLEscaped(rest)
      }
      out.write(options.contains(.githubPreLang) ? "\"><code>" : "\">")
    }
    if let highlighter, let language = code.language.flatMap({ highlighter.language(info: $0) }) {
      writeHighlighted(code.code, language: language, highlighter: highlighter)
    } else {
      out.writeHTMLEscaped(code.code)
    }
    out.write("</code></pre>\n")
  }

  /// Writes code line by line, each highlighted span of a kind other than normal in a
  /// `<span class="hl-…">`; line breaks stay outside the spans. The first line is highlighted
  /// from `state`; returns the state the last line leaves. Code split at line ends and written
  /// piece by piece, each from the state the piece before left, comes out as written whole.
  @discardableResult
  mutating func writeHighlighted(
    _ code: String, language: CodeLanguage, highlighter: any CodeHighlighter, from state: CodeLineState = .initial
  ) -> CodeLineState {
    var state = state
    let lines = code.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (number, line) in lines.enumerated() {
      if number > 0 { out.write(byte: 0x0A) }
      var bytes = Array(line)
      var carriageReturn = false
      if bytes.last == 0x0D {
        bytes.removeLast()
        carriageReturn = true
      }
      // An empty line is highlighted too: it ends a highlighter's quote, continued string or
      // preprocessor line. What follows the last line break is no line.
      if !bytes.isEmpty || (number < lines.count - 1) {
        let highlighted = highlighter.highlight(
          String(decoding: bytes, as: UTF8.self), language: language, state: state)
        state = highlighted.state
        bytes.withUnsafeBufferPointer { buffer in
          var position = 0
          for span in highlighted.spans where span.kind != .normal {
            let lower = span.range.lowerBound
            let upper = min(span.range.upperBound, buffer.count)
            guard lower >= position, lower < upper else { continue }
            out.writeHTMLEscaped(UnsafeBufferPointer(rebasing: buffer[position..<lower]))
            out.write("<span class=\"")
            out.write(string: span.kind.cssClass)
            out.write("\">")
            out.writeHTMLEscaped(UnsafeBufferPointer(rebasing: buffer[lower..<upper]))
            out.write("</span>")
            position = upper
          }
          out.writeHTMLEscaped(UnsafeBufferPointer(rebasing: buffer[position...]))
        }
      }
      if carriageReturn { out.write(byte: 0x0D) }
    }
    return state
  }

  /// An image: `<img src alt title />`, its alt being the plain text of its children.
  private mutating func writeImage(_ index: Int, link: MarkdownNode.LinkInfo) {
    out.write("<img src=\"")
    if options.contains(.unsafe) || !URLSafety.isDangerous(link.destination) {
      out.writeHrefEscaped(link.destination)
    }
    out.write("\" alt=\"")
    for child in (index + 1)..<nodes[index].subtreeEnd {
      switch nodes[child].kind {
      case .text(let text), .code(let text), .inlineHTML(let text): out.writeHTMLEscaped(text)
      case .softBreak, .lineBreak: out.write(" ")
      default: break
      }
    }
    out.write("\"")
    if !link.title.isEmpty {
      out.write(" title=\"")
      out.writeHTMLEscaped(link.title)
      out.write("\"")
    }
    out.write(" />")
  }

  private mutating func writeFilteredHTML(_ html: String) {
    let bytes = Array(html.utf8)
    var runStart = 0
    bytes.withUnsafeBufferPointer { buffer in
      for position in 0..<buffer.count where buffer[position] == UInt8(ascii: "<") {
        out.write(UnsafeBufferPointer(rebasing: buffer[runStart..<position]))
        if HTMLTagFilter.isFiltered(bytes[position...]) {
          out.write("&lt;")
        } else {
          out.write(byte: UInt8(ascii: "<"))
        }
        runStart = position + 1
      }
      out.write(UnsafeBufferPointer(rebasing: buffer[runStart...]))
    }
  }
}
