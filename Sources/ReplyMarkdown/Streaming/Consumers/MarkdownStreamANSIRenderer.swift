/// Turns ``MarkdownStreamUpdate``s into terminal lines: committed lines, written once and never
/// changed, and the lines of the live tail, redrawn after every update.
///
/// After the final update, ``committedLines`` joined with newlines (each line ended by one) is
/// byte-identical to `ANSIRenderer(options:).render(_:)` of the whole reply. When that update
/// carries a replacement (a block was committed past the held budget, its references as they
/// stood), ``committedLines`` becomes the one-shot lines, while the lines ``apply(_:)`` returned
/// earlier, which a terminal has already shown, stay as they were written: a terminal never
/// rewrites them. Lines are wrapped to
/// the options' width by display width per grapheme cluster, as the one-shot renderer wraps them.
///
/// - Complexity: each update renders its new committed and held blocks once; of an open fenced
///   code block, list or table the newly settled lines, items or rows once and the open
///   remainder. An open table's columns fit all its rows so far, the open ones too, as the
///   one-shot renderer fits them; when a row changes that layout, the rows shown are laid out
///   again, in that update only. Widths count only up to the terminal's and settled ones only
///   grow, so that happens a bounded number of times however long the table: the cost of the
///   other updates does not depend on the rows already shown.
public struct MarkdownStreamANSIRenderer: Sendable {
  /// The renderer used for every block.
  public let renderer: ANSIRenderer
  private var core: StreamConsumerCore<LineStreamOutput>

  /// Creates a consumer that renders with `renderer`.
  public init(renderer: ANSIRenderer = ANSIRenderer()) {
    self.renderer = renderer
    // With a highlighter, the settled lines of an open fence are highlighted once each, from the
    // state the lines before them left. Without one, the code is laid out the same way, without
    // a language: no document per update for an open fence's lines (`StreamingLineRendererTests`
    // compares the two with rendering).
    let highlights = renderer.highlightsCode
    let renderCode: LineStreamOutput.CodeRenderer = { @Sendable code, language, state in
      renderer.codeLines(code, language: highlights ? language : nil, state: state)
    }
    core = StreamConsumerCore(
      LineStreamOutput(rowsRenderApart: false, renderCode: renderCode, terminalTables: renderer.options) {
        renderer.renderLines($0)
      })
  }

  /// Every committed line so far, without newlines.
  public var committedLines: [String] { core.output.committedLines }
  /// The lines of the live tail (held blocks, then the open part), without newlines; empty after
  /// the final update.
  public var tailLines: [String] { core.output.tailLines }

  /// Whether the final update's replacement changed output committed before it. Until then the
  /// committed output only grows (P4); with ``MarkdownStream/ReferencePolicy/holdUntilFinish``
  /// the final output also starts with it, so a writer that wrote committed output as it committed
  /// (into a pipe) wrote the start of the final output: `true` there is a fault of the stream,
  /// to report. With ``MarkdownStream/ReferencePolicy/live`` a block may commit with a reference
  /// its definition, arriving later, changes, and the replacement then rewrites it.
  public var rewroteCommitted: Bool { core.output.rewroteCommitted }

  /// Applies an update and returns the lines it committed (to write once, above the tail).
  @discardableResult
  public mutating func apply(_ update: MarkdownStreamUpdate) -> [String] {
    core.apply(update)
    return core.output.added
  }

  /// The current display: committed lines, then the tail, each ended by a newline.
  public var text: String {
    var out = ""
    for line in core.output.committedLines + core.output.tailLines { out += line + "\n" }
    return out
  }
}
