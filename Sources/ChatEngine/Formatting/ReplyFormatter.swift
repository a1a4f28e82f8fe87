import ReplyMarkdown

/// How the engine turns a reply's markdown into plain text and code blocks.
///
/// A seam: the engine never parses markdown on its own hot path (per chunk), only when Copy,
/// Share, accessibility or the transcript ask. ``standard`` is the Copy/Share renderer; tests
/// and apps may inject their own.
public struct ReplyFormatter: Sendable {
  /// The plain text of a reply (no markdown marks).
  public var plainText: @Sendable (String) -> String
  /// The code of each code block, in order, each without its final newline.
  public var codeBlocks: @Sendable (String) -> [String]
  /// The HTML of a reply, offered with Copy.
  public var html: @Sendable (String) -> String

  /// Creates a formatter from its three functions.
  public init(
    plainText: @escaping @Sendable (String) -> String,
    codeBlocks: @escaping @Sendable (String) -> [String],
    html: @escaping @Sendable (String) -> String
  ) {
    self.plainText = plainText
    self.codeBlocks = codeBlocks
    self.html = html
  }

  /// The standard formatter: ``PlainTextRenderer`` (the Copy/Share rules) for plain text and code
  /// blocks, ``HTMLRenderer`` (safe) for HTML.
  public static let standard = ReplyFormatter(
    plainText: { PlainTextRenderer().render(MarkdownDocument($0)) },
    codeBlocks: { PlainTextRenderer.codeBlocks(in: MarkdownDocument($0)).map(\.code) },
    html: { HTMLRenderer().render(MarkdownDocument($0)) }
  )
}
