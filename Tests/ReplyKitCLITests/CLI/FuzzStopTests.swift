import Foundation
import Testing

/// Ctrl-C ended `replykit fuzz` at once, without its summary, and could cut a regression file
/// being saved. It now stops after the input being checked and prints the summary.
@Suite(.timeLimit(.minutes(2))) struct FuzzStopTests {
  /// A new folder holding `corpus/a.md` and an empty `shared`, for a run of `fuzz` inside it.
  static func runDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-fuzz-\(UUID().uuidString)")
    for folder in ["corpus", "shared"] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try Data("# Title\n\nSome *text* and a [link](https://example.com).\n".utf8)
      .write(to: directory.appendingPathComponent("corpus/a.md"))
    return directory
  }

  @Test(arguments: ["INT", "TERM"])
  func aSignalStopsTheRunWithItsSummary(signal: String) throws {
    let directory = try Self.runDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      """
      "$R" fuzz --seconds 600 --no-save --corpus corpus --shared shared > out.txt 2> err.txt & p=$!
      sleep 2; kill -\(signal) $p; wait $p; echo "status $?"
      cat out.txt err.txt
      """, in: directory)
    #expect(result.stdout.contains("inputs/s"), "\(result.stdout)")
    #expect(result.stdout.contains("fuzz: stopped by signal"), "\(result.stdout)")
    let number = signal == "INT" ? 2 : 15
    // 128 + the signal, or 1 when the run found a failure before it stopped.
    #expect(result.stdout.hasPrefix("status \(128 + number)\n") || result.stdout.hasPrefix("status 1\n"))
  }

  /// A crash in the checks ended the fuzzer and lost the input that caused it (fuzz seed 1357: a
  /// trap in the stream's heal, found only with a debugger). The input being checked is now saved
  /// as a `crash` regression and the process still ends by the signal. A signal sent from outside
  /// stands for the crash here: the handler cannot tell them apart.
  ///
  /// The signal may land between two inputs (after one's checks, before the next is made), where
  /// none is recorded and the recorder rightly saves nothing: it failed once on a loaded machine
  /// so. Such a run (ended by the signal, nothing said, nothing saved) is tried again, up to three
  /// runs; any other outcome is checked as it stands, and one run must save the input.
  @Test(arguments: ["SEGV", "ILL"])
  func aCrashSavesTheInputBeingChecked(signal: String) throws {
    let number = signal == "SEGV" ? 11 : 4
    var betweenInputs = 0
    for _ in 0..<3 {
      let directory = try Self.runDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let result = try OutputSafetyTests.shell(
        """
        "$R" fuzz --seconds 600 --corpus corpus --shared shared > out.txt 2> err.txt & p=$!
        sleep 2; kill -\(signal) $p; wait $p; echo "status $?"
        cat err.txt; ls corpus/fuzz-regressions
        """, in: directory)
      #expect(result.stdout.hasPrefix("status \(128 + number)\n"), "\(result.stdout)")
      let saved = try FileManager.default.contentsOfDirectory(
        atPath: directory.appendingPathComponent("corpus/fuzz-regressions").path
      ).filter { $0.hasPrefix("crash-") && $0.hasSuffix(".md") }
      let announced = result.stdout.contains("fuzz: the checks crashed; the input is saved as ")
      if saved.isEmpty && !announced {
        betweenInputs += 1
        continue
      }
      #expect(announced, "\(result.stdout)")
      #expect(saved.count == 1, "\(result.stdout)")
      return
    }
    Issue.record("three runs ended by SIG\(signal) saved no input (\(betweenInputs) between inputs)")
  }
}
