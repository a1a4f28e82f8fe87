import Testing

@testable import ReplyMarkdown

/// The guard's code span index answers as a direct search of the backtick runs does, read
/// directly (a few runs) or through its per-length index (many).
@Suite struct CodeSpanIndexTests {
  /// The runs of `bytes` (one line), and for each run a direct search: the end of the next run of
  /// the same length after it.
  static func reference(_ bytes: [UInt8]) -> [(start: Int, length: Int, end: Int?)] {
    var runs: [(start: Int, length: Int)] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == ASCII.backtick else {
        index += 1
        continue
      }
      var runEnd = index
      while runEnd < bytes.count && bytes[runEnd] == ASCII.backtick { runEnd += 1 }
      runs.append((index, runEnd - index))
      index = runEnd
    }
    return runs.enumerated().map { position, run in
      // A run of more than 80 backticks is text to cmark-gfm: it opens and closes nothing.
      guard run.length <= CodeSpanIndex.longestRun else { return (run.start, run.length, nil) }
      let later = runs[(position + 1)...].first { $0.length == run.length }
      return (run.start, run.length, later.map { $0.start + $0.length })
    }
  }

  @Test(arguments: [4, 30, 33, 200])
  func lookupsMatchADirectSearch(runCount: Int) {
    var random: UInt64 = UInt64(runCount)
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    for _ in 0..<50 {
      var bytes: [UInt8] = []
      for _ in 0..<runCount {
        bytes += Array(repeating: ASCII.space, count: 1 + next(3))
        // Now and then a run too long to open a span (and its twin, which would close it).
        bytes += Array(repeating: ASCII.backtick, count: next(8) == 0 ? 81 : 1 + next(4))
      }
      let expected = Self.reference(bytes)
      #expect(expected.count == runCount)
      bytes.withUnsafeBufferPointer { buffer in
        var lines = GuardScanner.SegmentLines()
        lines.append(GuardScanner.SegmentLine(start: 0, end: buffer.count, line: 1))
        var index = CodeSpanIndex(lines, in: buffer)
        // The scanner's order: a run opens a span only past the end of the span before it.
        var spanEnd = -1
        for run in expected where run.start >= spanEnd {
          let found = index.end(ofSpanOpenedAt: run.start, length: run.length)
          #expect(found == run.end, "run at \(run.start) of \(run.length)")
          spanEnd = found ?? -1
        }
      }
    }
  }
}
