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
          // And where the last line starts, kept the same way (the open part's last line).
          #expect(
            received.lastLineStart(floor: start)
              == SourceLines.lineStart(received.bytes, before: received.count, floor: start),
            "seed \(seed), \(received.count) bytes, floor \(start)")
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

/// A byte order mark that starts the reply: cmark-gfm drops it before it reads the first line, so
/// the stream drops it on arrival (a trial found `# Title` after one streamed as a paragraph
/// showing the mark, while `render` made a heading). One anywhere else is text in both.
extension ReceivedTextTests {
  @Test func aByteOrderMarkStartingTheReplyIsDroppedOnce() {
    for split in 0...4 {
      var received = ReceivedText()
      let bytes: [UInt8] = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x23]
      _ = received.append(bytes: bytes[..<split])
      _ = received.append(bytes: bytes[split...])
      #expect(received.bytes == [0xEF, 0xBB, 0xBF, 0x23], "split at \(split)")
    }
    var text = ReceivedText()
    #expect(text.append("\u{FEFF}") == false)
    #expect(text.append("\u{FEFF}a") == true)
    #expect(text.bytes == Array("\u{FEFF}a".utf8))
    var late = ReceivedText()
    _ = late.append(bytes: Array("a\n\u{FEFF}b".utf8))
    #expect(late.bytes == Array("a\n\u{FEFF}b".utf8))
  }

  @Test(arguments: [
    "\u{FEFF}# Title\n\ntext\n", "\u{FEFF}\u{FEFF}# Title\n", "a\n\n\u{FEFF}# b\n", "\u{FEFF}| a |\n|---|\n| b |\n",
    "\u{FEFF}[x]\n\n[x]: /u\n",
    // A second mark is text, also in the parse of the whole reply that ends a stream that committed
    // a block past the held budget, or a footnote reference before its definition (review).
    "\u{FEFF}\u{FEFF}See [x].\n\n"
      + String(repeating: "A paragraph of about a hundred bytes, long enough to pass the budget soon.\n\n", count: 60),
    "\u{FEFF}\u{FEFF}a[^1]\n\n[^1]: b\n\nc\n",
  ])
  func aStreamEndsAsOneShotWithAByteOrderMark(text: String) {
    let document = MarkdownDocument(text)
    for chunk in [1, 2, 3, 4, 64] {
      let streamed = StreamingHarness.streamAllConsumers(text, chunk: chunk)
      #expect(streamed.html == HTMLRenderer().render(document), "chunk \(chunk)")
      #expect(streamed.plain == PlainTextRenderer().render(document), "chunk \(chunk)")
      #expect(
        streamed.terminalLines == ANSIRenderer(options: ANSIOptions(width: 60)).renderLines(document),
        "chunk \(chunk)")
    }
  }
}

/// Found by a trial of the library (2026-12-03): text and byte chunks mixed, and a second
/// `finish()`.
extension ReceivedTextTests {
  /// A character whose first bytes wait when text arrives can no longer complete: it becomes
  /// U+FFFD in its place, as one-shot decoding makes it (the text used to jump ahead of it).
  @Test func textAfterAnIncompleteCharacterKeepsTheOrder() {
    var stream = MarkdownStream()
    _ = stream.feed(bytes: [0x61, 0xC3])
    _ = stream.feed("b")
    _ = stream.feed(bytes: [0xA9, 0x0A])
    _ = stream.finish()
    let oneShot = String(decoding: [0x61, 0xC3, 0x62, 0xA9, 0x0A] as [UInt8], as: UTF8.self)
    #expect(stream.text == oneShot)
    #expect(stream.text == "a\u{FFFD}b\u{FFFD}\n")
  }

  /// The committed bytes never decrease, also over a second `finish()`.
  @Test func aSecondFinishKeepsTheFigures() {
    var stream = MarkdownStream()
    _ = stream.feed("# Title\n\nSome text.\n")
    let first = stream.finish()
    let second = stream.finish()
    #expect(first.statistics.committedBytes == 20)
    #expect(second.statistics.committedBytes == first.statistics.committedBytes)
    #expect(second.statistics.parsedBytes == 0 && second.isFinal && second.committed.isEmpty)
  }
}

extension ReceivedTextTests {
  /// ``ReceivedText/lineBreaks(in:)``, which counts eight bytes at a time, against a count byte by
  /// byte, over every range of texts dense and sparse in `\n`, `\r` and `\r\n`, whatever their
  /// alignment.
  @Test func lineBreaksCountAsAByteByByteCount() {
    func expected(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
      var count = 0
      var index = range.lowerBound
      while index < range.upperBound {
        if bytes[index] == ASCII.newline {
          count += 1
        } else if bytes[index] == ASCII.carriageReturn {
          count += 1
          if index + 1 < range.upperBound && bytes[index + 1] == ASCII.newline { index += 1 }
        }
        index += 1
      }
      return count
    }
    var random: UInt64 = 7
    for density in [2, 5, 40] {
      var received = ReceivedText()
      var bytes: [UInt8] = []
      for _ in 0..<300 {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pick = Int(random >> 33) % density
        bytes.append(
          pick == 0 ? ASCII.newline : pick == 1 ? ASCII.carriageReturn : UInt8(ascii: "a") + UInt8(pick % 20))
      }
      _ = received.append(bytes: bytes)
      for start in stride(from: 0, to: bytes.count, by: 3) {
        for end in start...bytes.count {
          #expect(
            received.lineBreaks(in: start..<end) == expected(bytes, start..<end), "density \(density) \(start)..<\(end)"
          )
        }
      }
    }
    // Past 31 words the count of each word's matches restarts: all line feeds, 4 KB.
    var received = ReceivedText()
    _ = received.append(bytes: [UInt8](repeating: ASCII.newline, count: 4099))
    #expect(received.lineBreaks(in: 0..<4099) == 4099)
    #expect(received.lineBreaks(in: 3..<4000) == 3997)
  }
}
