import ChatEngine
import Foundation
import Testing

@testable import ChatExport

@Suite("Export: text formats")
struct ThreadExportTests {
  private let utc = TimeZone(identifier: "UTC") ?? .current
  private let english = Locale(identifier: "en_US")

  private func thread() -> [ChatMessage] {
    let day = Date(timeIntervalSince1970: 1_772_357_400)  // 2026-03-01T09:30:00Z
    return [
      ChatMessage(role: .user, text: "Use *stars* # here", date: day),
      ChatMessage(role: .assistant, text: "**Yes**:\n\n```sh\nls\n```", date: day, feedback: .good),
      ChatMessage(role: .user, text: "More", date: day.addingTimeInterval(86_400)),
      ChatMessage(role: .assistant, text: "Partial", date: day.addingTimeInterval(86_400), state: .stopped),
      ChatMessage(role: .assistant, text: "", date: day.addingTimeInterval(86_400), state: .failed("Lost")),
    ]
  }

  @Test func transcriptIsTheEnginesWithSeparators() throws {
    let now = Date(timeIntervalSince1970: 1_772_357_400 + 86_400 + 60)
    #expect(
      ThreadExport.transcript(thread(), now: now, timeZone: utc, locale: english) == """
        Yesterday

        You: Use *stars* # here

        Assistant: Yes:

        ls

        Today

        You: More

        Assistant: Partial
        Stopped

        Assistant:\u{20}
        Failed: Lost
        """)
  }

  @Test func plainIsTheTurnsAlone() throws {
    #expect(
      ThreadExport.plain(thread()) == """
        You: Use *stars* # here

        Assistant: Yes:

        ls

        You: More

        Assistant: Partial
        Stopped

        Assistant:
        Failed: Lost
        """)
  }

  @Test func markdownHeadsEachDayAndQuotesThePerson() throws {
    #expect(
      ThreadExport.markdown(thread(), timeZone: utc, locale: english) == """
        ## March 1, 2026

        **You**

        > Use \\*stars\\* \\# here

        **Assistant**

        **Yes**:

        ```sh
        ls
        ```

        ## March 2, 2026

        **You**

        > More

        **Assistant**

        Partial

        *Stopped*

        **Assistant**

        *Failed: Lost*

        """)
  }

  @Test func anOpenFenceIsClosedSoItCannotSwallowLaterTurns() throws {
    #expect(ThreadExport.closingOpenFence("Start:\n\n````swift\nlet a = 1") == "Start:\n\n````swift\nlet a = 1\n````")
    #expect(ThreadExport.closingOpenFence("~~~\ncode") == "~~~\ncode\n~~~")
    #expect(ThreadExport.closingOpenFence("```\nclosed\n```") == "```\nclosed\n```")
    #expect(ThreadExport.closingOpenFence("plain text") == "plain text")
  }
}
