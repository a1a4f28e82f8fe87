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
      let delimiter = ["|-|", "|-|-|", "-|-", "|-|-|-|", "|:-:|--|"][Int(random.next() % 5)]
      let head = header + "\n" + delimiter + "\n"
      if CmarkReference.html(head + Self.rows).hasPrefix("<table>") { tables += 1 }
      #expect(Self.holds(head), "\(head.debugDescription): one paragraph to cmark-gfm, runs not limited")
    }
    // The random lines form tables often enough for the check to mean something.
    #expect(tables > 200)
  }
}
