extension PlainTextRenderer {
  /// A code block as Copy on it gives it: its code, and the language a caption or a highlighter
  /// needs.
  public struct CodeBlock: Sendable, Hashable {
    /// The index of the code block's node in its document.
    public var nodeIndex: Int
    /// The full info string after the opening fence (empty for indented code).
    public var info: String
    /// The copy text: the code, verbatim, without one final newline.
    public var code: String

    /// The language: the first word of the info string, or `nil` when there is none (indented
    /// code, a bare fence).
    public var language: String? { MarkdownNode.CodeBlockInfo(info: info, code: "", isFenced: true).language }

    /// Creates a code block.
    public init(nodeIndex: Int, info: String, code: String) {
      self.nodeIndex = nodeIndex
      self.info = info
      self.code = code
    }
  }
}
