import ChatModels
import ReplyKitTestSupport
import Testing

@Suite struct ServerSentEventParserTests {
  /// Feeds `text` split at every byte offset (and byte by byte) and checks the events never change.
  private func eventsAtEverySplit(_ text: String) throws -> [ServerSentEvent] {
    let bytes = Array(text.utf8)
    var whole = ServerSentEventParser()
    let expected = try whole.feed(bytes)
    for split in 0...bytes.count {
      var parser = ServerSentEventParser()
      let events = try parser.feed(bytes[..<split]) + parser.feed(bytes[split...])
      #expect(events == expected, "split at \(split)")
    }
    var single = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    for byte in bytes { events += try single.feed([byte]) }
    #expect(events == expected)
    return expected
  }

  @Test func dataLinesCommentsAndEventTypes() throws {
    let events = try eventsAtEverySplit(
      "\u{FEFF}: keep-alive\n\nevent: ping\ndata: {}\n\ndata: a\ndata:b\nid: 7\nretry: 10\n\ndata: é😀\n\n")
    #expect(
      events == [
        ServerSentEvent(type: "ping", data: "{}"), ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "é😀"),
      ])
  }

  @Test func lineEndingsCRLFAndCR() throws {
    let events = try eventsAtEverySplit("event: x\r\ndata: 1\r\n\r\ndata: 2\r\rdata: 3\n\n")
    #expect(events == [ServerSentEvent(type: "x", data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3")])
  }

  @Test func eventWithoutDataIsDroppedAndPartialEventIsReported() throws {
    var parser = ServerSentEventParser()
    #expect(try parser.feed(Array("event: lonely\n\ndata: cut".utf8)).isEmpty)
    #expect(parser.hasPartialEvent)
  }

  @Test func openAIAndAnthropicStreamsAtEverySplit() throws {
    let openAI = try eventsAtEverySplit(Wire.openAIStream(["Hé", "llo 😀"]))
    #expect(openAI.last == ServerSentEvent(data: "[DONE]"))
    let anthropic = try eventsAtEverySplit(Wire.anthropicStream(["Hé", "llo"]))
    #expect(anthropic.map(\.type).last == "message_stop")
  }
}
