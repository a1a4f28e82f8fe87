/// The tentative end of a streaming reply: what follows the committed and held blocks, healed
/// for display.
///
/// A stream's renderers (``MarkdownStreamHTMLRenderer``, ``MarkdownStreamPlainRenderer``,
/// ``MarkdownStreamANSIRenderer``) show it in pieces: of a long fenced code block, list or table
/// that is still open, the finished lines, items or rows are rendered once and kept, so an update
/// costs the chunk plus the open part, not the whole block. ``document`` is the same open part
/// whole, for a consumer of its own.
public struct MarkdownStreamTail: Sendable {
  /// The long block whose finished parts are settled.
  enum Container: Sendable, Hashable {
    /// A fenced code block; the document holds it with no code (its opening fence).
    case codeBlock(MarkdownDocument)
    /// A list; its payload (type, start, delimiter, and whether it is tight so far).
    case list(MarkdownNode.ListInfo)
    /// A table; the document holds its header row.
    case table(MarkdownDocument)
  }

  /// The tail's values, held once and shared by its copies: a tail travels in every update and
  /// is kept as the stream's last tail, and a copy of seven reference-counted values (and a
  /// container's document) cost about a tenth of an open fence's update (callgrind on
  /// `replykit-bench stream-one html fence 50000 20`). Copy on write: a setter copies the values
  /// first when another tail shares them, and changes a value in place (`newSettled.append`
  /// copies no array) when none does.
  private final class Storage: @unchecked Sendable {
    // Mutated only through `MarkdownStreamTail.values`, which copies a shared storage first.
    var values: Values
    init(_ values: Values) { self.values = values }
  }

  /// The values of a tail (see the properties of the same names).
  struct Values: Sendable {
    var container: Container?
    var settledRevision: Int
    var newSettled: [MarkdownStreamSettledPart]
    var settled: SettledParts
    var remainder: MarkdownDocument
    var serial = 0
    var extends = 0
    var appendedText = ""
  }

  private var storage: Storage

  /// The values, for reading and for changes (copied first when another tail shares them).
  private var values: Values {
    get { storage.values }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.values) }
      yield &storage.values
    }
  }

  /// The open long block, or `nil` when ``remainder`` is the whole tail.
  var container: Container? {
    get { values.container }
    _modify { yield &values.container }
  }
  /// Changes whenever previously settled parts must be rendered again.
  var settledRevision: Int {
    get { values.settledRevision }
    _modify { yield &values.settledRevision }
  }
  /// Parts settled since the last update; after a revision change, all settled parts.
  var newSettled: [MarkdownStreamSettledPart] {
    get { values.newSettled }
    _modify { yield &values.newSettled }
  }
  /// Every settled part of the open long block (for ``document``).
  var settled: SettledParts {
    get { values.settled }
    _modify { yield &values.settled }
  }
  /// The healed open part after the settled parts. With a container, its first block continues
  /// the container (the code block with the open line, the list with the open item, the table
  /// with its header and the open rows); further blocks follow it.
  var remainder: MarkdownDocument {
    get { values.remainder }
    _modify { yield &values.remainder }
  }
  /// Which tail of its stream this is: a stream numbers each tail it heals or extends from 1 on,
  /// and an update that shows the last tail again carries the same number, so a consumer skips
  /// rendering it again (a consumer of its own may do the same). 0: not numbered (always
  /// rendered).
  public internal(set) var serial: Int {
    get { values.serial }
    _modify { yield &values.serial }
  }
  /// The serial of the tail this one continues, when it is that tail with ``appendedText`` added
  /// to the text of its last node (plain words continuing the last line: ``PlainTextExtension``),
  /// and nothing else changed; 0 otherwise. A consumer that showed that tail may add the text
  /// to what it shows instead of rendering the tail again.
  var extends: Int {
    get { values.extends }
    _modify { yield &values.extends }
  }
  /// What this tail adds to the last text of the tail it ``extends``.
  var appendedText: String {
    get { values.appendedText }
    _modify { yield &values.appendedText }
  }

  /// An empty tail.
  public static let empty = MarkdownStreamTail(document: MarkdownDocument(""))

  /// Creates a tail that shows `document`.
  public init(document: MarkdownDocument) {
    self.init(settledRevision: 0, remainder: document)
  }

  init(
    container: Container? = nil, settledRevision: Int, newSettled: [MarkdownStreamSettledPart] = [],
    settled: SettledParts = .none, remainder: MarkdownDocument
  ) {
    storage = Storage(
      Values(
        container: container, settledRevision: settledRevision, newSettled: newSettled, settled: settled,
        remainder: remainder))
  }

  /// The whole healed open part as one standalone document: an open long block with its
  /// finished parts and open remainder merged into one block, followed by the blocks after it.
  /// Pending links are marked (``MarkdownNode/LinkInfo/isPending``).
  ///
  /// - Complexity: O(n) in the nodes of the open part, computed on each access (the stream's
  ///   renderers never use it).
  public var document: MarkdownDocument {
    container == nil ? remainder : mergedDocument(settled: settled.all)
  }
}
