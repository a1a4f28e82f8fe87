import Testing

@testable import ReplyMarkdown

/// The open leaf found without a parse: a long table's row (`OpenLeaf.continuingTableRow`), which
/// must be exactly the lines cmark-gfm's table extension takes for the table's next row, and the
/// paragraph an open part's only line opens (`OpenLeaf.firstLineParagraph`), which must be the
/// paragraph a parse finds.
@Suite struct OpenLeafTests {
  /// Each line after a table's head, and whether cmark-gfm makes it a row (checked against
  /// cmark-gfm 0.29.0.gfm.6: a `|` followed by nothing but its space characters — space, tab,
  /// vertical tab, form feed — splits into no cell and starts a paragraph; a review found `|`
  /// and a vertical tab taken for a row).
  static let lines: [(line: String, isRow: Bool)] = [
    ("| a", true), ("||", true), ("| |", true), ("|\\|", true), ("| \u{0C} x", true), ("|`|`", true),
    ("|", false), ("| ", false), ("|\t", false), ("|\u{0B}", false), ("| \u{0C}", false), ("a |", false),
    (" | a", false), ("| a\rb", false),
  ]

  @Test(arguments: lines)
  func aLineStartingWithAPipeIsTheNextRowWhenCmarkSplitsIt(line: String, isRow: Bool) {
    let head = "| h |\n|---|\n| r |\n"
    let text = Array((head + line).utf8)
    let leaf = OpenLeaf.continuingTableRow(text, lineStart: head.utf8.count)
    #expect((leaf != nil) == isRow, "\(line.debugDescription)")
    // A parse agrees: the line is a third row of the table, or (a pipe and space characters
    // alone) no row. The shortcut declines more lines than cmark-gfm refuses (`a |`, a line with
    // a carriage return): those go through the parse.
    let document = MarkdownDocument(String(decoding: text, as: UTF8.self))
    let rows = document.nodes.filter { if case .tableRow = $0.kind { true } else { false } }
    if isRow {
      #expect(rows.count == 3, "\(line.debugDescription)")
      #expect(leaf?.kind == .tableRow && leaf?.contentEnd == text.count)
    } else if line.hasPrefix("|") && !line.contains("\r") {
      #expect(rows.count == 2, "\(line.debugDescription)")
    }
  }

  /// First lines of an open part, and whether their first bytes tell the paragraph they open.
  static let firstLines: [(line: String, known: Bool)] = [
    ("text", true), ("   text", true), ("é and more", true), ("第1段", true), ("- item", true), ("* item", true),
    ("+ item", true), ("1. item", true), ("12) item", true), ("123456789. x", true), ("> quote", true),
    (">quote", true), ("  - item", true), ("   > quote", true), ("Text with **bold** and `code`", true),
    ("    text", false), ("1234567890. x", false), ("- [ ] task", false), ("-item", false), ("# h", false),
    ("1.5 x", false), ("| a", false), ("a | b", false), ("\ttab", false), ("-", false), ("- ", false),
    ("> > nested", false), ("<div>", false), ("[a]: /u", false), ("*emphasis*", false), ("2. ", false),
  ]

  @Test(arguments: firstLines)
  func aFirstLineTellsTheParagraphItOpensAsAParseFindsIt(line: String, known: Bool) {
    let text = Array(line.utf8)
    let leaf = OpenLeaf.firstLineParagraph(text, lineStart: 0)
    #expect((leaf != nil) == known, "\(line.debugDescription)")
    guard let leaf else { return }
    let found = OpenLeaf.find(in: MarkdownDocument(line), text: text)
    #expect(found?.kind == .paragraph && found?.start == leaf.start, "\(line.debugDescription)")
    #expect(leaf.contentEnd == text.count && leaf.isOpen)
    // After a preamble the line is the same paragraph (a definition and a blank before it).
    let preamble = Array("[d]: /u\n\n".utf8)
    let after = OpenLeaf.firstLineParagraph(preamble + text, lineStart: preamble.count)
    #expect(after?.start == leaf.start + preamble.count)
  }
}
