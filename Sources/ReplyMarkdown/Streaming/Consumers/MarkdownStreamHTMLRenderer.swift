/// Turns ``MarkdownStreamUpdate``s into HTML: committed blocks are appended once, the tail is
/// replaced, and each update is reported as an ``Edit`` of the previous HTML.
///
/// After the final update, ``html`` is byte-identical to `HTMLRenderer(options:).render(_:)` of the
/// whole reply, but for the `data-sourcepos` attributes of the `.sourcePositions` option: the
/// stream parses the reply in pieces, and where cmark-gfm ends a block in one parse of the whole
/// (`2:0` after a thematic break, a paragraph before a table) is not always where it ends it in a
/// piece, and a footnote defined before its use is written without them (its definition reaches
/// the last piece's parse from the definitions kept, where its line in the reply is not known).
/// A link whose destination has not arrived is written `<a data-pending="">` (no
/// `href`: not clickable, its partial URL never shown). With a highlighter, the code of an open
/// fence is coloured as it arrives: each finished line is highlighted once, from the state the
/// line before it left; the open last line is highlighted afresh each update (provisional).
///
/// - Complexity: each update costs the size of what it appends: new committed blocks, newly
///   settled parts and the open part. Settled parts are re-rendered only when their revision
///   changes (a tight list turning loose), once.
public struct MarkdownStreamHTMLRenderer: Sendable {
  /// A change to the HTML: keep the first `keep` UTF-8 bytes, then append `appended`.
  public struct Edit: Sendable, Hashable {
    /// How many UTF-8 bytes of the previous HTML stay.
    public var keep: Int
    /// What follows them.
    public var appended: String
  }

  /// The renderer used for every block.
  public var renderer: HTMLRenderer { core.output.renderer }

  private var core: StreamConsumerCore<HTMLStreamOutput>

  /// Creates a consumer that renders with `renderer`.
  public init(renderer: HTMLRenderer = HTMLRenderer()) {
    core = StreamConsumerCore(HTMLStreamOutput(renderer: renderer))
  }

  /// The current HTML: committed blocks followed by the tail.
  public var html: String { String(decoding: core.output.bytes, as: UTF8.self) }

  /// The length of ``html`` in UTF-8 bytes.
  public var utf8Count: Int { core.output.bytes.count }

  /// The UTF-8 bytes of ``html`` in `range` (without making the whole `String`: a writer that
  /// sends committed HTML as it commits costs what it sends).
  public func utf8(_ range: Range<Int>) -> ArraySlice<UInt8> { core.output.bytes[range] }

  /// The length in UTF-8 bytes of the committed HTML at the start of ``html``.
  public var committedLength: Int { core.output.committedLength }

  /// The committed part of ``html``; it only ever grows (P4).
  public var committedHTML: String {
    String(decoding: core.output.bytes[..<core.output.committedLength], as: UTF8.self)
  }

  /// Whether the final update's replacement changed output committed before it. Until then the
  /// committed output only grows (P4); with ``MarkdownStream/ReferencePolicy/holdUntilFinish``
  /// the final output also starts with it, so a writer that wrote committed output as it committed
  /// (into a pipe) wrote the start of the final output: `true` there is a fault of the stream,
  /// to report. With ``MarkdownStream/ReferencePolicy/live`` a block may commit with a reference
  /// its definition, arriving later, changes, and the replacement then rewrites it.
  public var rewroteCommitted: Bool { core.output.rewroteCommitted }

  /// Applies an update and returns how the HTML changed.
  @discardableResult
  public mutating func apply(_ update: MarkdownStreamUpdate) -> Edit {
    core.apply(update)
    let low = core.output.low
    return Edit(keep: low, appended: String(decoding: core.output.bytes[low...], as: UTF8.self))
  }
}
