/// How the engine turns a reply's markdown into plain text and code blocks.
///
/// A seam: the engine never parses markdown on its own hot path (per chunk), only when Copy,
/// Share, accessibility or the transcript ask. Plug the full Copy/Share renderer in here by
/// building a formatter from its functions; ``basic`` is a minimal stand-in over
/// ``MarkdownDocument``.
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

  /// A minimal formatter over ``MarkdownDocument``: block text separated by blank lines (tight
  /// list items by one line break), `•` or the item number before list items, inline marks
  /// dropped, code verbatim without its final newline, table cells joined by a tab;
  /// ``HTMLRenderer`` for HTML.
  public static let basic = ReplyFormatter(
    plainText: { _BasicPlainText.render(MarkdownDocument($0)) },
    codeBlocks: { _BasicPlainText.codeBlocks(MarkdownDocument($0)) },
    html: { HTMLRenderer().render(MarkdownDocument($0)) }
  )
}
