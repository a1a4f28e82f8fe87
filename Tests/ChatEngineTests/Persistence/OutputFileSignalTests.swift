import ChatEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C during `export -o` of a large page: the ending signals were held off for the whole
/// write and the new file renamed into place all the same, and then the program died of the
/// signal (a trial). A signal that arrived before the rename now cancels the replacement.
@Suite struct OutputFileSignalTests {
  @Test func aSignalThatArrivedBeforeTheRenameLeavesTheOldFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("page.html").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: file))
    // SIGHUP sent to this thread while it blocks the ending signals waits, pending, as Ctrl-C
    // waits in the command line while it writes; it is taken back below, never delivered.
    let previous = EndingSignals.block()
    #expect(!EndingSignals.arePending())
    #expect(pthread_kill(pthread_self(), SIGHUP) == 0)
    #expect(EndingSignals.arePending())
    let big = [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20)
    var failure: OutputFile.Failure?
    do {
      try OutputFile.write(big, to: file)
    } catch {
      failure = error
    }
    var hangUp = sigset_t()
    sigemptyset(&hangUp)
    sigaddset(&hangUp, SIGHUP)
    var zero = timespec(tv_sec: 0, tv_nsec: 0)
    let taken = sigtimedwait(&hangUp, nil, &zero)
    EndingSignals.restore(previous)
    #expect(taken == SIGHUP)
    #expect(failure?.reason == "interrupted by a signal; the file was left as it was")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["page.html"])
    // Without a signal the same write replaces the file.
    try OutputFile.write(big, to: file)
    #expect(FileManager.default.contents(atPath: file)?.count == big.count)
  }
}
