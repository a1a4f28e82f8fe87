import Foundation
import Testing

@testable import ReplyKitFuzz

/// What the crash handler writes: the input recorded last, under its `crash` regression name, and
/// nothing once its checks ended (`FuzzStopTests` in the CLI tests sends the signals). One
/// recorder serves the process: the tests run one at a time.
@Suite(.serialized) struct FuzzCrashRecorderTests {
  @Test func theRecordedInputIsWrittenUnderItsCrashName() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = FuzzOracle.Input(bytes: Array("first *input".utf8), smart: false, unsafe: false)
    let second = FuzzOracle.Input(bytes: Array("second [input\u{0}\u{FF}".utf8) + [0xFF], smart: true, unsafe: true)
    FuzzCrashRecorder.record(first, in: directory)
    FuzzCrashRecorder.record(second, in: directory)
    #expect(FuzzCrashRecorder.saveRecorded())
    let name = Fuzzer.regressionName(for: second, check: "crash")
    #expect(name.hasPrefix("crash-smart-unsafe-"))
    let saved = try Data(contentsOf: directory.appendingPathComponent(name))
    #expect([UInt8](saved) == second.bytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
    FuzzCrashRecorder.clear()
    #expect(!FuzzCrashRecorder.saveRecorded())
  }

  @Test func anEmptyInputIsWrittenEmpty() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = FuzzOracle.Input(bytes: [], smart: false, unsafe: false)
    FuzzCrashRecorder.record(input, in: directory)
    defer { FuzzCrashRecorder.clear() }
    #expect(FuzzCrashRecorder.saveRecorded())
    let name = Fuzzer.regressionName(for: input, check: "crash")
    #expect(try Data(contentsOf: directory.appendingPathComponent(name)).isEmpty)
  }
}
