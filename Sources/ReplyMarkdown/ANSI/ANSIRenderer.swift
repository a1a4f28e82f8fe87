/// Renders a ``MarkdownDocument`` as text for a terminal: wrapped to a width by display width per
/// grapheme cluster, styled with SGR escape sequences, with OSC 8 hyperlinks.
///
/// Headings are styled without `#` (levels 1 and 2 underlined with `═` and `─`); code blocks get
/// their language as a label and a gutter whose `↪` marks wrapped continuation lines; lists show
/// bullets by depth, real numbers and ☐/☑; block quotes a bar per level; tables box-drawing
/// borders, fitted to the width by wrapping cells; thematic breaks a rule; images `alt (url)`;
/// footnotes `[n]` with the notes at the end.
///
/// - Guarantees: no line is wider than ``Options/width`` columns (widths below 20 count as 20) and
///   no line ends in a space. Control characters from the input — C0 except tab and newline, DEL,
///   C1, and the bidirectional override and isolate controls — never reach the output: they show
///   as visible symbols (`␛` for ESC), so a reply cannot retitle the window, write the clipboard or
///   recolour the screen. With colour and hyperlinks off the output holds no escape sequence at
///   all; with them on, only the renderer's own SGR and OSC 8 sequences, every one closed on the
///   line that opens it.
/// - Complexity: O(n) in the size of the document and its output. No recursion, so any depth
///   renders on any stack; indentation stops growing at about half the width.
/// - Thread safety: a value type with no shared state; render from any thread.
public struct ANSIRenderer: Sendable {
  /// The rendering options.
  public var options: ANSIOptions

  /// Creates a renderer.
  public init(options: ANSIOptions = ANSIOptions()) {
    self.options = options
  }

  /// Renders the whole document: its lines, each ended by a newline.
  public func render(_ document: MarkdownDocument) -> String {
    var writer = ANSIWriter(document: document, options: options)
    writer.writeDocument()
    return writer.finish()
  }

  /// Renders the whole document and hands its UTF-8 bytes to `body` without making a `String`
  /// (the fast path for writing to a file descriptor).
  public func withRenderedUTF8<R>(_ document: MarkdownDocument, _ body: (UnsafeBufferPointer<UInt8>) throws -> R)
    rethrows -> R
  {
    var writer = ANSIWriter(document: document, options: options)
    writer.writeDocument()
    return try writer.lines.out.withUnsafeBufferPointer(body)
  }

  /// Renders the whole document as its lines, without newlines.
  public func renderLines(_ document: MarkdownDocument) -> [String] {
    var writer = ANSIWriter(document: document, options: options)
    writer.writeDocument()
    return writer.splitLines()
  }

  /// Renders one top-level block (a child of the root, by node index) as it renders inside the
  /// whole document, each line ended by a newline, without the blank lines that separate it from
  /// its neighbours. Streaming renders committed blocks one at a time with it.
  ///
  /// - Precondition: `index` is the index of a top-level block of `document`.
  public func render(_ document: MarkdownDocument, topLevelBlock index: Int) -> String {
    var writer = ANSIWriter(document: document, options: options)
    writer.writeBlock(index)
    return writer.finish()
  }

  /// The lines of one top-level block, as ``render(_:topLevelBlock:)`` without newlines.
  public func renderLines(_ document: MarkdownDocument, topLevelBlock index: Int) -> [String] {
    var writer = ANSIWriter(document: document, options: options)
    writer.writeBlock(index)
    return writer.splitLines()
  }

  /// The lines of lines of code inside a top-level code block in `language` (a fence's
  /// language name), highlighted from `state`, and the state after them: how a stream writes the
  /// settled lines of an open fence once each, so the pieces join to the whole block's rendering.
  ///
  /// `code` is the code as a block holds it: each line ended by a line break.
  package func codeLines(_ code: String, language: String?, state: CodeLineState) -> (
    lines: [String], state: CodeLineState
  ) {
    var writer = ANSIWriter(options: options)
    var state = state
    var source = code
    if source.hasSuffix("\n") { source.removeLast() }
    writer.writeCode(source, language: language, state: &state)
    return (writer.splitLines(), state)
  }

  /// Whether code may be highlighted: colour is on and the highlighter is not the plain one.
  package var highlightsCode: Bool { options.color && !(options.highlighter is PlainCodeHighlighter) }
}
