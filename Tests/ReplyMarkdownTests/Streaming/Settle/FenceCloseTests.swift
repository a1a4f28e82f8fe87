import Testing

@testable import ReplyMarkdown

/// A long fence that a line closes commits without a parse of its code
/// (`MarkdownStream.commitClosedFence`): the committed block must be the one the parsed path
/// commits (its code, info and positions), the display the same after every update, and the
/// closing update must parse only the two lines that decide.
@Suite struct FenceCloseTests {
  static let fences = [
    "```swift\nlet x = 1\n\tlet y = \"\\u{1F600}\"\n\n```\nafter\n",
    "  ```\n  two\n   three\n one\nfour\n  \tfive\n   ```   \nnext\n",
    "~~~ info &amp; \\* x\ncode ```\n~~~ not\n~~~~~\n",
    "````\n```\n````\n",
    "```\nA\nB\n```\r\nafter\r\n",
    "```\r\ncode\r\n```\r\n",
    "```\n\n\n```\n",
    "text\n\n```\ncode\n```\n",
    "[x]\n\n```\n[x]: /u\n```\n\n[x]: /v\n",
    "```\ncode\n```\n- list\n- more\n",
    "```\ncode\n```\n```\nsecond\n```\n",
    "```\n" + String(repeating: "let value = compute(1) // a line of code\n", count: 300) + "```\n\nafter\n",
    "   ```\n" + String(repeating: "    indented more\n  less\n", count: 50) + "   ```\n",
    "```\n\u{0}nul\n```\n",
  ]

  /// The committed blocks of `text` fed one line per chunk, with or without the stream's
  /// shortcuts.
  static func committed(_ text: String, fastPaths: Bool) -> [MarkdownStreamBlock] {
    var stream = MarkdownStream()
    stream.fastPaths = fastPaths
    var blocks: [MarkdownStreamBlock] = []
    var line = ""
    for character in text {
      line.append(character)
      if character == "\n" || character == "\r" || character == "\r\n" {
        blocks += stream.feed(line).committed
        line = ""
      }
    }
    if !line.isEmpty { blocks += stream.feed(line).committed }
    blocks += stream.finish().committed
    return blocks
  }

  @Test(arguments: fences)
  func aClosedFenceCommitsWhatTheParseCommits(text: String) {
    let fast = Self.committed(text, fastPaths: true)
    let slow = Self.committed(text, fastPaths: false)
    #expect(fast.map(\.document) == slow.map(\.document))
    #expect(fast.map(\.sourceRange) == slow.map(\.sourceRange))
    #expect(StreamingFastPathTests.firstDifference([text]) == nil)
    #expect(StreamingFastPathTests.firstDifference(text.map { String($0) }) == nil)
    for seed in UInt64(1)...3 {
      #expect(StreamingFastPathTests.firstDifference(StreamingHarness.randomCharacterChunks(text, seed: seed)) == nil)
    }
  }

  /// A 20 KB fence in 20-byte chunks: the update its closing line completes parses the opening
  /// line, the closing line and a line after them, not the code (before, all 20 KB).
  @Test func closingALongFenceParsesTheDecidingLinesOnly() {
    let code = String(repeating: "let value = compute(1) // a line of code\n", count: 500)
    let bytes = Array(("```swift\n" + code).utf8)
    var stream = MarkdownStream()
    var largest = 0
    for start in stride(from: 0, to: bytes.count, by: 20) {
      largest = max(largest, stream.feed(bytes: bytes[start..<min(bytes.count, start + 20)]).statistics.parsedBytes)
    }
    let closing = stream.feed("```\n")
    #expect(closing.committed.count == 1)
    #expect(closing.statistics.parsedBytes <= 20)
    #expect(largest <= 20)
    guard case .codeBlock(let info) = closing.committed.first?.document.nodes[1].kind else {
      Issue.record("no code block committed")
      return
    }
    #expect(info.code == code)
  }
}
