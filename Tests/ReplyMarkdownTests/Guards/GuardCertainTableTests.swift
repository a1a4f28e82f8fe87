import Foundation
import Testing

@testable import ReplyMarkdown

/// The guard counts the inline content of each row of a table it is sure of apart, because
/// cmark-gfm parses each row's cells on their own. A table it is sure of that cmark-gfm does not
/// form would be one paragraph to cmark-gfm, its emphasis counted too little. (Fuzz seed 1254
/// found two such beliefs, where the rows then also escaped the header-scan limit: a header line
/// with `\\|`, and `|-|]:[x]: u` over `|-|`.) So, for random header lines over rows that hold
/// more emphasis runs together than one paragraph may: cmark-gfm forms the table, or does not
/// read the rows as paragraph text (a fence), or the guard limits their runs.
@Suite struct GuardCertainTableTests {
  static let alphabet: [String] = [
    "a", "b", " ", "|", "|", "*", "_", "`", "[", "]", "<", ">", "&", "\\", "-", ":", "~", "!", "(", ")", "=",
    "é", "#", "\t", "\\\\", "\\|", "`|", "[x]: ", "]:",
  ]

  static let rows = String(repeating: "| *a* *b* *c* *d* *e* |\n", count: 50)

  /// Whether `head` (a header line and a delimiter row) over ``rows`` keeps the property.
  static func holds(_ head: String) -> Bool {
    let text = head + rows
    let html = CmarkReference.html(text)
    let paragraph = html.components(separatedBy: "<p>").dropFirst().contains {
      ($0.components(separatedBy: "</p>").first ?? "").contains("<em>e</em> |\n|")
    }
    let limited = InputGuard.apply(text).diagnostics.contains { $0.kind == .delimiterRuns }
    return html.hasPrefix("<table>") || !paragraph || limited
  }

  @Test(arguments: [
    "*foo [*\\\\|-|\n|-|-|\n", "a \\\\|b|\n|-|-|\n", "a|b\\\\|\n|-|-|\n", "|-|]:[x]: u\n|-|\n",
    "[x]: u\n|-|]:[x]: u\n|-|\n",
  ])
  func foundCases(head: String) {
    #expect(Self.holds(head), "\(head.debugDescription)")
  }

  @Test func aTableTheGuardIsSureOfIsOneCmarkGFMForms() {
    var random = StreamingHarness.SeededGenerator(state: 0x7A8B_1254)
    var tables = 0
    for _ in 0..<2_000 {
      let length = 1 + Int(random.next() % 12)
      let header = (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }.joined()
      let delimiter = Self.delimiterRow(&random)
      let head = header + "\n" + delimiter + "\n"
      if CmarkReference.html(head + Self.rows).hasPrefix("<table>") { tables += 1 }
      #expect(Self.holds(head), "\(head.debugDescription): one paragraph to cmark-gfm, runs not limited")
    }
    // The random lines form tables often enough for the check to mean something.
    #expect(tables > 200)
  }

  /// A delimiter row: mostly well formed, some with cells cmark-gfm's table start refuses (empty,
  /// blank, a colon inside or doubled).
  static func delimiterRow(_ random: inout StreamingHarness.SeededGenerator) -> String {
    if random.next() % 2 == 0 { return ["|-|", "|-|-|", "-|-", "|-|-|-|", "|:-:|--|"][Int(random.next() % 5)] }
    let cells = ["-", "---", ":-", "-:", ":-:", " - ", "", " ", "::", "-:-", ":", "--:"]
    let count = 1 + Int(random.next() % 4)
    let row = (0..<count).map { _ in cells[Int(random.next() % UInt64(cells.count))] }.joined(separator: "|")
    return (random.next() % 2 == 0 ? "|" : "") + row + (random.next() % 2 == 0 ? "|" : "")
  }

  /// Fuzz seed 1257: `| --- | |-|` has an empty cell, so cmark-gfm opens no table under
  /// `| a | b | c |`, and reads the paragraph again after each `|-|` line below. The guard was sure
  /// of the table (cells counted plainly agree), and let those lines through to the document's
  /// budget: 2.5 KB took about a megabyte of re-reading per parse. It now checks each delimiter
  /// cell as cmark-gfm does, and limits the lines as in a paragraph.
  @Test func aDelimiterRowWithAnEmptyCellMakesNoSureTable() {
    let text = "| a | b | c |\n| --- | |-|\n" + String(repeating: "|-|-|\n|-|\n", count: 300)
    #expect(!CmarkReference.html(text).contains("<table>"))
    let guarded = InputGuard.apply(text)
    #expect(guarded.diagnostics.map(\.kind) == [.tableHeaderScan])
    #expect(CmarkReference.html(guarded.text) == CmarkReference.html(text))
    let sure = "| a | b | c |\n| --- | - |:-:|\n" + String(repeating: "|-|-|\n|-|\n", count: 300)
    #expect(CmarkReference.html(sure).hasPrefix("<table>"))
    #expect(InputGuard.apply(sure).diagnostics.isEmpty)
  }
}
