/// What Copy and Share offer for a reply: its plain text (``PlainTextRenderer``: the reply without
/// markdown marks, structure kept by line breaks, bullets and indentation), the markdown source and
/// the (safe) HTML rendering, for destinations that accept richer flavours.
///
/// - Complexity: creating one renders the document twice, O(n).
/// - Thread safety: an immutable value; `Sendable`.
public struct CopyPayload: Sendable, Hashable, Codable {
  /// The plain text, as a reader saw the reply (`text/plain`).
  public let plainText: String
  /// The markdown source, unchanged (`text/markdown`).
  public let markdown: String
  /// The HTML rendering, safe by default: raw HTML and dangerous URLs omitted (`text/html`).
  public let html: String

  /// Creates the payload of a reply's markdown, parsing it with `options`.
  public init(markdown: String, options: ParseOptions = .github) {
    self.init(markdown: markdown, document: MarkdownDocument(markdown, options: options))
  }

  /// Creates the payload from a document already parsed from `markdown`.
  public init(markdown: String, document: MarkdownDocument) {
    self.plainText = PlainTextRenderer().render(document)
    self.markdown = markdown
    self.html = HTMLRenderer().render(document)
  }

  /// Creates a payload from its three parts as they are.
  public init(plainText: String, markdown: String, html: String) {
    self.plainText = plainText
    self.markdown = markdown
    self.html = html
  }

  /// The copy payload of one code block: its code as plain text, the block's markdown as a fenced
  /// block, and its HTML.
  public static func codeBlock(_ codeBlock: MarkdownNode.CodeBlockInfo) -> CopyPayload {
    let code = PlainTextRenderer.copyText(of: codeBlock)
    var longestRun = 0
    var run = 0
    for character in code.utf8 {
      run = character == UInt8(ascii: "`") ? run + 1 : 0
      longestRun = max(longestRun, run)
    }
    let fence = String(repeating: "`", count: max(3, longestRun + 1))
    let info = codeBlock.info.contains("`") ? "" : codeBlock.info
    let markdown =
      "\(fence)\(info)\n\(codeBlock.code)\(codeBlock.code.hasSuffix("\n") || codeBlock.code.isEmpty ? "" : "\n")\(fence)"
    let document = MarkdownDocument(markdown)
    return CopyPayload(plainText: code, markdown: markdown, html: HTMLRenderer().render(document))
  }
}
