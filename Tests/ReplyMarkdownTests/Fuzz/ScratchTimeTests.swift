import Foundation
import Testing
@testable import ReplyKitFuzz
@testable import ReplyMarkdown

@Suite struct ScratchTimeTests {
  @Test func scratchOracle() throws {
    let dir = ProcessInfo.processInfo.environment["SCRATCH_DIR"] ?? "/tmp/scratchq"
    for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
      let input = Fuzzer.input(fromRegressionNamed: name, bytes: bytes)
      do { try FuzzOracle(checksTime: false).check(input); print("SCRATCH PASS", name) } catch {
        print("SCRATCH FAIL", name, error.check, error.detail)
      }
    }
  }
}
