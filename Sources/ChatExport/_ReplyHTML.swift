import ReplyMarkdown

/// A reply's safe HTML as the page shows it, rewritten tag by tag in one pass:
///
/// - each code block in the page's code frame (the language as a caption, a Copy button hidden
///   until the script runs) and its `<pre>` focusable, so a keyboard can scroll it;
/// - each table in a focusable box that scrolls sideways;
/// - headings demoted by two levels (`<h1>` is `<h3 class="rh1">`), below the page's title and
///   day headings;
/// - every `id` and in-page `href="#…"` scoped to the message (`m-<id>-fn-1`), so the footnotes
///   of two replies never collide;
/// - links whose URL safe rendering dropped (`href=""`) as inert text with the URL shown, and
///   images the page's policy cannot load as a link to the image with its alt text.
///
/// Works on the bytes of ``HTMLRenderer``'s safe output: raw HTML is omitted there and text is
/// escaped, so every `<` starts one of the renderer's own tags, and no `>` or `"` occurs inside
/// an attribute value.
///
/// - Complexity: O(n) in the size of the HTML.
struct _ReplyHTML {
  /// What the rewrite needs to know besides the HTML.
  struct Context {
    /// The message's anchor (`m-<id>`), the prefix of its scoped ids.
    var anchor: String
    /// The destination of each link the safe rendering disarmed, in document order.
    var disarmed: [String]
    var words: _PageWords
    /// The page-wide number of the reply's first code block: its Copy button's `data-code`, the
    /// index of its code in the page's data block.
    var firstCode = 0
  }

  /// The destinations of the links that safe rendering writes with an empty `href` (a dangerous
  /// or an empty URL), in document order, which is the order of their `<a href="">` tags. Not
  /// those inside an image's description, which renders as the `alt` text, without tags (one
  /// counted there gave every later disarmed link the URL of the one before it: a review).
  static func disarmedDestinations(in document: MarkdownDocument) -> [String] {
    var result: [String] = []
    var imageEnd = 0
    for (index, node) in document.nodes.enumerated() {
      if case .image = node.kind { imageEnd = max(imageEnd, node.subtreeEnd) }
      guard index >= imageEnd, case .link(let link) = node.kind, !link.isPending else { continue }
      if link.destination.isEmpty || URLSafety.isDangerous(link.destination) { result.append(link.destination) }
    }
    return result
  }

  /// The page's HTML for `html`, one reply's safe rendering.
  static func rewrite(_ html: String, context: Context) -> String {
    rewriteWithCode(html, context: context).html
  }

  /// The page's HTML for `html`, one reply's safe rendering, and the code of each of its code
  /// blocks in the order of their Copy buttons (`data-code` from `context.firstCode` on), as
  /// written in the reply: the text the code element shows, before the page shows control
  /// characters as symbols.
  static func rewriteWithCode(_ html: String, context: Context) -> (html: String, code: [String]) {
    var rewriter = _ReplyHTML(html: Array(html.utf8), context: context)
    rewriter.run()
    return (String(decoding: rewriter.output, as: UTF8.self), rewriter.code)
  }

  private let bytes: [UInt8]
  private let context: Context
  private let idPrefix: [UInt8]
  private var output: [UInt8] = []
  private var codeIndex = 0
  /// Where the open code block's code starts in the output.
  private var codeStart: Int?
  /// The code of each code block so far.
  private var code: [String] = []
  private var openFrames = 0
  private var disarmedIndex = 0
  /// For each open `<a>`: when it was disarmed, the URL to show after it and where its text
  /// starts in the output.
  private var openLinks: [(url: String, textStart: Int)?] = []

  private init(html: [UInt8], context: Context) {
    bytes = html
    self.context = context
    idPrefix = Array((context.anchor + "-").utf8)
    output.reserveCapacity(html.count + html.count / 8 + 64)
  }

  private mutating func run() {
    var position = 0
    while position < bytes.count {
      guard let open = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else {
        output.append(contentsOf: bytes[position...])
        break
      }
      output.append(contentsOf: bytes[position..<open])
      guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else {
        output.append(contentsOf: bytes[open...])
        break
      }
      position = tag(bytes[open...close], next: close + 1)
    }
  }

