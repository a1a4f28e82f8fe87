import Foundation
import Testing

@testable import ReplyMarkdown

/// The AST covers every node cmark-gfm produces, with the payloads a renderer needs.
@Suite struct MarkdownDocumentTests {
  func kinds(_ markdown: String, options: ParseOptions = .github) -> [MarkdownNode.Kind] {
    MarkdownDocument(markdown, options: options).nodes.map(\.kind)
  }

  @Test func headingsParagraphsAndInlines() {
    let document = MarkdownDocument("# Title\n\nSome *em* **strong** ~~gone~~ `code`  \nnext\nsoft")
    #expect(
      document.nodes.map(\.kind) == [
        .document, .heading(level: 1), .text("Title"), .paragraph, .text("Some "), .emphasis, .text("em"),
        .text(" "), .strong, .text("strong"), .text(" "), .strikethrough, .text("gone"), .text(" "),
        .code("code"), .lineBreak, .text("next"), .softBreak, .text("soft"),
      ])
    #expect(document.nodes[1].range == SourceRange(start: .init(line: 1, column: 1), end: .init(line: 1, column: 7)))
    #expect(Array(document.topLevelBlocks) == [1, 3])
    #expect(document.nodes[0].subtreeEnd == document.nodes.count)
  }

  @Test func listsKeepStartDelimiterAndTightness() {
    let ordered = kinds("3) a\n4) b\n")
    #expect(ordered[1] == .list(.init(type: .ordered, start: 3, delimiter: .paren, isTight: true)))
    let loose = kinds("- a\n\n- b\n")
    #expect(loose[1] == .list(.init(type: .bullet, start: 0, delimiter: .none, isTight: false)))
  }

  @Test func taskItems() {
    let nodes = kinds("- [ ] open\n- [x] done\n- plain\n")
    let items = nodes.compactMap { kind -> MarkdownNode.TaskState?? in
      if case .item(let task) = kind { return .some(task) }
      return nil
    }
    #expect(items == [.unchecked, .checked, nil])
  }

  @Test func codeBlocksKeepLanguageAndInfo() {
    let nodes = kinds("```swift title=\"a.swift\"\nlet x = 1\n```\n\n    indented\n")
    #expect(nodes[1] == .codeBlock(.init(info: "swift title=\"a.swift\"", code: "let x = 1\n", isFenced: true)))
    #expect(nodes[2] == .codeBlock(.init(info: "", code: "indented\n", isFenced: false)))
    if case .codeBlock(let info) = nodes[1] { #expect(info.language == "swift") }
  }

  @Test func tablesKeepAlignment() {
    let nodes = kinds("| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n")
    #expect(nodes[1] == .table(alignments: [.left, .center, .right, .none]))
    #expect(nodes[2] == .tableRow(isHeader: true))
    #expect(nodes.filter { $0 == .tableCell }.count == 8)
  }

  @Test func linksImagesAutolinksAndHTML() {
    let nodes = kinds("[t](/u \"T\") ![alt](i.png) https://x.org <b>hi</b>\n\n<div>\nblock\n</div>\n")
    #expect(nodes.contains(.link(.init(destination: "/u", title: "T"))))
    #expect(nodes.contains(.image(.init(destination: "i.png", title: ""))))
    #expect(nodes.contains(.link(.init(destination: "https://x.org", title: ""))))
    #expect(nodes.contains(.inlineHTML("<b>")))
    #expect(nodes.contains(.htmlBlock("<div>\nblock\n</div>\n")))
  }

  @Test func thematicBreakAndQuote() {
    #expect(kinds("> q\n\n---\n") == [.document, .blockQuote, .paragraph, .text("q"), .thematicBreak])
  }

  @Test func footnotesAreNumberedByFirstUse() {
    let nodes = kinds("B[^b] a[^a] b[^b]\n\n[^a]: A\n[^b]: B\n")
    #expect(nodes.contains(.footnoteReference(.init(number: 1, label: "b", occurrence: 1))))
    #expect(nodes.contains(.footnoteReference(.init(number: 2, label: "a", occurrence: 1))))
    #expect(nodes.contains(.footnoteReference(.init(number: 1, label: "b", occurrence: 2))))
    #expect(nodes.contains(.footnoteDefinition(.init(label: "b", number: 1, referenceCount: 2))))
    #expect(nodes.contains(.footnoteDefinition(.init(label: "a", number: 2, referenceCount: 1))))
  }

  @Test func optionsChangeTheParse() {
    #expect(!kinds("~~x~~", options: .commonMark).contains(.strikethrough))
    #expect(kinds("\"x\"", options: [.smartPunctuation]).contains(.text("\u{201C}x\u{201D}")))
    #expect(ParseOptions.github.contains(.footnotes) && !ParseOptions.github.contains(.smartPunctuation))
  }

  @Test func invalidUTF8BecomesReplacementCharacters() {
    let document = MarkdownDocument(bytes: [0x61, 0xFF, 0x62, 0xC3])
    #expect(document.nodes.map(\.kind) == [.document, .paragraph, .text("a\u{FFFD}b\u{FFFD}")])
  }

  @Test func nulCarriageReturnsTabsAndBOM() {
    #expect(kinds("a\0b") == [.document, .paragraph, .text("a\u{FFFD}b")])
    #expect(kinds("a\r\nb\rc") == [.document, .paragraph, .text("a"), .softBreak, .text("b"), .softBreak, .text("c")])
    #expect(kinds("\u{FEFF}# T") == [.document, .heading(level: 1), .text("T")])
    #expect(kinds("\tcode") == [.document, .codeBlock(.init(info: "", code: "code\n", isFenced: false))])
    for markdown in ["a\0b", "x\r\n\r\n- y\r\n", "\u{FEFF}# T\r", "\t\t- a\n\t>b"] {
      #expect(
        HTMLRenderer(options: .unsafe).render(MarkdownDocument(markdown))
          == CmarkReference.html(markdown, renderOptions: .unsafe))
    }
  }

  /// A decoded document is a tree every renderer can walk: an edited or cut cache throws instead
  /// of crashing a renderer later (a library trial: a root `subtreeEnd` of 50 in a 5-node
  /// document decoded, then `render` ran off the array).
  @Test func aBrokenTreeDoesNotDecode() throws {
    let document = MarkdownDocument("a *b*\n\n- c\n")
    let json = try #require(String(data: JSONEncoder().encode(document), encoding: .utf8))
    func edited(_ node: Int, _ change: (inout MarkdownNode) -> Void) throws -> Data {
      var nodes = document.nodes
      change(&nodes[node])
      return try JSONEncoder().encode(
        MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics))
    }
    for data in [
      try edited(0) { $0.subtreeEnd = 50 }, try edited(1) { $0.subtreeEnd = 1 },
      try edited(2) { $0.subtreeEnd = document.nodes.count }, try edited(2) { $0.depth = 5 },
      try edited(0) { $0.kind = .paragraph },
    ] {
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(MarkdownDocument.self, from: data) }
    }
    let empty = MarkdownDocument(nodes: [], options: .github)
    #expect(try JSONDecoder().decode(MarkdownDocument.self, from: JSONEncoder().encode(empty)) == empty)
    #expect(try JSONDecoder().decode(MarkdownDocument.self, from: Data(json.utf8)) == document)
  }

  /// A decoded node's numbers are in the range a parse gives them: an edited cache threw nothing,
  /// then an ordered list starting at `Int.max` trapped the plain and terminal renderers, and a
  /// footnote referenced 10^12 times kept the HTML renderer writing back-links (a library trial).
  @Test func outOfRangeNumbersDoNotDecode() throws {
    let document = MarkdownDocument("1. a\n2. b\n\n# H\n\nx[^1] y[^1]\n\n[^1]: n\n")
    func edited(_ change: (inout MarkdownNode.Kind) -> Void, where match: (MarkdownNode.Kind) -> Bool) throws -> Data {
      var nodes = document.nodes
      let index = try #require(nodes.firstIndex { match($0.kind) })
      change(&nodes[index].kind)
      return try JSONEncoder().encode(
        MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics))
    }
    let isList = { (kind: MarkdownNode.Kind) in if case .list = kind { true } else { false } }
    let isHeading = { (kind: MarkdownNode.Kind) in if case .heading = kind { true } else { false } }
    let isNote = { (kind: MarkdownNode.Kind) in if case .footnoteDefinition = kind { true } else { false } }
    let isReference = { (kind: MarkdownNode.Kind) in if case .footnoteReference = kind { true } else { false } }
    for data in [
      try edited({ if case .list(var info) = $0 { info.start = .max; $0 = .list(info) } }, where: isList),
      try edited({ if case .list(var info) = $0 { info.start = -1; $0 = .list(info) } }, where: isList),
      try edited({ $0 = .heading(level: 9) }, where: isHeading),
      try edited(
        {
          if case .footnoteDefinition(var note) = $0 {
            note.referenceCount = 1_000_000_000_000; $0 = .footnoteDefinition(note)
          }
        },
        where: isNote),
      try edited(
        { if case .footnoteDefinition(var note) = $0 { note.referenceCount = -1; $0 = .footnoteDefinition(note) } },
        where: isNote),
      try edited(
        {
          if case .footnoteReference(var reference) = $0 { reference.number = -2; $0 = .footnoteReference(reference) }
        },
        where: isReference),
    ] {
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(MarkdownDocument.self, from: data) }
    }
    let decoded = try JSONDecoder().decode(MarkdownDocument.self, from: JSONEncoder().encode(document))
    #expect(decoded == document)
    #expect(MarkdownDocument(nodes: [], options: .github).treeDescription() == "")
    // What parses give stays in range: every Corpus input decodes.
    for (path, text) in try InputGuardEquivalenceTests.corpusInputs() {
      let parsed = MarkdownDocument(text)
      let data = try JSONEncoder().encode(parsed)
      #expect((try? JSONDecoder().decode(MarkdownDocument.self, from: data)) == parsed, "\(path)")
    }
  }

  @Test func documentsRoundTripThroughJSON() throws {
    let document = MarkdownDocument("# T\n\n- [x] a\n\n| a |\n|:-:|\n| b |\n\nx[^1]\n\n[^1]: n\n")
    let decoded = try JSONDecoder().decode(MarkdownDocument.self, from: JSONEncoder().encode(document))
    #expect(decoded == document)
  }

  @Test func childrenSkipSubtrees() {
    let document = MarkdownDocument("- a\n  - b\n- c\n")
    let items = Array(document.children(of: 1))
    #expect(items.count == 2)
    #expect(items.allSatisfy { if case .item = document.nodes[$0].kind { true } else { false } })
  }
}
