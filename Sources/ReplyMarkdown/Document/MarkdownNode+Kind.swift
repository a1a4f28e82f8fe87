extension MarkdownNode {
  /// The kind of a node, covering every node cmark-gfm produces with the table, strikethrough,
  /// autolink, tagfilter and tasklist extensions and footnotes.
  public enum Kind: Sendable, Hashable, Codable {
    // MARK: Blocks

    /// The root; every document has exactly one, at index 0.
    case document
    /// A block quote (`>`).
    case blockQuote
    /// A bullet or ordered list.
    case list(ListInfo)
    /// A list item; `task` is set when the item is a GFM task item (`- [ ]` / `- [x]`).
    case item(task: TaskState?)
    /// A fenced or indented code block.
    case codeBlock(CodeBlockInfo)
    /// A raw HTML block, verbatim.
    case htmlBlock(String)
    /// A paragraph.
    case paragraph
    /// An ATX or setext heading of level 1–6.
    case heading(level: Int)
    /// A thematic break (`---`).
    case thematicBreak
    /// A GFM table, with the alignment of each column.
    case table(alignments: [TableAlignment])
    /// A table row; the first row of a table is its header.
    case tableRow(isHeader: Bool)
    /// A table cell.
    case tableCell
    /// A footnote definition (`[^label]: ...`), numbered in order of first reference.
    case footnoteDefinition(FootnoteDefinitionInfo)

    // MARK: Inlines

    /// Literal text (escapes and entities already decoded).
    case text(String)
    /// A soft line break.
    case softBreak
    /// A hard line break (two spaces or a backslash before the newline).
    case lineBreak
    /// An inline code span's content.
    case code(String)
    /// Raw inline HTML, verbatim.
    case inlineHTML(String)
    /// Emphasis (`*x*`).
    case emphasis
    /// Strong emphasis (`**x**`).
    case strong
    /// GFM strikethrough (`~~x~~`).
    case strikethrough
    /// A link (inline, reference or autolink); the children are its text.
    case link(LinkInfo)
    /// An image; the children are its alt text.
    case image(LinkInfo)
    /// A reference to a footnote: `number` is the footnote's position in order of first use,
    /// `label` the definition's label, and `occurrence` counts references to the same note (1, 2, ...).
    case footnoteReference(FootnoteReferenceInfo)

    /// Whether the kind is a block (as opposed to an inline).
    public var isBlock: Bool {
      switch self {
      case .document, .blockQuote, .list, .item, .codeBlock, .htmlBlock, .paragraph, .heading,
        .thematicBreak, .table, .tableRow, .tableCell, .footnoteDefinition:
        return true
      default:
        return false
      }
    }
  }

  /// The state of a GFM task item.
  public enum TaskState: String, Sendable, Hashable, Codable {
    /// `[ ]`
    case unchecked
    /// `[x]` or `[X]`
    case checked
  }

  /// The column alignment of a GFM table, from its delimiter row.
  public enum TableAlignment: String, Sendable, Hashable, Codable {
    /// No colon.
    case none
    /// `:--`
    case left
    /// `:-:`
    case center
    /// `--:`
    case right
  }

  /// The payload of a list.
  public struct ListInfo: Sendable, Hashable, Codable {
    /// Bullet or ordered.
    public enum ListType: String, Sendable, Hashable, Codable {
      /// `-`, `*` or `+` items.
      case bullet
      /// Numbered items.
      case ordered
    }
    /// The delimiter after the number of an ordered list.
    public enum Delimiter: String, Sendable, Hashable, Codable {
      /// Bullet lists have none.
      case none
      /// `1.`
      case period
      /// `1)`
      case paren
    }
    /// Bullet or ordered.
    public var type: ListType
    /// The number of the first item (ordered lists; 0 for bullet lists).
    public var start: Int
    /// The delimiter of an ordered list.
    public var delimiter: Delimiter
    /// Whether the list is tight (no blank lines between items or their blocks).
    public var isTight: Bool

    /// Creates a list payload.
    public init(type: ListType, start: Int, delimiter: Delimiter, isTight: Bool) {
      self.type = type
      self.start = start
      self.delimiter = delimiter
      self.isTight = isTight
    }
  }

  /// The payload of a code block.
  public struct CodeBlockInfo: Sendable, Hashable, Codable {
    /// The full info string after the opening fence (empty for indented code).
    public var info: String
    /// The code, verbatim, with its final newline.
    public var code: String
    /// Whether the block was fenced (as opposed to indented).
    public var isFenced: Bool

    /// The language: the first word of the info string, or `nil` when there is none.
    public var language: String? {
      let word = info.prefix { !" \t\n\r".contains($0) }
      return word.isEmpty ? nil : String(word)
    }

    /// Creates a code block payload.
    public init(info: String, code: String, isFenced: Bool) {
      self.info = info
      self.code = code
      self.isFenced = isFenced
    }
  }

  /// The payload of a link or an image.
  public struct LinkInfo: Sendable, Hashable, Codable {
    /// The destination, as parsed (entities and escapes decoded, not percent-encoded).
    public var destination: String
    /// The title, or empty.
    public var title: String
    /// Whether the link's destination has not arrived yet: a link of a streaming display
    /// (``MarkdownStream``) whose `(url)` is still being received, or bracketed text waiting for
    /// the definition of its label. It shows its text, is not clickable and has an empty
    /// destination. Parsed documents never hold one.
    public var isPending: Bool

    /// Creates a link payload.
    public init(destination: String, title: String, isPending: Bool = false) {
      self.destination = destination
      self.title = title
      self.isPending = isPending
    }

    private enum CodingKeys: String, CodingKey {
      case destination, title, isPending
    }

    /// Decodes a link payload; JSON written before ``isPending`` existed decodes as not pending.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      destination = try container.decode(String.self, forKey: .destination)
      title = try container.decode(String.self, forKey: .title)
      isPending = try container.decodeIfPresent(Bool.self, forKey: .isPending) ?? false
    }

    /// Encodes a link payload; ``isPending`` is written only when set, so parsed documents encode
    /// as they always have.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(destination, forKey: .destination)
      try container.encode(title, forKey: .title)
      if isPending { try container.encode(true, forKey: .isPending) }
    }
  }

  /// The payload of a footnote definition.
  public struct FootnoteDefinitionInfo: Sendable, Hashable, Codable {
    /// The label, as written in the definition.
    public var label: String
    /// The footnote's number, by order of first reference (1-based).
    public var number: Int
    /// How many references point to this footnote. The HTML renderer writes one back-reference
    /// per reference, so its output grows with this count: a document built by hand (not parsed)
    /// should keep it to the references that exist. A stream's footnote section counts the
    /// references of the whole reply, including those in blocks committed before it.
    public var referenceCount: Int

    /// Creates a footnote definition payload.
    public init(label: String, number: Int, referenceCount: Int) {
      self.label = label
      self.number = number
      self.referenceCount = referenceCount
    }
  }

  /// The payload of a footnote reference.
  public struct FootnoteReferenceInfo: Sendable, Hashable, Codable {
    /// The footnote's number, by order of first reference (1-based).
    public var number: Int
    /// The label of the definition it points to, as written there.
    public var label: String
    /// Which reference to this footnote this is, counting from 1 in document order.
    public var occurrence: Int

    /// Creates a footnote reference payload.
    public init(number: Int, label: String, occurrence: Int) {
      self.number = number
      self.label = label
      self.occurrence = occurrence
    }
  }
}
