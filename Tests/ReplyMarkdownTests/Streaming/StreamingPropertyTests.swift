import Foundation
import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// P1 (chunk invariance), P3 (no raw-syntax flash) and P4 (no retraction) over our corpus and our
/// chunk cases (`Corpus/streaming/chunk-cases.jsonl`), always; over the spec examples and the chunk
/// cases of `../shared/streaming/chunk-cases.jsonl` when `../shared` is there.
@Suite struct StreamingPropertyTests {
  static func oneShot(_ text: String) -> String { HTMLRenderer().render(MarkdownDocument(text)) }

  /// One line of our `Corpus/streaming/chunk-cases.jsonl`: chunks, and the normalised display
  /// after each (`frames`, a null entry unchecked), or a text fed one byte at a time (`bytewise`).
  struct ChunkCase: Sendable, CustomTestStringConvertible {
    let id: String
    let rule: String
    let chunks: [String]
    let frames: [String?]?
    /// A part each frame must contain (null: unchecked).
    let contains: [String?]?
    let bytewise: String?
    let note: String
    /// What the implementation shows instead, when it disagrees with the rule (a known issue).
    let known: String?

    var testDescription: String { "\(id) \(rule)" }

    static let all: [ChunkCase] = {
      let url = StreamingHarness.fixturesFolder.appendingPathComponent("chunk-cases.jsonl")
      return ((try? StreamingHarness.jsonLines(at: url)) ?? []).compactMap { line in
        guard let id = line["id"] as? String else { return nil }
        let frames = (line["frames"] as? [Any])?.map { $0 as? String }
        let contains = (line["contains"] as? [Any])?.map { $0 as? String }
        let text = line["bytewise"] as? Bool == true ? line["text"] as? String : nil
        return ChunkCase(
          id: id, rule: line["rule"] as? String ?? "", chunks: line["chunks"] as? [String] ?? [], frames: frames,
          contains: contains, bytewise: text, note: line["note"] as? String ?? "", known: line["known"] as? String)
      }
    }()
  }

  @Test func ourChunkCasesAreRead() {
    #expect(ChunkCase.all.count >= 15)
    #expect(ChunkCase.all.allSatisfy { !$0.chunks.isEmpty || $0.bytewise != nil })
  }

  @Test(arguments: ChunkCase.all)
  func ourChunkCaseHolds(_ row: ChunkCase) {
    if let text = row.bytewise {
      let bytes = Array(text.utf8)
      let result = StreamingHarness.streamBytes(bytes, lengths: Array(repeating: 1, count: bytes.count))
      for (index, frame) in result.frames.enumerated() {
        #expect(!frame.contains("\u{FFFD}"), "\(row.id) frame \(index)")
      }
      #expect(result.final == Self.oneShot(text), "\(row.id)")
      return
    }
    // The options and renderer of the display cases (raw HTML kept).
    let result = StreamingHarness.stream(
      row.chunks, options: StreamingHarness.caseOptions, renderer: StreamingHarness.caseRenderer)
    let oneShot = StreamingHarness.caseRenderer.render(
      MarkdownDocument(row.chunks.joined(), options: StreamingHarness.caseOptions))
    #expect(result.final == oneShot, "\(row.id) final")
    let violations = StreamingHarness.frameViolations(result.frames, final: result.final)
    #expect(violations.isEmpty, "\(row.id): \(violations.joined(separator: "\n"))")
    let shown = result.frames.map { StreamingHarness.normalise($0.html) }
    let check = {
      if let frames = row.frames {
        #expect(frames.count == row.chunks.count, "\(row.id): one frame a chunk")
        for (index, (frame, want)) in zip(shown, frames).enumerated() {
          guard let want else { continue }
          #expect(frame == want, "\(row.id) frame \(index) (\(row.note))")
        }
      }
      for (index, (frame, part)) in zip(shown, row.contains ?? []).enumerated() {
        guard let part else { continue }
        #expect(frame.contains(part), "\(row.id) frame \(index) shows \(frame) (\(row.note))")
      }
    }
    if let known = row.known {
      withKnownIssue("\(row.id): \(known)") { check() }
    } else {
      check()
    }
  }

