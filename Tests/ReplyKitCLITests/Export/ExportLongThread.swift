import Foundation

/// Long threads for the browser tests: `count` turns alternating question and reply, from a
/// seed, so every run lays out the same page. Replies vary from one line to several paragraphs
/// with lists, code and tables, so their heights are far from any estimate the page makes.
enum ExportLongThread {
  /// SplitMix64: small, fast and the same everywhere.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }

  private static let words = [
    "thread", "reply", "layout", "render", "buffer", "stream", "token", "cache", "index", "table", "column", "value",
    "swift", "parser", "string", "memory", "window", "scroll", "anchor", "number", "format", "option", "state",
  ]

  static func sentence(_ random: inout Generator) -> String {
    let count = 6 + random.below(14)
    var parts: [String] = []
    for _ in 0..<count { parts.append(words[random.below(words.count)]) }
    return parts.joined(separator: " ").prefix(1).uppercased() + parts.joined(separator: " ").dropFirst() + "."
  }

  static func reply(_ random: inout Generator) -> String {
    var blocks: [String] = []
    for _ in 0..<(1 + random.below(6)) {
      switch random.below(6) {
      case 0:
        blocks.append(
          "```swift\n" + (0..<(2 + random.below(12))).map { "let v\($0) = \($0 * 7) // note" }.joined(separator: "\n")
            + "\n```")
      case 1: blocks.append((0..<(2 + random.below(5))).map { _ in "- " + sentence(&random) }.joined(separator: "\n"))
      case 2:
        blocks.append(
          "| name | value | notes |\n|---|---|---|\n"
            + (0..<(1 + random.below(5))).map { "| row \($0) | \($0 * 3) | \(sentence(&random)) |" }.joined(
              separator: "\n"))
      default: blocks.append((0..<(1 + random.below(5))).map { _ in sentence(&random) }.joined(separator: " "))
      }
    }
    return blocks.joined(separator: "\n\n")
  }

  /// The archive JSON of the thread: a turn a minute from 1 March 2024.
  static func archive(count: Int, seed: UInt64 = 17) -> String {
    var random = Generator(state: seed)
    let start = Date(timeIntervalSince1970: 1_709_280_000)
    var turns: [(String, String, String, String, String?, String?)] = []
    for index in 0..<count {
      let date = ExportFixtures.iso(start.addingTimeInterval(Double(index) * 60))
      if index % 2 == 0 {
        turns.append(("user", "Question \(index / 2 + 1): \(sentence(&random))", date, "complete", nil, nil))
      } else {
        turns.append(("assistant", reply(&random), date, "complete", nil, nil))
      }
    }
    return ExportFixtures.archive(turns)
  }
}
