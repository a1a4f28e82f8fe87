import Foundation
import Testing

@testable import ChatEngine

#if canImport(Glibc)
  import Glibc
#endif

/// A chat killed outright (SIGKILL) while it saved its thread left `.thread.json.PID.N.tmp` beside
/// the file for good (a trial). A later save of the same file removes such files, and only those
/// surely abandoned.
@Suite struct AbandonedTemporariesTests {
  @Test(arguments: [
    (".t.json.123.456.tmp", Int32(123)), (".t.json.1.0.tmp", 1), (".t.json.123.tmp", nil), ("t.json.1.2.tmp", nil),
    (".t.json.x.2.tmp", nil), (".t.json.1.2.3.tmp", nil), (".t.json.1..tmp", nil), (".t.json.0.2.tmp", nil),
    (".u.json.1.2.tmp", nil), (".t.json.1.2.tmpx", nil), (".t.json.99999999999.2.tmp", nil),
    (".t.json.1.99999999999.tmp", nil),
  ])
  func readsOnlyItsOwnTemporaryNames(entry: String, expected: Int32?) {
    #expect(AbandonedTemporaries.writer(of: entry, forFile: "t.json") == expected, "\(entry)")
  }

  @Test func aSaveRemovesWhatAKilledWriterLeftAndNothingElse() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abandoned-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("thread.json").path
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    // No process has this ID (above any pid_max), and process 1 always exists.
    let gone = Int32.max - 1
    let names = [
      "abandoned": ".thread.json.\(gone).17.tmp",
      "recent": ".thread.json.\(gone).18.tmp",
      "alive": ".thread.json.1.19.tmp",
      "other file": ".notes.json.\(gone).20.tmp",
      "not ours": "thread.json.\(gone).21.tmp",
      "linked": ".thread.json.\(gone).22.tmp",
    ]
    for name in names.values {
      try Data("partial".utf8).write(to: folder.appendingPathComponent(name))
    }
    #expect(link(folder.appendingPathComponent(names["linked"]!).path, folder.appendingPathComponent("keep").path) == 0)
    let old = Date().addingTimeInterval(-2 * Double(AbandonedTemporaries.minimumAge))
    for (what, name) in names where what != "recent" {
      try FileManager.default.setAttributes(
        [.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(name).path)
    }
    try OutputFile.write(Array("{\"saved\":1}".utf8), to: file)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    #expect(!left.contains(names["abandoned"]!))
    for (what, name) in names where what != "abandoned" {
      #expect(left.contains(name), "\(what) was removed")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"saved\":1}")
  }
}
