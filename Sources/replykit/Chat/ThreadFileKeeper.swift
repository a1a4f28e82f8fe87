import ChatEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a chat saves its thread, and what that file looked like when this chat last read or
/// wrote it, so that a save never writes over someone else's.
///
/// Guarantees:
/// - A save never replaces a thread file that changed on disk since this chat last read or wrote
///   it (another chat on the same file, an editor, a sync tool): the thread goes to a new file
///   beside it instead, `NAME.conflict-YYYYMMDD-HHMMSS.EXT` in UTC (`-2`, `-3`… added when that
///   name is taken), and later saves go there. Both versions are kept; nothing is merged.
/// - A thread file deleted meanwhile is written again where it was.
/// - A regular file that something else took the place of (a FIFO, a device, a directory) is a
///   change too: the thread goes beside it, never into a FIFO that could wait for a reader. A
///   thread file that was a FIFO or device from the start is written through as before.
///
/// A change is seen by the file's device, inode, size, modification and status change times
/// (``ThreadFileStamp``; a `chmod`, a new hard link or extended attribute count as changes too,
/// the safe side). A write that lands between this
/// chat's write and its look at the result goes unseen: this is a check, not a lock.
struct ThreadFileKeeper {
  /// The thread file the person named.
  let requested: URL
  /// Where saves go: ``requested`` until it changed under this chat, then the file beside it.
  private(set) var target: URL
  /// ``target`` as this chat last read or wrote it; `nil` when it was not there.
  private var stamp: ThreadFileStamp?
  /// When a save found its file changed, the name it was saved to instead (for the caller to
  /// say once), until the next save.
  private(set) var movedAside: URL?

  /// Starts with the file at `url` as it is now: call before reading it, so that a write between
  /// this look and the read is seen as a change (the safe side).
  init(url: URL) {
    requested = url
    target = url
    stamp = ThreadFileStamp.of(url.path)
  }

  /// Whether the file at ``target`` changed since this chat last read or wrote it.
  var targetChanged: Bool {
    guard let now = ThreadFileStamp.of(target.path) else { return false }
    guard now.isRegular else { return stamp?.isRegular ?? true }
    return now != stamp
  }

  /// Whether the next save writes into ``target`` itself, a FIFO or character device it was from
  /// the start (``save(_:fields:now:)`` then may wait for a reader), rather than replacing a
  /// regular file or saving beside a changed one.
  var writesThrough: Bool {
    guard let now = ThreadFileStamp.of(target.path), !now.isRegular, !targetChanged else { return false }
    return now.isFIFOOrCharacterDevice
  }

  /// Saves `thread` to ``target``, or beside it when it changed (see the type's guarantees);
  /// ``movedAside`` then names the new file.
  ///
  /// - Throws: the archive's error when the file cannot be written; ``target`` is then left as
  ///   it was.
  @MainActor mutating func save(_ thread: ChatThread, fields: ChatArchiveFields, now: Date = Date())
    throws(ChatArchiveError)
  {
    movedAside = nil
    var destination = target
    if targetChanged { destination = Self.besides(requested, at: now) }
    try thread.save(to: destination, fields: fields)
    if destination != target { movedAside = destination }
    target = destination
    stamp = ThreadFileStamp.of(destination.path)
  }

  /// Records that this chat just wrote the thread to `url` itself (an explicit save): when it is
  /// the requested file, saves go there again from now on.
  mutating func wrote(to url: URL) {
    guard url.standardizedFileURL == requested.standardizedFileURL else { return }
    target = requested
    stamp = ThreadFileStamp.of(requested.path)
  }

  /// A name beside `url` that nothing has: `NAME.conflict-YYYYMMDD-HHMMSS.EXT`, numbered when
  /// taken.
  static func besides(_ url: URL, at date: Date) -> URL {
    let folder = url.deletingLastPathComponent()
    let ext = url.pathExtension
    let base = ext.isEmpty ? url.lastPathComponent : url.deletingPathExtension().lastPathComponent
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let stamp =
      "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
      + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    var number = 1
    while true {
      let suffix = number == 1 ? "" : "-\(number)"
      let name = "\(base).conflict-\(stamp)\(suffix)" + (ext.isEmpty ? "" : ".\(ext)")
      let candidate = folder.appendingPathComponent(name)
      var info = stat()
      if lstat(candidate.path, &info) != 0 && errno == ENOENT { return candidate }
      number += 1
    }
  }
}
