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

  /// Events completed before an overlong line in the same read are returned; the fault comes
  /// on the next call, and on every call after it.
  @Test func eventsBeforeAFaultAreNotLost() throws {
    var parser = ServerSentEventParser()
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: ServerSentEventParser.maximumLineBytes + 1)
    let events = try parser.feed(Array("data: first\n\n".utf8) + long + Array("\n\ndata: after\n\n".utf8))
    #expect(events == [ServerSentEvent(data: "first")])
    let next = #expect(throws: ModelError.self) { try parser.feed(Array("data: more\n\n".utf8)) }
    #expect(next == .malformedEvent(detail: "a line longer than 8388608 bytes"))
    #expect(throws: ModelError.self) { try parser.finish() }
    var alone = ServerSentEventParser()
    #expect(throws: ModelError.self) { try alone.feed(long) }
  }

  /// `data:` lines with no empty line after them stop at 8 MiB in all, with an error.
  @Test func oneEventsDataIsBounded() throws {
    var parser = ServerSentEventParser()
    let line = Array(("data: " + String(repeating: "y", count: 1023) + "\n").utf8)
    let megabyte = Array([[UInt8]](repeating: line, count: 1024).joined())
    var fed = 0
    var fault: ModelError?
    while fault == nil && fed < 64 {
      do {
        _ = try parser.feed(megabyte)
        fed += 1
      } catch {
        fault = error
      }
    }
    #expect(fed == ServerSentEventParser.maximumEventBytes >> 20)
    #expect(
      fault == .malformedEvent(detail: "an event with more than 8388608 bytes of data (no empty line ends it)"))
    // Just under the limit is fine: 8 lines of 1,048,575 bytes and the 7 line feeds joining them.
    var under = ServerSentEventParser()
    let piece = "data: " + String(repeating: "z", count: (1 << 20) - 1) + "\n"
    let events = try under.feed(Array((String(repeating: piece, count: 8) + "\n").utf8))
    #expect(events.first?.data.utf8.count == ServerSentEventParser.maximumEventBytes - 1)
  }

  /// At the end of the stream, the event still being read is handed over when it has data.
  @Test func finishHandsOverAnUnterminatedEvent() throws {
    for ending in ["data: [DONE]", "data: [DONE]\n", "data: [DONE]\r", "data: [DONE]\r\n"] {
      var parser = ServerSentEventParser()
      #expect(try parser.feed(Array(("data: a\n\n" + ending).utf8)) == [ServerSentEvent(data: "a")])
      #expect(try parser.finish() == ServerSentEvent(data: "[DONE]"), "\(ending.debugDescription)")
      #expect(try parser.finish() == nil)
    }
    var parser = ServerSentEventParser()
    #expect(try parser.feed(Array("data: a\n\nevent: x".utf8)).count == 1)
    #expect(try parser.finish() == nil)
  }
}
