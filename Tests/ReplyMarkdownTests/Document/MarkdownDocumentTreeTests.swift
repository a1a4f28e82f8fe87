import Testing

@testable import ReplyMarkdown

/// Tree helpers (parent, ancestors, descendants, plain text), the tree description, and the source
/// ranges of inlines.
@Suite struct MarkdownDocumentTreeTests {
  @Test func parentAndAncestorsAgreeWithTheWalk() {
    let document = MarkdownDocument("- a *b [c](d)*\n  > e\n\n| x |\n|---|\n| `y` |\n\n[^n]\n\n[^n]: note\n")
    var walk = MarkdownWalk(document)
    while let event = walk.next() {
      guard case .enter(let index) = event else { continue }
      #expect(document.parent(of: index) == walk.parent)
      #expect(document.ancestors(of: index) == walk.ancestors)
      #expect(document.descendants(of: index) == (index + 1)..<document.nodes[index].subtreeEnd)
    }
  }

  @Test func plainTextOfLinksHeadingsAndCode() {
    let document = MarkdownDocument(
      "# A *b* `c`\n\nSee [the **docs**\nhere](/d) and ![i](u)[^1].\n\n[^1]: x\n\n```\ncode\n```\n")
    let heading = document.topLevelBlocks.first { document.nodes[$0].kind == .heading(level: 1) } ?? -1
    #expect(document.plainText(of: heading) == "A b c")
    let link = document.nodes.firstIndex { if case .link = $0.kind { true } else { false } } ?? -1
    #expect(document.plainText(of: link) == "the docs here")
    let paragraph = document.parent(of: link) ?? -1
    #expect(document.plainText(of: paragraph) == "See the docs here and i[1].")
    let code = document.nodes.firstIndex { if case .codeBlock = $0.kind { true } else { false } } ?? -1
    #expect(document.plainText(of: code) == "code\n")
  }

  @Test func treeDescriptionDrawsTheTree() {
    let document = MarkdownDocument("# Hi\n\n1. [a](/u \"T\")\n2. b  \n   c\n\n```swift\nx\n```\n")
    #expect(
      document.treeDescription() == """
        Document
        ├─ Heading level: 1
        │  └─ Text "Hi"
        ├─ List ordered start: 1 delimiter: period tight
        │  ├─ Item
        │  │  └─ Paragraph
        │  │     └─ Link destination: "/u" title: "T"
        │  │        └─ Text "a"
        │  └─ Item
        │     └─ Paragraph
        │        ├─ Text "b"
        │        ├─ LineBreak
        │        └─ Text "c"
        └─ CodeBlock info: "swift" fenced code: "x\\n"
        """)
    let list = Array(document.topLevelBlocks)[1]
    #expect(
      document.treeDescription(of: list + 1, options: .sourceRanges) == """
        Item @3:1-3:14
        └─ Paragraph @3:4-3:14
           └─ Link destination: "/u" title: "T" @3:4-3:14
              └─ Text "a" @3:5-3:5
        """)
  }

  @Test func treeDescriptionOfDeepTreesStopsIndentingAtTheMaximum() {
    let document = MarkdownDocument(String(repeating: "> ", count: 100) + "x", limits: .unlimited)
    let lines = document.treeDescription().split(separator: "\n")
    #expect(lines.count == document.nodes.count)
    #expect(lines.allSatisfy { $0.count <= 3 * MarkdownDocument.maximumDescribedDepth + 40 })
    #expect(lines.last?.hasSuffix("[depth 102] Text \"x\"") == true)
  }

  // MARK: Source ranges of inlines

  /// The bytes of `source` that `range` covers (1-based lines and byte columns, end inclusive).
  static func slice(_ source: String, _ range: SourceRange?) -> String? {
    guard let range else { return nil }
    var lineStarts = [0]
    let bytes = Array(source.utf8)
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
    guard range.start.line <= lineStarts.count, range.end.line <= lineStarts.count else { return nil }
    let start = lineStarts[range.start.line - 1] + range.start.column - 1
    let end = lineStarts[range.end.line - 1] + range.end.column
    guard start <= end, end <= bytes.count else { return nil }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  @Test func aLinksRangeFindsTheLinkInTheSource() {
    let source = """
      Intro — ünïcode first.

      See [the *docs*](https://example.com/a "T") and
      <https://auto.example> or `code` **end**, www.example.org, https://x.org and a@b.co
      > quoted [ref][r] then <c@d.e>
      > and ![img](i.png "t") <https://q.example>

      [r]: /ref
      """
    let document = MarkdownDocument(source)
    var found: [String] = []
    for (index, node) in document.nodes.enumerated() where !node.kind.isBlock {
      switch node.kind {
      case .link, .image, .code, .strong, .emphasis:
        found.append(Self.slice(source, document.nodes[index].range) ?? "nil")
      case .softBreak: #expect(node.range == nil)
      default: break
      }
    }
    // A code span's range is its content, without the backticks (as cmark-gfm reports it).
    #expect(
      found == [
        "[the *docs*](https://example.com/a \"T\")", "*docs*", "<https://auto.example>", "code", "**end**",
        "www.example.org", "https://x.org", "a@b.co", "[ref][r]", "<c@d.e>", "![img](i.png \"t\")",
        "<https://q.example>",
      ])
    let text = document.nodes.firstIndex { $0.kind == .text("Intro — ünïcode first.") } ?? -1
    #expect(Self.slice(source, document.nodes[text].range) == "Intro — ünïcode first.")
    // Text beside an autolink ends before it.
    let before = document.nodes.firstIndex { $0.kind == .text(", ") } ?? -1
    #expect(Self.slice(source, document.nodes[before].range) == ", ")
  }

  @Test func mergedTextCoversAllItsPieces() {
    let source = "a_b*c [d"
    let document = MarkdownDocument(source)
    #expect(document.nodes.map(\.kind) == [.document, .paragraph, .text("a_b*c [d")])
    #expect(Self.slice(source, document.nodes[2].range) == source)
  }

  @Test func everyInlineRangeStaysInsideItsLinesInTheCorpus() throws {
    for (name, markdown) in try SharedData.corpusReplies() {
      let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map { $0.utf8.count }
      let document = MarkdownDocument(markdown)
      for node in document.nodes where !node.kind.isBlock {
        guard let range = node.range else { continue }
        #expect(range.start <= range.end, "\(name)")
        #expect(range.start.column >= 1 && range.start.column <= max(lines[range.start.line - 1], 1), "\(name)")
        #expect(range.end.column >= 1 && range.end.column <= max(lines[range.end.line - 1], 1), "\(name)")
      }
    }
  }

  @Test func rangesReferToTheGuardedText() {
    var limits = InputLimits.default
    limits.maxNestingDepth = 2
    let source = "> > > > [x](/y)\n"
    let guarded = InputGuard.apply(source, limits: limits)
    #expect(guarded.text != source)
    let document = MarkdownDocument(source, limits: limits)
    #expect(!document.diagnostics.isEmpty)
    let link = document.nodes.firstIndex { if case .link = $0.kind { true } else { false } } ?? 0
    #expect(Self.slice(guarded.text, document.nodes[link].range) == "[x](/y)")
  }
}