  /// The chunk cases of `../shared/streaming/chunk-cases.jsonl` that give chunks: the final output
  /// equals one-shot rendering and no frame shows a CR, U+FFFD, a flashed delimiter or a grapheme
  /// that later grows (what their `expect` texts ask).
  @Test(.enabled(if: SharedData.isAvailable, SharedData.absenceReason))
  func sharedChunkCasesHold() throws {
    let cases = try StreamingHarness.jsonLines("chunk-cases.jsonl")
    var checked = 0
    for entry in cases {
      guard let id = entry["id"] as? String, let chunks = entry["chunks"] as? [String] else { continue }
      checked += 1
      let result = StreamingHarness.stream(chunks)
      #expect(result.final == Self.oneShot(chunks.joined()), "\(id) final")
      let violations = StreamingHarness.frameViolations(result.frames, final: result.final)
      #expect(violations.isEmpty, "\(id): \(violations.joined(separator: "\n"))")
    }
    #expect(checked >= 6)
  }

  /// Bytes split inside a code point never show U+FFFD; invalid bytes become U+FFFD at the end,
  /// exactly as one-shot decoding.
  @Test func splitAndInvalidBytesDecodeAsOneShot() {
    let bytes = Array("Ünïcode → 한국어 🧪".utf8)
    for split in 1..<bytes.count {
      let result = StreamingHarness.streamBytes(bytes, lengths: [split, bytes.count])
      for frame in result.frames { #expect(!frame.contains("\u{FFFD}")) }
      #expect(result.final == Self.oneShot("Ünïcode → 한국어 🧪"))
    }
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

  @Test(.enabled(if: SharedData.isAvailable, SharedData.absenceReason))
  func specExamplesAreChunkInvariant() throws {
    let examples = try SharedData.specExamples()
    #expect(!examples.isEmpty)
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
    let (name, text) = StreamingHarness.corpus[index]
    Self.expectNoFlashOrRetraction(name, text)
  }

  /// The same over seeded mixed replies (``MixedReplyGenerator``), a character and a few
  /// characters at a time, and over tables whose delimiter row arrives without a leading pipe or
  /// inside a container (a review's generated replies showed their header as a heading or a
  /// paragraph until the row was complete).
  @Test(arguments: 1...6)
  func mixedRepliesNeverFlashOrRetract(seed: UInt64) throws {
    let text = MixedReplyGenerator(seed: seed).reply(bytes: 2_500)
    Self.expectNoFlashOrRetraction("mixed seed \(seed)", text)
    Self.expectNoFlashOrRetraction("mixed seed \(seed), chunks of 1 to 7", text, chunks: [3, 1, 7, 2, 5])
  }

  @Test(arguments: [
    "Intro:\na | b\n---|---\n1 | 2\n", "a | b\n:-- | --\nc | d\n", "**a** | b\n---|---\n",
    "- | a | b |\n  |---|---|\n  | 1 | 2 |\n", "1. Step:\n\n   | a | b |\n   |---|---|\n   | 1 | 2 |\n",
    "> | a | b |\n> |---|---|\n> | c | d |\n", "> a | b\n> --|--\n",
  ])
  func tablesNeverFlash(text: String) {
    Self.expectNoFlashOrRetraction("table", text)
  }

  /// Streams `text` in chunks of `chunks` Characters (cycled) and expects P3 and P4 of every
  /// frame, and the one-shot HTML at the end.
  static func expectNoFlashOrRetraction(
    _ name: String, _ text: String, chunks: [Int] = [1], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var flashes: [String] = []
    var retractions: [String] = []
    let oneShot = Self.oneShot(text)
    var expected = DelimiterTracker()
    expected.apply(.init(keep: 0, appended: oneShot))
    let finalDelimiters = expected.delimiters
    var stream = MarkdownStream()
    stream.referencePolicy = .holdUntilFinish
    var html = MarkdownStreamHTMLRenderer()
    var tracker = DelimiterTracker()
    var committed = 0
    let characters = Array(text)
    var position = 0
    var chunkIndex = 0
    // Where each shown delimiter matched in the final ones (greedily, so the matches of the
    // delimiters an edit keeps stay valid): a frame costs its edit, not the whole display.
    var matches: [Int] = []
    while position < characters.count {
      let end = min(characters.count, position + chunks[chunkIndex % chunks.count])
      chunkIndex += 1
      let edit = html.apply(stream.feed(String(characters[position..<end])))
      position = end
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
          "\(name) @\(position): …\(String(characters[..<position].suffix(60)).debugDescription)\n  shown \(String(decoding: shown.suffix(12), as: UTF8.self))"
        )
      }
    }
    let last = html.apply(stream.finish())
    if last.keep < committed && retractions.count < 5 { retractions.append("\(name) at the end") }
    #expect(html.html == oneShot, "final \(name)", sourceLocation: sourceLocation)
    #expect(retractions.isEmpty, "P4: \(retractions.joined(separator: "\n"))", sourceLocation: sourceLocation)
    #expect(flashes.isEmpty, "P3: \(flashes.joined(separator: "\n"))", sourceLocation: sourceLocation)
  }
}