  /// Writes the rewrite of one tag (`<…>`, both brackets included) and returns where to go on.
  private mutating func tag(_ tag: ArraySlice<UInt8>, next: Int) -> Int {
    let name = Self.name(of: tag)
    switch name {
    case "pre" where tag.count == 5 && Self.starts(bytes, at: next, with: "<code"):
      guard let codeEnd = bytes[next...].firstIndex(of: UInt8(ascii: ">")) else { break }
      writeCodeHead(language: Self.attribute("class", in: bytes[next...codeEnd]))
      openFrames += 1
      append("<pre tabindex=\"0\">")
      output.append(contentsOf: bytes[next...codeEnd])
      codeStart = output.count
      return codeEnd + 1
    case "/pre" where openFrames > 0:
      openFrames -= 1
      if let start = codeStart {
        code.append(Self.text(ofCode: output[start...]))
        codeStart = nil
      }
      append("</pre></div>")
      return next
    case "table":
      append(
        "<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"\(_HTMLEscape.text(context.words.table))\">"
      )
      output.append(contentsOf: tag)
      return next
    case "/table":
      append("</table></div>")
      return next
    case "h1", "h2", "h3", "h4", "h5", "h6", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6":
      let closing = name.hasPrefix("/")
      let level = Int(name.dropFirst(closing ? 2 : 1)) ?? 1
      let demoted = min(level + 2, 6)
      if closing {
        append("</h\(demoted)>")
      } else {
        // The renderer writes headings without attributes.
        append("<h\(demoted) class=\"rh\(level)\">")
      }
      return next
    case "a":
      if Self.attribute("href", in: tag) == "" {
        let url = disarmedIndex < context.disarmed.count ? context.disarmed[disarmedIndex] : ""
        disarmedIndex += 1
        append("<span class=\"link-off\"")
        if let title = Self.attribute("title", in: tag) { append(" title=\"\(title)\"") }
        append(">")
        openLinks.append((url, output.count))
        return next
      }
      openLinks.append(nil)
    case "/a":
      if let last = openLinks.popLast(), let (url, textStart) = last {
        // An autolink's text is its URL already.
        let shown = _HTMLEscape.text(Self.shortened(Self.visibleURL(url)))
        let repeated = output[textStart...].elementsEqual(_HTMLEscape.text(url).utf8)
        append("</span>")
        if !url.isEmpty && !repeated {
          append("<span class=\"link-url\"> (<span class=\"url\">\(shown)</span>)</span>")
        }
        return next
      }
    case "img":
      writeImage(tag)
      return next
    default:
      break
    }
    writeScoped(tag)
    return next
  }

