import ChatEngine
import Foundation
import Testing

@testable import replykit

/// Two chats (or a chat and an editor) on one thread file: before, the last writer won and the
/// other's turns were lost without a word. A save now never writes over a file that changed
/// since the chat last read or wrote it; the thread goes beside it.
@MainActor @Suite struct ThreadFileKeeperTests {
  static let other = #"{"messages":[]}"#

  /// A new folder, removed by the caller.
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-keeper-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A thread of these turns, the person's first (an even count: a thread ending with the
  /// person's turn is saved with the reply it waits for).
  static func thread(_ texts: [String]) -> ChatThread {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let messages = texts.enumerated().map { index, text in
      ChatMessage(role: index % 2 == 0 ? .user : .assistant, text: text, date: date)
    }
    return ChatThread(tree: ChatThreadTree(messages: messages), reply: { _ in AsyncThrowingStream { $0.finish() } })
  }

  /// A new folder (removed by the caller) with `t.json` saved by a keeper once (turns `a`, `1`).
  static func savedOnce() throws -> (folder: URL, file: URL, keeper: ThreadFileKeeper) {
    let folder = try Self.folder()
    let file = folder.appendingPathComponent("t.json")
    var keeper = ThreadFileKeeper(url: file)
    try keeper.save(Self.thread(["a", "1"]), fields: ChatArchiveFields())
    return (folder, file, keeper)
  }

  static func texts(_ url: URL) throws -> [String] {
    try ChatArchive.load(from: url).map(\.text)
  }

  /// Writes `text` to `url` as another program would: a new file renamed over it.
  static func writeAsAnotherProgram(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
  }

  @Test func itsOwnSavesAreNotAChange() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.json")
    var keeper = ThreadFileKeeper(url: file)
    try keeper.save(Self.thread(["a", "1"]), fields: ChatArchiveFields())
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields())
    #expect(keeper.movedAside == nil)
    #expect(keeper.target == file)
    #expect(try Self.texts(file) == ["a", "1", "b", "2"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["t.json"])
  }

  @Test func aFileChangedByAnotherProgramIsNotWrittenOver() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.json")
    var keeper = ThreadFileKeeper(url: file)
    try keeper.save(Self.thread(["a", "1"]), fields: ChatArchiveFields())
    try Self.writeAsAnotherProgram(Self.other, to: file)
    let date = Date(timeIntervalSince1970: 1_764_788_645)  // 2025-12-03 19:04:05 UTC
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields(), now: date)
    let aside = folder.appendingPathComponent("t.conflict-20251203-190405.json")
    #expect(keeper.movedAside == aside)
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.other)
    #expect(try Self.texts(aside) == ["a", "1", "b", "2"])
    // Said once; later saves go to the new file.
    try keeper.save(Self.thread(["a", "1", "b", "2", "c", "3"]), fields: ChatArchiveFields(), now: date)
    #expect(keeper.movedAside == nil)
    #expect(try Self.texts(aside) == ["a", "1", "b", "2", "c", "3"])
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.other)
    // A file written to the requested name by hand makes it the thread's file again.
    try Self.thread(["x", "1"]).save(to: file)
    keeper.wrote(to: file)
    try keeper.save(Self.thread(["x", "1", "y", "2"]), fields: ChatArchiveFields())
    #expect(keeper.target == file)
    #expect(try Self.texts(file) == ["x", "1", "y", "2"])
  }

  /// The change is seen even when the other program writes in place (same inode).
  @Test func aChangeInPlaceIsSeen() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.json")
    var keeper = ThreadFileKeeper(url: file)
    try keeper.save(Self.thread(["a", "1"]), fields: ChatArchiveFields())
    let handle = try FileHandle(forWritingTo: file)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(" ".utf8))
    try handle.close()
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields())
    #expect(keeper.movedAside != nil)
    #expect(try Self.texts(file) == ["a", "1"])
  }

  /// A trial: an edit in place that kept the size, with the modification time set back
  /// afterwards, went unseen and was written over. The status change time gives it away.
  @Test func anEditThatSetsTheTimeBackIsSeen() throws {
    var (folder, file, keeper) = try Self.savedOnce()
    defer { try? FileManager.default.removeItem(at: folder) }
    var before = stat()
    #expect(stat(file.path, &before) == 0)
    // The status change time has the file system's resolution; a little later it differs.
    Thread.sleep(forTimeInterval: 0.02)
    var bytes = try Data(contentsOf: file)
    // The first turn's text, `"a"`, becomes `"z"`.
    let range = try #require(bytes.range(of: Data("\"a\"".utf8)))
    bytes[range.lowerBound + 1] = UInt8(ascii: "z")
    let handle = try FileHandle(forWritingTo: file)
    try handle.write(contentsOf: bytes)
    try handle.close()
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields())
    #expect(keeper.movedAside != nil)
    #expect(try Self.texts(file) == ["z", "1"])
  }

  /// A thread file that was not there at the start but was made by someone else meanwhile.
  @Test func aNewFileMadeMeanwhileIsNotWrittenOver() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("thread")
    var keeper = ThreadFileKeeper(url: file)
    try Self.writeAsAnotherProgram(Self.other, to: file)
    let date = Date(timeIntervalSince1970: 1_764_788_645)
    // The first name beside it is taken: the next number is used.
    let taken = folder.appendingPathComponent("thread.conflict-20251203-190405")
    try Data("taken".utf8).write(to: taken)
    try keeper.save(Self.thread(["a", "1"]), fields: ChatArchiveFields(), now: date)
    #expect(keeper.movedAside == folder.appendingPathComponent("thread.conflict-20251203-190405-2"))
    #expect(try String(contentsOf: taken, encoding: .utf8) == "taken")
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.other)
  }

  /// A trial: a FIFO put in the thread file's place while the chat ran was written through, and
  /// the save waited for a reader (the screen froze; once one came, the thread went into the
  /// pipe and the chat said it was saved). A regular file that became something else is a change.
  @Test func aFIFOInTheFilesPlaceIsNotWrittenInto() throws {
    var (folder, file, keeper) = try Self.savedOnce()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.removeItem(at: file)
    #expect(mkfifo(file.path, 0o600) == 0)
    // Not saved when unseen: the save would wait for a reader that never comes.
    try #require(keeper.targetChanged)
    let date = Date(timeIntervalSince1970: 1_764_788_645)  // 2025-12-03 19:04:05 UTC
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields(), now: date)
    let aside = folder.appendingPathComponent("t.conflict-20251203-190405.json")
    #expect(keeper.movedAside == aside)
    #expect(try Self.texts(aside) == ["a", "1", "b", "2"])
  }

  /// A thread file deleted meanwhile is written again where it was: nothing there to lose.
  @Test func aDeletedFileIsWrittenAgain() throws {
    var (folder, file, keeper) = try Self.savedOnce()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.removeItem(at: file)
    try keeper.save(Self.thread(["a", "1", "b", "2"]), fields: ChatArchiveFields())
    #expect(keeper.movedAside == nil)
    #expect(try Self.texts(file) == ["a", "1", "b", "2"])
  }
}
