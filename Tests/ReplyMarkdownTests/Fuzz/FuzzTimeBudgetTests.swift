import Foundation
import ReplyKitFuzz
import Testing

/// The oracle's time budget: a base per byte, and room for the streams' parses where cmark-gfm
/// itself is slow on the input.
@Suite struct FuzzTimeBudgetTests {
  /// Fuzz seed 1371 on 5f67074: 23,142 bytes, about 1,500 lines of `[x]: u` in one paragraph
  /// before a 5 KB line, whose one-shot parse took 0.04 s of CPU (the `cmark-gfm` tool takes as
  /// long) and every check 0.78 s, over the 0.73 s the bytes alone allow.
  @Test func slowParsesWidenTheBudget() {
    let bytes = 23_142
    let base = FuzzOracle.timeBudget(forBytes: bytes)
    #expect(abs(base - 0.73142) < 1e-9)
    #expect(base < 0.78)
    let widened = FuzzOracle.timeBudget(forBytes: bytes, parseSeconds: 0.04)
    #expect(abs(widened - (base + Double(FuzzOracle.parsesAllowed) * 0.04)) < 1e-9)
    #expect(widened > 0.78)
  }

  /// A fast parse adds next to nothing, and a clock that went backwards nothing: a check that
  /// outgrows its input still fails.
  /// But a parse past the bytes' budget on its own is a failure: the widened budget let a parse
  /// of 43 KB that took 92 s pass (fuzz seed 1448, before b8633c4).
  @Test func aParsePastTheBytesBudgetIsTooSlow() {
    #expect(FuzzOracle.parseIsTooSlow(seconds: 92, bytes: 43_253))
    #expect(FuzzOracle.parseIsTooSlow(seconds: 0.94, bytes: 43_253))
    #expect(!FuzzOracle.parseIsTooSlow(seconds: 0.04, bytes: 23_142))
    #expect(!FuzzOracle.parseIsTooSlow(seconds: 0.9, bytes: 43_253))
  }

  @Test func fastParsesKeepTheBudget() {
    let base = FuzzOracle.timeBudget(forBytes: 1_000)
    #expect(FuzzOracle.timeBudget(forBytes: 1_000, parseSeconds: -1) == base)
    #expect(FuzzOracle.timeBudget(forBytes: 1_000, parseSeconds: 0.0001) < base + 0.01)
  }

  /// The streaming check looks for the healer's markers in every update's display with a byte
  /// search, which answers as `contains` does (fuzz seed 1439: Foundation's `contains` on a
  /// megabyte of HTML per update took the check past its budget).
  @Test(arguments: [
    ("", "x", false), ("abc", "abc", true), ("abc", "abcd", false), ("ab", "b", true),
    ("aab", "ab", true), ("<!-<!--\u{1}", "<!--\u{1}", true), ("<!--\u{2}", "<!--\u{1}", false),
    ("é x-replykit-pending", "x-replykit-pending", true), ("x-replykit-pendin", "x-replykit-pending", false),
    ("日本語", "本", true), ("日本語", "語x", false),
  ])
  func markersAreFoundAsContainsFindsThem(text: String, part: String, found: Bool) {
    #expect(FuzzOracle.holds(text, part) == found)
    #expect(FuzzOracle.holds(text, part) == text.contains(part))
  }
}
