import ChatEngine
import Foundation
import Testing

@MainActor
@Suite("Rows, accessibility and transcript")
struct PresentationTests {
  @Test func anEmptyThreadDrawsNothing() throws {
    let h = Harness()
    #expect(h.thread.rows.isEmpty)
    #expect(h.thread.daySections.isEmpty)
    #expect(h.thread.transcript == "")
  }

  @Test func loadingDrawsGhostTurns() throws {
    let h = Harness()
    h.thread.isLoading = true
    #expect(h.thread.rows.map(\.id) == [.ghost(0), .ghost(1), .ghost(2), .ghost(3)])
    #expect(ChatGhostTurn.loading.map(\.role) == [.user, .assistant, .user, .assistant])
    h.thread.isLoading = false
    #expect(h.thread.rows.isEmpty)
  }

  @Test func rowsAreSeparatorsThenTurns() throws {
    let yesterday = referenceDate.addingTimeInterval(-86_400)
    let thread = [
      ChatMessage(id: testID(1), role: .user, text: "Old", date: yesterday),
      ChatMessage(id: testID(2), role: .assistant, text: "Old answer", date: yesterday),
      ChatMessage(id: testID(3), role: .user, text: "New", date: referenceDate),
      ChatMessage(id: testID(4), role: .assistant, text: "New answer", date: referenceDate, state: .stopped),
    ]
    let h = Harness(messages: thread)
    #expect(
      h.thread.rows.map(\.id) == [
        .day(testID(1)), .turn(testID(1)), .turn(testID(2)), .day(testID(3)), .turn(testID(3)), .turn(testID(4)),
      ])
    guard case .daySeparator(let section) = h.thread.rows[3] else {
      Issue.record("expected a separator")
      return
    }
    #expect(section.title == "Today")
    #expect(h.thread.turn(at: 1).actions?.canRegenerate == false)
    #expect(h.thread.turn(at: 3).actions?.canRegenerate == true)
    #expect(h.thread.turn(at: 3).isStopped)
  }

  @Test func accessibilityReadsEachTurnWithItsState() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("What is **2+2**?")
    let reply = h.last?.id ?? UUID()
    #expect(
      h.thread.accessibility(for: reply) == ChatTurnAccessibility(label: "Assistant", value: "", state: "Thinking"))
    h.source.yield("It is **4**.")
    #expect(await until { h.last?.text == "It is **4**." })
    #expect(h.thread.accessibility(for: reply)?.state == "Streaming")
    // Never announced per chunk.
    #expect(h.recorder.announcements.isEmpty)
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    let element = h.thread.accessibility(for: reply)
    #expect(element == ChatTurnAccessibility(label: "Assistant", value: "It is 4.", state: nil))
    #expect(element?.spokenText == "Assistant. It is 4.")
    #expect(h.thread.accessibility(for: h.thread.messages[0].id)?.label == "You")
    #expect(h.recorder.announcements == [.replyFinished])
    #expect(ChatAnnouncement.replyFinished.text == "Reply finished")
    #expect(ChatAnnouncement.replyFailed("x").text == "Reply failed: x")
  }

  @Test func transcriptHasSeparatorsTurnsAndStates() throws {
    let yesterday = referenceDate.addingTimeInterval(-86_400)
    let thread = [
      ChatMessage(id: testID(1), role: .user, text: "Hi", date: yesterday),
      ChatMessage(id: testID(2), role: .assistant, text: "- one\n- **two**", date: yesterday, state: .stopped),
      ChatMessage(id: testID(3), role: .user, text: "Again", date: referenceDate),
      ChatMessage(id: testID(4), role: .assistant, text: "Sorry", date: referenceDate, state: .failed("Offline.")),
    ]
    let h = Harness(messages: thread)
    #expect(
      h.thread.transcript == """
        Yesterday

        You: Hi

        Assistant: • one
        • two
        Stopped

        Today

        You: Again

        Assistant: Sorry
        Failed: Offline.
        """)
  }

  @Test func sectionsAreCachedUntilTheThreadOrTheDayChanges() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    #expect(h.thread.daySections.map(\.title) == ["Today"])
    h.source.yield("a")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    h.clock.advance(by: 86_400)
    #expect(h.thread.daySections.map(\.title) == ["Yesterday"])
    try h.thread.send("Next day")
    #expect(h.thread.daySections.map(\.title) == ["Yesterday", "Today"])
    #expect(h.thread.daySections.map(\.range) == [0..<2, 2..<4])
  }

  @Test func sampleIsAQuestionAndAMarkdownAnswer() throws {
    let sample = ChatMessage.sample
    #expect(sample.map(\.role) == [.user, .assistant])
    #expect(sample[1].text.contains("**"))
    #expect(sample[1].text.contains("```swift"))
    #expect(sample[1].text.contains("\n- "))
    #expect(Set(sample.map(\.id)).count == 2)
    let plain = ReplyFormatter.standard.plainText(sample[1].text)
    #expect(plain.contains("• Mark slow functions async and call them with await.\n• Hop back"))
    #expect(!plain.contains("**"))
    #expect(ReplyFormatter.standard.codeBlocks(sample[1].text).first?.hasPrefix("func refresh() {\n") == true)
    #expect(ReplyFormatter.standard.codeBlocks(sample[1].text).first?.hasSuffix("}") == true)
  }

  @Test func standardPlainTextFollowsTheCopyRules() throws {
    let standard = ReplyFormatter.standard
    #expect(standard.plainText("# Title\n\nLine one\nline two  \nthree") == "Title\n\nLine one line two\nthree")
    #expect(standard.plainText("3. a\n4. [x] b\n\n   more") == "3. a\n\n4. ☑ b\n\n     more")
    #expect(standard.plainText("| a | b |\n|---|---|\n| 1 | 2 |") == "a\tb\n1\t2")
    #expect(standard.plainText("[link](https://x.org) ~~gone~~") == "link (https://x.org) gone")
    #expect(standard.codeBlocks("```sh\nls\n```\n\n    two\n") == ["ls", "two"])
  }
}

@MainActor
@Suite("Cached day sections")
struct CachedSectionTests {
  @Test func incrementalSectionsEqualThePureFunctionAcrossDays() async throws {
    var random = SplitMix64(seed: 3)
    let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    let past = (0..<40).map { index in
      ChatMessage(
        id: testID(1_000 + index), role: index.isMultiple(of: 2) ? .user : .assistant, text: "m\(index)",
        date: referenceDate.addingTimeInterval(Double(index - 40) * 20_000))
    }
    let h = Harness(messages: past, timeZone: zone, publishInterval: 0)
    for step in 0..<60 {
      switch random.next() % 4 {
      case 0: try h.thread.send("s\(step)")
      case 1:
        h.source.yield("r")
        h.source.finish()
        _ = await until { !h.thread.isStreaming }
      case 2: if let last = h.last { _ = try? h.thread.regenerate(last.id) }
      default: h.clock.advance(by: Double(random.next() % 40_000))
      }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      let expected = ChatDaySection.sections(
        for: h.thread.messages, now: h.clock.now(), calendar: calendar, timeZone: zone,
        locale: Locale(identifier: "en_US"))
      #expect(h.thread.daySections == expected, "step \(step)")
    }
  }
}
