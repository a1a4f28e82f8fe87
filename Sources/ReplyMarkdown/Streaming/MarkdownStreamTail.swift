/// The tentative end of a streaming reply: what follows the committed blocks, healed for display.
///
/// When the open block is a long fenced code block, list or table, its finished lines, items or
/// rows arrive as settled parts (only the new ones each update) and ``document`` holds just the
/// open remainder, so an update costs the chunk plus the open part, not the whole block.
public struct MarkdownStreamTail: Sendable {
  /// The long block whose finished parts are settled.
  public enum Container: Sendable, Hashable {
    /// A fenced code block; the document holds it with no code (its opening fence).
    case codeBlock(MarkdownDocument)
    /// A list; its payload (type, start, delimiter, and whether it is tight so far).
    case list(MarkdownNode.ListInfo)
    /// A table; the document holds its header row.
    case table(MarkdownDocument)
  }

  /// The open long block, or `nil` when ``document`` is the whole tail.
  public var container: Container?
  /// Changes whenever previously settled parts must be rendered again.
  public var settledRevision: Int
  /// Parts settled since the last update; after a revision change, all settled parts.
  public var newSettled: [MarkdownStreamSettledPart]
  /// The healed open part. With a container, its first block continues the container (the code
  /// block with the open line, the list with the open item, the table with its header and the
  /// open rows); further blocks follow it.
  public var document: MarkdownDocument

  /// An empty tail.
  public static let empty = MarkdownStreamTail(
    container: nil, settledRevision: 0, newSettled: [], document: MarkdownDocument(""))

  /// Creates a tail.
  public init(
    container: Container?, settledRevision: Int, newSettled: [MarkdownStreamSettledPart], document: MarkdownDocument
  ) {
    self.container = container
    self.settledRevision = settledRevision
    self.newSettled = newSettled
    self.document = document
  }
}
