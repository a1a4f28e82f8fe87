/// Renders a ``MarkdownDocument`` as the plain text that Copy and Share put on the clipboard:
/// every word, number, URL and character of code kept, no markdown
/// syntax, structure carried by line breaks, list markers and indentation, never hard-wrapped.
///
/// - Complexity: O(n) in the size of the document and its output. No recursion, so any depth
///   renders on any stack; visual indentation stops growing after
///   ``PlainTextRenderer/maximumIndentationDepth`` nested containers, so output stays linear.
/// - Thread safety: a value type with no shared state; render from any thread.
/// - Bad input: every document renders; control characters pass through unchanged (the clipboard
///   is not a terminal).
public struct PlainTextRenderer: Sendable {
  /// How many nested containers (block quotes, list items, footnotes) add indentation; deeper ones
  /// render at this depth.
  public static let maximumIndentationDepth = 32

  /// Creates a renderer.
  public init() {}

  /// Renders the whole document: no leading or trailing blank lines, no final newline, `\n` line
  /// endings.
  public func render(_ document: MarkdownDocument) -> String {
    guard !document.nodes.isEmpty else { return "" }
    var writer = PlainTextWriter(document: document)
    writer.writeDocument()
    return writer.finish()
  }

  /// Renders the whole document followed by one newline (when not empty) and hands the UTF-8
  /// bytes to `body` without making a `String` (the fast path for writing to a file descriptor).
  public func withRenderedUTF8<R>(_ document: MarkdownDocument, _ body: (UnsafeBufferPointer<UInt8>) throws -> R)
    rethrows -> R
  {
    var writer = PlainTextWriter(document: document)
    if !document.nodes.isEmpty { writer.writeDocument() }
    writer.endOutput()
    if !writer.out.isEmpty { writer.out.append(0x0A) }
    return try writer.out.withUnsafeBufferPointer(body)
  }

  /// Renders one top-level block (a child of the root, by node index) as it renders inside the
  /// whole document, without the blank lines that separate it from its neighbours.
  ///
  /// - Precondition: `index` is the index of a top-level block of `document`.
  public func render(_ document: MarkdownDocument, topLevelBlock index: Int) -> String {
    guard index > 0, index < document.nodes.count else { return "" }
    var writer = PlainTextWriter(document: document)
    writer.writeBlock(index)
    return writer.finish()
  }

  /// Every code block of the document, in order, with its language and its copy text: just the
  /// code, without fences, info string or indentation, and without its final newline.
  ///
  /// - Complexity: O(n) in the number of nodes.
  public static func codeBlocks(in document: MarkdownDocument) -> [CodeBlock] {
    document.nodes.indices.compactMap { index in
      guard case .codeBlock(let info) = document.nodes[index].kind else { return nil }
      return CodeBlock(nodeIndex: index, info: info.info, code: copyText(of: info))
    }
  }

  /// The copy text of one code block: its code, verbatim, without one final newline.
  public static func copyText(of codeBlock: MarkdownNode.CodeBlockInfo) -> String {
    var code = codeBlock.code
    if code.hasSuffix("\n") { code.removeLast() }
    return code
  }

  /// The UTF-8 length of ``copyText(of:)`` for code whose UTF-8 is `code`: all of it but a final
  /// `\n`, unless a `\r` comes before it (`\r\n` is one character, which `hasSuffix("\n")`
  /// does not match). Lets a renderer read the copy text in place, without copying the code.
  static func copyTextCount(utf8 code: UnsafeBufferPointer<UInt8>) -> Int {
    let count = code.count
    guard count > 0, code[count - 1] == ASCII.newline else { return count }
    return count >= 2 && code[count - 2] == ASCII.carriageReturn ? count : count - 1
  }
}
