import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// ``ReceivedText/completeEnd(from:)``, kept as bytes arrive, against a scan of the whole text
/// (``SourceLines/completeEnd(_:from:to:)``) after every chunk of seeded chunkings, with the three
/// line endings split across chunks.
@Suite struct ReceivedTextTests {
  @Test(arguments: [
    "one\ntwo\r\nthree\rfour", "a\r", "a\r\n", "\r\r\n\n", "no terminator at all", "x\n", "\u{e9}\r\u{1F600}\n\u{e9}",
  ])
  func completeEndMatchesAScanAfterEveryChunk(text: String) {
    let bytes = Array(text.utf8)
    for seed in UInt64(1)...40 {
      var random = seed &* 0x9E37_79B9_7F4A_7C15
      var received = ReceivedText()
      var offset = 0
      while offset < bytes.count {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let end = min(bytes.count, offset + 1 + Int((random >> 33) % 4))
        _ = received.append(bytes: bytes[offset..<end])
        offset = end
        for start in 0...received.count {
          #expect(
            received.completeEnd(from: start)
              == SourceLines.completeEnd(received.bytes, from: start, to: received.count),
            "seed \(seed), \(received.count) bytes, from \(start)")
        }
      }
    }
  }

  @Test func stringChunksKeepItToo() {
    var received = ReceivedText()
    _ = received.append("a\r")
    #expect(received.completeEnd(from: 0) == 0)
    _ = received.append("\nb")
    #expect(received.completeEnd(from: 0) == 3)
    _ = received.append("c\rd")
    #expect(received.completeEnd(from: 0) == 6)
    #expect(received.completeEnd(from: 7) == 7)
  }
}

extension ReceivedTextTests {
  /// A seeded mixed reply (CJK, emoji, CRLF) in 20-byte chunks: the kept end equals a scan after
  /// every chunk.
  @Test func aMixedReplyKeepsTheSameEnd() {
    let bytes = Array(MixedReplyGenerator(seed: 1).reply(bytes: 100_000).utf8)
    var received = ReceivedText()
    var offset = 0
    var differences = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 20)
      _ = received.append(bytes: bytes[offset..<end])
      offset = end
      if received.completeEnd(from: 0) != SourceLines.completeEnd(received.bytes, from: 0, to: received.count) {
        differences += 1
      }
    }
    #expect(differences == 0)
  }
}
