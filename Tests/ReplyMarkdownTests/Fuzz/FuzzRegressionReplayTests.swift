import Foundation
import ReplyKitFuzz
import Testing

/// Replays every input the fuzzer ever saved under `Corpus/fuzz-regressions/` through all checks.
@Suite struct FuzzRegressionReplayTests {
  @Test func everySavedInputPasses() throws {
    let folder = SharedData.repositoryRoot.appendingPathComponent("Corpus/fuzz-regressions")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
    #expect(!names.isEmpty, "Corpus/fuzz-regressions holds at least the seeded regressions")
    for name in names {
      let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
      let input = Fuzzer.input(fromRegressionNamed: name, bytes: bytes)
      do throws(FuzzOracle.Failure) {
        try FuzzOracle(checksTime: false).check(input)
      } catch {
        Issue.record("\(name): \(error.check): \(error.detail)")
      }
    }
    print("fuzz regressions: replayed \(names.count)")
  }
}