  /// The caption row of a code frame: the language (the class's `language-…` value, escaped as
  /// written) and the Copy button.
  private mutating func writeCodeHead(language: String?) {
    let prefix = "language-"
    let name = language.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : "" } ?? ""
    append("<div class=\"code\"><div class=\"code-head\"><span class=\"code-lang\">\(name)</span>")
    append(
      "<button class=\"code-copy\" type=\"button\" data-action=\"copy\" data-code=\"\(context.firstCode + codeIndex)\"")
    append(" aria-label=\"\(_HTMLEscape.text(context.words.copyCode))\" hidden>\(_HTMLEscape.text(context.words.copy))")
    append("</button></div>")
    codeIndex += 1
  }

  /// An image: kept when the page may show it (a `data:` image), else a link to it with its alt
  /// text, or the alt text alone when its URL was dropped.
  private mutating func writeImage(_ tag: ArraySlice<UInt8>) {
    let source = Self.attribute("src", in: tag) ?? ""
    if source.hasPrefix("data:") {
      output.append(contentsOf: tag)
      return
    }
    let alt = Self.attribute("alt", in: tag) ?? ""
    let label = alt.isEmpty ? _HTMLEscape.text(context.words.image) : alt
    let title = Self.attribute("title", in: tag).map { " title=\"\($0)\"" } ?? ""
    if source.isEmpty {
      append("<span class=\"img-link img-off\"\(title)>\(_Glyphs.use(.image))<span>\(label)</span></span>")
    } else {
      append("<a class=\"img-link\" href=\"\(source)\"\(title)>\(_Glyphs.use(.image))<span>\(label)</span></a>")
    }
  }

  /// Copies a tag with its `id` and in-page `href` scoped to the message, and the footnote
  /// back-link's label in the page's language.
  private mutating func writeScoped(_ tag: ArraySlice<UInt8>) {
    var index = tag.startIndex
    while index < tag.endIndex {
      if Self.starts(bytes, at: index, with: " id=\"") {
        output.append(contentsOf: " id=\"".utf8)
        output.append(contentsOf: idPrefix)
        index += 5
      } else if Self.starts(bytes, at: index, with: " href=\"#") {
        output.append(contentsOf: " href=\"#".utf8)
        output.append(contentsOf: idPrefix)
        index += 8
      } else if Self.starts(bytes, at: index, with: " aria-label=\"Back to content\"") {
        append(" aria-label=\"\(_HTMLEscape.text(context.words.backToContent))\"")
        index += 29
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
  }

  private mutating func append(_ text: String) {
    output.append(contentsOf: text.utf8)
  }

  /// `url` with its invisible characters percent-encoded, as the terminal shows a URL
  /// (`InvisibleFormat.shownInURL`), so what the page shows is what the URL holds. (Bidirectional
  /// controls become U+FFFD with the rest of the page.)
  static func visibleURL(_ url: String) -> String {
    InvisibleFormat.shownInURL(url)
  }

  /// The text of a code element's content (up to its `</code>`): without the highlighting's
  /// `<span>` tags, with the four entities the renderer writes (`&amp;`, `&lt;`, `&gt;`,
  /// `&quot;`) decoded.
  static func text(ofCode html: ArraySlice<UInt8>) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(html.count)
    var index = html.startIndex
    while index < html.endIndex {
      let byte = html[index]
      if byte == UInt8(ascii: "<") {
        index = (html[index...].firstIndex(of: UInt8(ascii: ">")) ?? html.endIndex - 1) + 1
        continue
      }
      if byte == UInt8(ascii: "&"), let end = html[index...].prefix(7).firstIndex(of: UInt8(ascii: ";")) {
        switch String(decoding: html[index...end], as: UTF8.self) {
        case "&amp;": text.append(UInt8(ascii: "&"))
        case "&lt;": text.append(UInt8(ascii: "<"))
        case "&gt;": text.append(UInt8(ascii: ">"))
        case "&quot;": text.append(UInt8(ascii: "\""))
        default: text.append(contentsOf: html[index...end])
        }
        index = end + 1
        continue
      }
      text.append(byte)
      index += 1
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// A URL cut to at most 120 characters for display.
  private static func shortened(_ url: String) -> String {
    url.count > 120 ? String(url.prefix(119)) + "…" : url
  }

  /// The tag's name (`a`, `/a`, `pre`), lower case as the renderer writes it.
  private static func name(of tag: ArraySlice<UInt8>) -> String {
    let body = tag.dropFirst()
    let end = body.firstIndex { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\n") }
    return String(decoding: body[..<(end ?? body.endIndex)], as: UTF8.self)
  }

  /// The raw (still escaped) value of `name="…"` in a tag, or nil.
  private static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
    let key = Array(" \(name)=\"".utf8)
    var index = tag.startIndex
    while index + key.count <= tag.endIndex {
      if tag[index..<(index + key.count)].elementsEqual(key) {
        let start = index + key.count
        let end = tag[start...].firstIndex(of: UInt8(ascii: "\"")) ?? tag.endIndex
        return String(decoding: tag[start..<end], as: UTF8.self)
      }
      index += 1
    }
    return nil
  }

  private static func starts(_ bytes: [UInt8], at index: Int, with text: String) -> Bool {
    let pattern = text.utf8
    guard index + pattern.count <= bytes.count else { return false }
    return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
  }
}
