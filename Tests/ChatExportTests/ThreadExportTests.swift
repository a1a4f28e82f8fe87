import ChatEngine
import Foundation
import ReplyMarkdown
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

  /// A trial: a reply ending inside `<!--` hid every later turn of the exported markdown.
  @Test func anOpenHTMLBlockIsClosedSoItCannotSwallowLaterTurns() throws {
    #expect(ThreadExport.closingOpenHTMLBlock("Note:\n\n<!-- c") == "Note:\n\n<!-- c\n-->")
    #expect(ThreadExport.closingOpenHTMLBlock("<script>\nlet a = 1") == "<script>\nlet a = 1\n</script>")
    #expect(ThreadExport.closingOpenHTMLBlock("  <PRE class=x>\n\ntext") == "  <PRE class=x>\n\ntext\n</pre>")
    #expect(ThreadExport.closingOpenHTMLBlock("<?php echo") == "<?php echo\n?>")
    #expect(ThreadExport.closingOpenHTMLBlock("<![CDATA[ x") == "<![CDATA[ x\n]]>")
    #expect(ThreadExport.closingOpenHTMLBlock("<!DOCTYPE x") == "<!DOCTYPE x\n>")
    // Closed ones, and blocks a blank line ends, stay as written.
    #expect(ThreadExport.closingOpenHTMLBlock("<!-- c -->") == "<!-- c -->")
    #expect(ThreadExport.closingOpenHTMLBlock("<div>\nopen") == "<div>\nopen")
    #expect(ThreadExport.closingOpenHTMLBlock("`<!--` in code") == "`<!--` in code")
    let later = ChatMessage(role: .user, text: "LATER", date: Date(timeIntervalSince1970: 1_800_000_000))
    let markdown = ThreadExport.markdown(
      [
        ChatMessage(role: .user, text: "Hi", date: Date(timeIntervalSince1970: 1_799_999_000)),
        ChatMessage(role: .assistant, text: "<!-- c", date: Date(timeIntervalSince1970: 1_799_999_100)), later,
      ], timeZone: TimeZone(identifier: "UTC")!, locale: Locale(identifier: "en_US"))
    #expect(PlainTextRenderer().render(MarkdownDocument(markdown)).contains("LATER"), "\(markdown)")
  }

  /// Your text with CR or CRLF line breaks: what followed the first lone CR went out of the quote
  /// (an indented line became a code block; a trial). Every line ending starts a quoted line.
  @Test func everyLineEndingStaysInTheQuote() {
    let message = ChatMessage(
      role: .user, text: "first line\r\rsecond\r\n    indented?\nlast", date: Date(timeIntervalSince1970: 0))
    #expect(
      ThreadExport.markdownBlocks(message) == ["**You**", "> first line\n>\n> second\\\n>     indented?\\\n> last"])
    let document = MarkdownDocument(ThreadExport.markdownBlocks(message).joined(separator: "\n\n"))
    #expect(Array(document.topLevelBlocks).count == 2)
  }

  /// Lines of your text in one paragraph stay lines when the markdown is rendered again (a
  /// trial: a shopping list came back as one line); a line ending in a backslash keeps it.
  @Test func yourLinesStayLines() {
    let message = ChatMessage(
      role: .user, text: "Shopping list:\nmilk\neggs \\\n\nbread", date: Date(timeIntervalSince1970: 0))
    let markdown = ThreadExport.markdownBlocks(message).joined(separator: "\n\n")
    #expect(markdown == "**You**\n\n> Shopping list:\\\n> milk\\\n> eggs \\\\\n>\n> bread")
    #expect(
      PlainTextRenderer().render(MarkdownDocument(markdown)) == "You\n\n> Shopping list:\n> milk\n> eggs \\\n>\n> bread"
    )
  }
}
