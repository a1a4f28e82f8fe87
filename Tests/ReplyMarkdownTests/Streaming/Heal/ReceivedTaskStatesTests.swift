import Testing

@testable import ReplyMarkdown

/// A task item shows checked as its received line checks it (cmark-gfm checks an item whose line
/// holds `[x]` or `[X]` anywhere), not as the heal's closers make it read.
@Suite struct ReceivedTaskStatesTests {
  @Test(arguments: [
    ("* [ ] a [x", false),
    ("- [ ] b [X", false),
    ("1. [ ] c [x\n   more", false),
    ("* [ ] a [x]", true),
    ("* [x] a [y", true),
  ])
  func theBoxShowsTheReceivedLine(text: String, checkedAtEnd: Bool) {
    let shown = StreamingHarness.htmlDisplays(text, finishing: true)
    // Checked at no point before the received line holds `[x]`; as cmark-gfm renders at the end.
    for (index, display) in shown.enumerated() {
      let received = String(text.prefix(index + 1))
      let line = received.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
      let holds = line.contains("[x]") || line.contains("[X]")
      if display.contains("checkbox") {
        #expect(display.contains("checked=\"\"") == holds, "after \(received.debugDescription): \(display)")
      }
    }
    #expect(shown.last?.contains("checked=\"\"") == checkedAtEnd)
    #expect(shown.last == HTMLRenderer().render(MarkdownDocument(text)))
  }

  @Test func onlyLinesTheHealChangedAreRead() {
    let received = Array("- [ ] a\n- [ ] b [x".utf8)
    let healed = Array("- [ ] a\n- [ ] b [x](x-replykit-pending)".utf8)
    let parsed = MarkdownDocument(String(decoding: healed, as: UTF8.self))
    let states = { (document: MarkdownDocument) in
      document.nodes.compactMap { node -> MarkdownNode.TaskState? in
        if case .item(let task) = node.kind { return task }
        return nil
      }
    }
    #expect(states(parsed) == [.unchecked, .checked])
    let fixed = ReceivedTaskStates.apply(parsed, healed: healed, received: received)
    #expect(states(fixed) == [.unchecked, .unchecked])
    #expect(ReceivedTaskStates.apply(parsed, healed: received, received: received) == parsed)
  }

  @Test(
    arguments: [
      ("a\nb", 1, "a"), ("a\r\nb", 2, "b"), ("a\rb\n", 2, "b"), ("a\n", 2, ""), ("a", 2, nil),
    ] as [(String, Int, String?)])
  func linesCountAsCmarkGFMCountsThem(text: String, number: Int, line: String?) {
    let found = ReceivedTaskStates.line(number, of: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    #expect(found == line)
  }
}
