import Foundation
import Testing

@testable import ReplyMarkdown

/// P1 (chunk invariance), P3 (no raw-syntax flash) and P4 (no retraction) over the corpus and the
/// spec examples, and the chunk cases of `../shared/streaming/chunk-cases.jsonl`.
@Suite struct StreamingPropertyTests {
  static func oneShot(_ text: String) -> String { HTMLRenderer().render(MarkdownDocument(text)) }

  @Test func chunkCasesHold() throws {
    // K01: a lone 👨 whose width changes is never shown.
    var frames = StreamingHarness.stream(["Family: 👨", "‍👩‍👧 done"]).frames
    #expect(!frames[0].html.contains("👨"))
    #expect(frames[1].html.contains("👨‍👩‍👧"))
    // K02: the accent joins its letter.
    let k02 = StreamingHarness.stream(["cafe", "\u{301} au lait"])
    #expect(k02.frames[0].html.contains("cafe"))
    #expect(k02.frames[1].html.contains("caf\u{E9}") || k02.frames[1].html.contains("cafe\u{301}"))
    #expect(k02.final == Self.oneShot("cafe\u{301} au lait"))
    // K03: a flag is never two letters.
    frames = StreamingHarness.stream(["🇺", "🇸 flag"]).frames
    #expect(!frames[0].html.contains("🇺"))
    #expect(frames[1].html.contains("🇺🇸"))
    // K04: CRLF split across chunks gives one line break.
    let k04 = StreamingHarness.stream(["line one\r", "\nline two"])
    #expect(!k04.frames[0].html.contains("\r"))
    #expect(k04.final == Self.oneShot("line one\r\nline two"))
    // K05: never a literal '*'.
    let k05 = StreamingHarness.stream(["**bo", "ld** and *", "*x**"])
    #expect(StreamingHarness.normalise(k05.frames[0].html) == "<p><strong>bo</strong></p>")
    #expect(StreamingHarness.normalise(k05.frames[1].html) == "<p><strong>bold</strong> and</p>")
    #expect(StreamingHarness.normalise(k05.frames[2].html) == "<p><strong>bold</strong> and <strong>x</strong></p>")
    // K06: no literal backticks; python; the partial closing fence held; 'after' a paragraph.
    let k06 = StreamingHarness.stream(["``", "`py", "thon\nx = 1\n``", "`\nafter"])
    for frame in k06.frames { #expect(!frame.html.contains("`"), "\(frame.html)") }
    #expect(k06.frames[2].html == "<pre><code class=\"language-python\">x = 1\n</code></pre>\n")
    #expect(k06.frames[3].html.hasSuffix("<p>after</p>\n"))
    // K09: bytes split inside a code point never show U+FFFD.
    let bytes = Array("你好 🌍".utf8)
    for split in 1..<bytes.count {
      let result = StreamingHarness.streamBytes(bytes, lengths: [split, bytes.count])
      for frame in result.frames { #expect(!frame.contains("\u{FFFD}")) }
      #expect(result.final == Self.oneShot("你好 🌍"))
    }
    let oneByte = StreamingHarness.streamBytes(bytes, lengths: Array(repeating: 1, count: bytes.count))
    for frame in oneByte.frames { #expect(!frame.contains("\u{FFFD}")) }
    // Invalid bytes become U+FFFD at the end, exactly as one-shot decoding.
    let invalid: [UInt8] = [0x61, 0xE2, 0x82, 0x41, 0xF0, 0x9F, 0x98]
    for length in 1...3 {
      let result = StreamingHarness.streamBytes(invalid, lengths: Array(repeating: length, count: invalid.count))
      #expect(result.final == HTMLRenderer().render(MarkdownDocument(bytes: invalid)))
    }
  }

  @Test func corpusIsComplete() throws {
    #expect(try SharedData.corpusReplies().count == 30)
    #expect(StreamingHarness.corpus.count == 30)
  }

  /// P1 for one corpus reply (each reply is its own test case, so the cases spread over the cores).
  @Test(arguments: StreamingHarness.corpus.indices)
  func corpusIsChunkInvariant(index: Int) throws {
    let (name, text) = StreamingHarness.corpus[index]
    let expected = Self.oneShot(text)
    #expect(expected == CmarkReference.html(text), "P2 \(name)")
    #expect(StreamingHarness.stream([text], recordFrames: false).final == expected, "single chunk \(name)")
    // One Character at a time: `corpusPrefixesNeverFlashOrRetract` streams every reply so and
    // checks its final HTML against one-shot rendering (not repeated here, to keep the suites
    // fast in a debug build).
    if name.contains("emoji") || name.contains("korean") || name.contains("arabic") {
      #expect(
        StreamingHarness.stream(text.unicodeScalars.map { String($0) }, recordFrames: false).final == expected,
        "one scalar \(name)")
    }
    let bytes = Array(text.utf8)
    // One byte at a time: the replies in non-Latin scripts. Every reply: each byte of every
    // multi-byte character alone (so every character is split at every byte boundary), the ASCII
    // between them in random runs; one ASCII byte at a time is one Character at a time, which the
    // P3/P4 prefix test streams for every reply. (This sampling keeps the streaming suites well
    // under a minute in a debug build.)
    if ["emoji", "korean", "arabic", "chinese", "kyoto"].contains(where: name.contains) {
      #expect(
        StreamingHarness.streamBytes(bytes, lengths: Array(repeating: 1, count: bytes.count), recordFrames: false)
          .final == expected, "one byte \(name)")
    }
    #expect(
      StreamingHarness.streamBytes(
        bytes, lengths: StreamingHarness.splittingMultiByteCharacters(bytes, seed: UInt64(index + 3)),
        recordFrames: false
      ).final == expected, "multi-byte characters byte by byte \(name)")
    for seed in UInt64(1)...1 {
      // Random Character chunks: `StreamingLineRendererTests` streams every reply so through the
      // HTML, plain and terminal consumers at once and checks all three final outputs.
      let lengths = StreamingHarness.randomLengths(total: bytes.count, seed: seed, maximum: 40)
      #expect(
        StreamingHarness.streamBytes(bytes, lengths: lengths, recordFrames: false).final == expected,
        "random bytes \(seed) \(name)")
    }
  }

  @Test func specExamplesAreChunkInvariant() throws {
    let examples = try SharedData.specExamples()
    guard !examples.isEmpty else {
      print("streaming P1: skipped the spec examples (../shared is absent)")
      return
    }
    var failures: [String] = []
    for (index, (file, example)) in examples.enumerated() {
      let text = example.markdown
      let expected = Self.oneShot(text)
      var results = [
        ("single", StreamingHarness.stream([text], recordFrames: false).final),
        ("character", StreamingHarness.stream(text.map { String($0) }, recordFrames: false).final),
      ]
      let bytes = Array(text.utf8)
      results.append(
        (
          "random bytes",
          StreamingHarness.streamBytes(
            bytes, lengths: StreamingHarness.randomLengths(total: bytes.count, seed: UInt64(index + 1), maximum: 7),
            recordFrames: false
          ).final
        ))
      if index % 4 == 0 {
        results.append(
          (
            "one byte",
            StreamingHarness.streamBytes(bytes, lengths: Array(repeating: 1, count: bytes.count), recordFrames: false)
              .final
          ))
      }
      for (label, result) in results where result != expected && failures.count < 20 {
        failures.append(
          "\(file) #\(example.example) \(label): \(text.debugDescription)\n got \(result.debugDescription)\nwant \(expected.debugDescription)"
        )
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  /// P3 and P4 over every prefix of a corpus reply (one Character per chunk), checked from
  /// the renderer's edits: the committed HTML is never touched again, and the delimiters a frame
  /// shows appear, in that order, among those of the final rendering. Hiding one is allowed (a
  /// healed `~x` shows struck text, a pending `[x]` its text; the final rendering may show them).
  ///
  /// With blocks that wait for a definition held until the end (`holdUntilFinish`): under the
  /// live policy a block past the budget commits as it stands, and the end may replace it (see
  /// `StreamingBoundTests`).
  @Test(arguments: StreamingHarness.corpus.indices)
  func corpusPrefixesNeverFlashOrRetract(index: Int) throws {
    var flashes: [String] = []
    var retractions: [String] = []
    let (name, text) = StreamingHarness.corpus[index]
    let oneShot = Self.oneShot(text)
    var expected = DelimiterTracker()
    expected.apply(.init(keep: 0, appended: oneShot))
    let finalDelimiters = expected.delimiters
    var stream = MarkdownStream()
    stream.referencePolicy = .holdUntilFinish
    var html = MarkdownStreamHTMLRenderer()
    var tracker = DelimiterTracker()
    var committed = 0
    var consumed = ""
    // Where each shown delimiter matched in the final ones (greedily, so the matches of the
    // delimiters an edit keeps stay valid): a frame costs its edit, not the whole display.
    var matches: [Int] = []
    for (position, character) in text.enumerated() {
      consumed.append(character)
      let edit = html.apply(stream.feed(String(character)))
      if edit.keep < committed && retractions.count < 5 { retractions.append("\(name) @\(position)") }
      committed = html.committedLength
      tracker.apply(edit)
      let shown = tracker.delimiters
      if matches.count > tracker.keptCount { matches.removeLast(matches.count - tracker.keptCount) }
      var isSubsequence = matches.count == tracker.keptCount
      var next = (matches.last ?? -1) + 1
      for byte in shown[matches.count...] where isSubsequence {
        while next < finalDelimiters.count && finalDelimiters[next] != byte { next += 1 }
        if next < finalDelimiters.count {
          matches.append(next)
          next += 1
        } else {
          isSubsequence = false
        }
      }
      if !isSubsequence && flashes.count < 8 {
        flashes.append(
          "\(name) @\(position): …\(String(consumed.suffix(60)).debugDescription)\n  shown \(String(decoding: shown.suffix(12), as: UTF8.self))"
        )
      }
    }
    let last = html.apply(stream.finish())
    if last.keep < committed && retractions.count < 5 { retractions.append("\(name) at the end") }
    #expect(html.html == oneShot, "final \(name)")
    #expect(retractions.isEmpty, "P4: \(retractions.joined(separator: "\n"))")
    #expect(flashes.isEmpty, "P3: \(flashes.joined(separator: "\n"))")
  }
}
