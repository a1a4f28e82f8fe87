import Foundation
import Testing

@testable import ReplyKitFuzz

/// A short run of the mutation fuzzer (fixed seed), as `make test` runs it: nothing may fail.
@Suite struct FuzzSmokeTests {
  @Test func aShortSeededRunFindsNothing() {
    let corpus = FuzzCorpus.load(
      corpusDirectory: SharedData.repositoryRoot.appendingPathComponent("Corpus"),
      sharedCorpus: SharedData.sharedRoot?.appendingPathComponent("corpus"))
    // A fixed number of inputs, not a time budget, so a loaded machine runs the same check. Debug
    // builds are slow: time is checked by release runs of `replykit fuzz`.
    let fuzzer = Fuzzer(
      mutator: FuzzMutator(corpus: corpus, maxLength: 1 << 12), oracle: FuzzOracle(checksTime: false),
      regressionDirectory: nil)
    let report = fuzzer.run(seed: 20_261_129, duration: .iterations(150))
    print("fuzz smoke: \(report.inputs) inputs, \(report.guarded) guarded, \(report.failures.count) failures")
    #expect(report.inputs == 150)
    for failure in report.failures {
      Issue.record(
        "\(failure.failure.check): \(failure.failure.detail) input \(String(decoding: failure.input, as: UTF8.self).debugDescription)"
      )
    }
  }

  /// A run in seconds is over once they have passed, a run of inputs never by the clock: what
  /// stops both the loop and a failure's minimisation (fuzz seed 1392 minimised a 27 KB input for
  /// over 15 minutes past a 900 s run).
  @Test func aRunInSecondsIsOverWhenTheyHavePassed() {
    let start = Date(timeIntervalSinceReferenceDate: 1_000)
    #expect(!Fuzzer.isOver(.seconds(900), since: start, at: start.addingTimeInterval(899.9)))
    #expect(Fuzzer.isOver(.seconds(900), since: start, at: start.addingTimeInterval(900)))
    #expect(Fuzzer.isOver(.seconds(900), since: start, at: start.addingTimeInterval(1_800)))
    #expect(!Fuzzer.isOver(.iterations(10), since: start, at: start.addingTimeInterval(1e9)))
  }

  @Test func theMinimiserShrinksToTheCause() {
    let input = Array("lots of text around the X that matters, and more".utf8)
    let minimal = DeltaDebugger().minimise(input) { $0.contains(UInt8(ascii: "X")) }
    #expect(minimal == Array("X".utf8))
  }

  /// The block-lines mutation makes whole lines, among them the shapes it is for: footnote
  /// definitions indented four columns under another line, and after other text.
  @Test func blockLinesAreWholeLinesThatNestDefinitions() {
    let mutator = FuzzMutator(corpus: FuzzCorpus(seeds: [Array("a\nb\n".utf8)], tokens: []))
    var random = SplitMix64(seed: 1)
    var indented = false
    var afterText = false
    for _ in 0..<500 {
      let lines = mutator.blockLines(using: &random)
      #expect(lines.last == UInt8(ascii: "\n"))
      for line in String(decoding: lines, as: UTF8.self).split(separator: "\n") {
        if line.hasPrefix("    [^") || line.hasPrefix("     [^") || line.hasPrefix("\t[^") { indented = true }
        if line.dropFirst().contains("]: [^") || line.dropFirst().contains("]:  [^") { afterText = true }
      }
    }
    #expect(indented && afterText)
  }

  @Test func theDictionaryParses() {
    let tokens = FuzzCorpus.parseDictionary("# comment\nx=\"<a\\x20b\"\n\"\\\"q\\\\\"\n")
    #expect(tokens == [Array("<a b".utf8), Array("\"q\\".utf8)])
  }
}
