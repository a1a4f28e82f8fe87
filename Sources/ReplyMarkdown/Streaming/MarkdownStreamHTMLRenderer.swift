/// Turns ``MarkdownStreamUpdate``s into HTML: committed blocks are appended once, the tail is
/// replaced, and each update is reported as an ``Edit`` of the previous HTML.
///
/// After the final update, ``html`` is byte-identical to `HTMLRenderer(options:).render(_:)` of the
/// whole reply. A link whose destination has not arrived is written `<a data-pending="">` (no
/// `href`: not clickable, its partial URL never shown).
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
  public let renderer: HTMLRenderer

  private var bytes: [UInt8] = []
  /// The length in UTF-8 bytes of the committed HTML at the start of ``html``.
  public private(set) var committedLength = 0
  private var heldLength = 0
  private var settledLength = 0
  private var revision = -1
  private var settled: [MarkdownStreamSettledPart] = []
  private var renderedTight = true

  /// Creates a consumer that renders with `renderer`.
  public init(renderer: HTMLRenderer = HTMLRenderer()) {
    self.renderer = renderer
  }

  /// The current HTML: committed blocks followed by the tail.
  public var html: String { String(decoding: bytes, as: UTF8.self) }

  /// The length of ``html`` in UTF-8 bytes.
  public var utf8Count: Int { bytes.count }

  /// The UTF-8 bytes of ``html`` in `range` (without making the whole `String`: a writer that
  /// sends committed HTML as it commits costs what it sends).
  public func utf8(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

  /// The committed part of ``html``; it only ever grows (P4).
  public var committedHTML: String { String(decoding: bytes[..<committedLength], as: UTF8.self) }

  /// Applies an update and returns how the HTML changed.
  @discardableResult
  public mutating func apply(_ update: MarkdownStreamUpdate) -> Edit {
    var low = bytes.count
    func truncate(_ length: Int) {
      if length < bytes.count { bytes.removeSubrange(length...) }
      low = min(low, length)
    }
    if let replacement = update.replacement {
      truncate(0)
      bytes = Array(renderer.render(replacement).utf8)
      committedLength = bytes.count
      heldLength = bytes.count
      settledLength = bytes.count
      settled = []
      return Edit(keep: 0, appended: html)
    }
    var rebuild = false
    if !update.committed.isEmpty {
      truncate(committedLength)
      for block in update.committed { bytes.append(contentsOf: renderer.render(block.document).utf8) }
      committedLength = bytes.count
      heldLength = bytes.count
      rebuild = true
    }
    if update.replacesHeld {
      truncate(committedLength)
      heldLength = committedLength
      rebuild = true
    }
    if !update.held.isEmpty {
      truncate(heldLength)
      for block in update.held {
        bytes.append(contentsOf: renderer.render(block.document).utf8)
      }
      heldLength = bytes.count
      rebuild = true
    }
    let tail = update.tail
    let tight = isTight(tail)
    if tail.settledRevision != revision {
      settled = tail.newSettled
      revision = tail.settledRevision
      rebuild = true
    } else {
      settled.append(contentsOf: tail.newSettled)
    }
    if tight != renderedTight { rebuild = true }
    renderedTight = tight
    if rebuild {
      truncate(heldLength)
      if let container = tail.container {
        writeHead(container)
        for (position, part) in settled.enumerated() {
          writePart(part, container: container, first: position == 0, tight: tight)
        }
      }
    } else {
      truncate(settledLength)
      if let container = tail.container {
        let firstNew = settled.count - tail.newSettled.count
        for (offset, part) in tail.newSettled.enumerated() {
          writePart(part, container: container, first: firstNew + offset == 0, tight: tight)
        }
      }
    }
    settledLength = bytes.count
    writeOpen(tail, tight: tight)
    return Edit(keep: low, appended: String(decoding: bytes[low...], as: UTF8.self))
  }

  // MARK: Containers

  private func isTight(_ tail: MarkdownStreamTail) -> Bool {
    guard case .list(let info) = tail.container else { return true }
    if let first = tail.document.topLevelBlocks.first(where: { _ in true }),
      case .list(let open) = tail.document.nodes[first].kind, !open.isTight
    {
      return false
    }
    return info.isTight
  }

  private mutating func writeHead(_ container: MarkdownStreamTail.Container) {
    switch container {
    case .codeBlock(let head):
      var html = Array(renderer.render(head).utf8)
      let suffix = Array("</code></pre>\n".utf8)
      if html.count >= suffix.count && Array(html[(html.count - suffix.count)...]) == suffix {
        html.removeLast(suffix.count)
      }
      bytes.append(contentsOf: html)
    case .list(let info):
      if info.type == .bullet {
        bytes.append(contentsOf: "<ul>\n".utf8)
      } else if info.start != 1 {
        bytes.append(contentsOf: "<ol start=\"\(info.start)\">\n".utf8)
      } else {
        bytes.append(contentsOf: "<ol>\n".utf8)
      }
    case .table(let head):
      let html = Array(renderer.render(head).utf8)
      if let end = Self.lastRange(of: Array("</thead>\n".utf8), in: html) {
        bytes.append(contentsOf: html[..<end.upperBound])
      }
    }
  }

  private mutating func writePart(
    _ part: MarkdownStreamSettledPart, container: MarkdownStreamTail.Container, first: Bool, tight: Bool
  ) {
    switch container {
    case .codeBlock:
      if case .codeBlock(let info) = part.document.nodes[part.node].kind {
        var writer = ByteWriter()
        writer.writeHTMLEscaped(info.code)
        bytes.append(contentsOf: writer.bytes())
      }
    case .list:
      writeItems(part.document, items: [part.node], list: part.parent, tight: tight)
    case .table:
      if first { bytes.append(contentsOf: "<tbody>\n".utf8) }
      bytes.append(contentsOf: bodyRows(part.document))
    }
  }

  private mutating func writeItems(_ document: MarkdownDocument, items: [Int], list: Int, tight: Bool) {
    var nodes = document.nodes
    if case .list(var info) = nodes[list].kind, info.isTight != tight {
      info.isTight = tight
      nodes[list].kind = .list(info)
    }
    let adjusted = MarkdownDocument(nodes: nodes, options: document.options)
    var writer = HTMLWriter(document: adjusted, options: renderer.options)
    for item in items { writer.walk(from: item, to: nodes[item].subtreeEnd, parents: [0, list]) }
    bytes.append(contentsOf: writer.out.bytes())
  }

  private func bodyRows(_ document: MarkdownDocument) -> ArraySlice<UInt8> {
    let html = Array(renderer.render(document).utf8)
    guard let head = Self.firstRange(of: Array("</thead>\n".utf8), in: html),
      let bodyStart = Self.firstRange(of: Array("<tbody>\n".utf8), in: html, from: head.upperBound),
      let bodyEnd = Self.lastRange(of: Array("</tbody>\n".utf8), in: html), bodyEnd.lowerBound >= bodyStart.upperBound
    else { return [] }
    return html[bodyStart.upperBound..<bodyEnd.lowerBound]
  }

  // MARK: Open part

  private mutating func writeOpen(_ tail: MarkdownStreamTail, tight: Bool) {
    let document = tail.document
    let blocks = Array(document.topLevelBlocks)
    guard let container = tail.container else {
      bytes.append(contentsOf: renderer.render(document).utf8)
      return
    }
    var rest = blocks[...]
    switch container {
    case .codeBlock:
      if let first = blocks.first, case .codeBlock(let info) = document.nodes[first].kind {
        var writer = ByteWriter()
        writer.writeHTMLEscaped(info.code)
        bytes.append(contentsOf: writer.bytes())
        rest = rest.dropFirst()
      }
      bytes.append(contentsOf: "</code></pre>\n".utf8)
    case .list(let info):
      if let first = blocks.first, case .list = document.nodes[first].kind {
        writeItems(document, items: Array(document.children(of: first)), list: first, tight: tight)
        rest = rest.dropFirst()
      }
      bytes.append(contentsOf: (info.type == .bullet ? "</ul>\n" : "</ol>\n").utf8)
    case .table:
      var rows: ArraySlice<UInt8> = []
      if let first = blocks.first, case .table = document.nodes[first].kind {
        rows = bodyRows(document)
        rest = rest.dropFirst()
      }
      if settled.isEmpty && !rows.isEmpty { bytes.append(contentsOf: "<tbody>\n".utf8) }
      bytes.append(contentsOf: rows)
      if !settled.isEmpty || !rows.isEmpty { bytes.append(contentsOf: "</tbody>\n".utf8) }
      bytes.append(contentsOf: "</table>\n".utf8)
    }
    for block in rest {
      bytes.append(contentsOf: renderer.render(document, topLevelBlock: block).utf8)
    }
  }

  static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Range<Int>? {
    guard !needle.isEmpty, needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
    for index in start...(haystack.count - needle.count) where matches(needle, in: haystack, at: index) {
      return index..<(index + needle.count)
    }
    return nil
  }

  private static func matches(_ needle: [UInt8], in haystack: [UInt8], at index: Int) -> Bool {
    guard haystack[index] == needle[0] else { return false }
    for offset in 1..<needle.count where haystack[index + offset] != needle[offset] { return false }
    return true
  }

  static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    for index in stride(from: haystack.count - needle.count, through: 0, by: -1)
    where matches(needle, in: haystack, at: index) {
      return index..<(index + needle.count)
    }
    return nil
  }
}
