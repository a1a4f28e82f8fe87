/// Turns ``MarkdownStreamUpdate``s into plain text lines (the Copy/Share text): committed lines,
/// appended once and never changed, and the lines of the live tail.
///
/// After the final update, ``text`` is byte-identical to `PlainTextRenderer().render(_:)` of the
/// whole reply.
///
/// - Complexity: each update renders its new committed and held blocks once; of an open long
///   block (fenced code, list, table) the newly settled lines, items or rows once and the open
///   remainder, so an update costs the chunk plus the open part.
public struct MarkdownStreamPlainRenderer: Sendable {
  /// The renderer used for every block.
  public let renderer: PlainTextRenderer
  private var core: StreamConsumerCore<LineStreamOutput>

  /// Creates a consumer.
  public init(renderer: PlainTextRenderer = PlainTextRenderer()) {
    self.renderer = renderer
    core = StreamConsumerCore(
      LineStreamOutput(
        rowsRenderApart: true, renderCode: { code, _, state in (Self.codeLines(code), state) }, appendsText: true,
        appendsCode: true,
        render: { Self.lines(renderer.render($0)) }))
  }

  /// Every committed line so far.
  public var committedLines: [String] { core.output.committedLines }
  /// The lines of the live tail (held blocks, then the open part); empty after the final update.
  public var tailLines: [String] { core.output.tailLines }

  /// Whether the final update's replacement changed output committed before it. Until then the
  /// committed output only grows (P4); with ``MarkdownStream/ReferencePolicy/holdUntilFinish``
  /// the final output also starts with it, so a writer that wrote committed output as it committed
  /// (into a pipe) wrote the start of the final output: `true` there is a fault of the stream,
  /// to report. With ``MarkdownStream/ReferencePolicy/live`` a block may commit with a reference
  /// its definition, arriving later, changes, and the replacement then rewrites it.
  public var rewroteCommitted: Bool { core.output.rewroteCommitted }

  /// Applies an update and returns the lines it committed.
  @discardableResult
  public mutating func apply(_ update: MarkdownStreamUpdate) -> [String] {
    core.apply(update)
    return core.output.added
  }

  /// The current display: all lines joined with newlines (no final newline), as
  /// `PlainTextRenderer.render(_:)` writes a document.
  public var text: String { (core.output.committedLines + core.output.tailLines).joined(separator: "\n") }

  /// The lines that code `code` (not empty), continuing an open top-level code block, adds to the
  /// block's plain text: the code as ``PlainTextRenderer`` writes it (verbatim, without one final
  /// `\n` that no `\r` precedes), split as ``lines(_:)`` splits, with a `\n` that starts the code
  /// ending the line before it. Made without a document: the open fence's lines are most of what a
  /// code block's updates render (`StreamingLineRendererTests` compares it with rendering).
  ///
  /// - Complexity: O(n) in the code's bytes.
  static func codeLines(_ code: String) -> [String] {
    var code = code
    return code.withUTF8 { bytes in
      var end = bytes.count
      if end > 0 && bytes[end - 1] == ASCII.newline && (end == 1 || bytes[end - 2] != ASCII.carriageReturn) {
        end -= 1
      }
      var lines: [String] = []
      var start = 0
      for index in 0..<end
      where bytes[index] == ASCII.newline && (index == 0 || bytes[index - 1] != ASCII.carriageReturn) {
        lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        start = index + 1
      }
      lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
      return lines
    }
  }

  /// A plain text as lines: none for the empty text. Lines end where a `Character` "\n" is: at
  /// every line feed but one that follows a carriage return (`\r\n` is one character). Read as
  /// bytes: splitting a `String` by characters cost a fifth of a streamed update.
  static func lines(_ text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    var text = text
    return text.withUTF8 { bytes in
      var lines: [String] = []
      var start = 0
      // Each line feed found with memchr (a byte loop cost a tenth of the plain consumer's updates).
      var index = bytes.firstOffset(of: ASCII.newline, from: 0, to: bytes.count)
      while index < bytes.count {
        if index == 0 || bytes[index - 1] != ASCII.carriageReturn {
          lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
          start = index + 1
        }
        index = bytes.firstOffset(of: ASCII.newline, from: index + 1, to: bytes.count)
      }
      lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
      return lines
    }
  }
}
