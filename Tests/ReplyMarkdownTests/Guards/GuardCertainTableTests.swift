import Testing

@testable import ReplyMarkdown

/// The guard counts the rows of a table it is sure of apart, and leaves its delimiter-like rows
/// alone, because cmark-gfm reads a real table once. A table it is sure of that cmark-gfm does not
/// form would let those rows through to cmark-gfm's re-reading (fuzz seed 1254 found one: a
/// header line with `\\|`). So, for random header lines: either cmark-gfm forms the table, or the
/// guard limits the rows after it as paragraph text.
@Suite struct GuardCertainTableTests {
  static let alphabet: [String] = [
    "a", "b", " ", "|", "|", "*", "_", "`", "[", "]", "<", ">", "&", "\\", "-", ":", "~", "!", "(", ")", "=",
    "é", "#", "\t", "\\\\", "\\|", "`|",
  ]

  static func holds(_ text: String) -> Bool {
    CmarkReference.html(text).hasPrefix("<table>")
      || InputGuard.apply(text, limits: InputLimits(maxTableHeaderScan: 16)).diagnostics.contains {
        $0.kind == .tableHeaderScan
      }
  }

  @Test(arguments: ["*foo [*\\\\|-|\n|-|-|\n", "a \\\\|b|\n|-|-|\n", "a|b\\\\|\n|-|-|\n"])
  func foundCases(head: String) {
    #expect(Self.holds(head + String(repeating: "|-|-|\n|-|\n", count: 15)), "\(head.debugDescription)")
  }

  @Test func aTableTheGuardIsSureOfIsOneCmarkGFMForms() {
    var random = SplitMix(seed: 0x7A8B_1254)
    let rows = String(repeating: "|-|-|\n|-|\n", count: 15)
    let limits = InputLimits(maxTableHeaderScan: 16)
    var tables = 0
    for _ in 0..<3_000 {
      let length = 1 + Int(random.next() % 12)
      let header = (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }.joined()
      let delimiter = ["|-|", "|-|-|", "-|-", "|-|-|-|", "|:-:|--|"][Int(random.next() % 5)]
      let text = header + "\n" + delimiter + "\n" + rows
      let formed = CmarkReference.html(text).hasPrefix("<table>")
      if formed { tables += 1 }
      let guarded = InputGuard.apply(text, limits: limits)
      #expect(
        formed || guarded.diagnostics.contains { $0.kind == .tableHeaderScan },
        "\(text.prefix(40).debugDescription): no table, rows not limited")
    }
    // The random lines form tables often enough for the check to mean something.
    #expect(tables > 300)
  }

  /// SplitMix64: a small seeded generator of our own, so the inputs are the same on every run.
  struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
