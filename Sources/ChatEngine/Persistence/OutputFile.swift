#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file the way every ReplyKit output is written (`export -o`, thread saves, `/share`).
///
/// The rules, which the README repeats:
/// - a symbolic link is followed to its target (a chain of them, up to 40), and the target is
///   written; the link stays; as the kernel's `protected_symlinks` rule has it, a link in a
///   world-writable sticky folder (`/tmp`) that another user owns (neither this process's user
///   nor the folder's owner) is refused, so nobody can point a file we write in `/tmp` elsewhere;
///   likewise, as `protected_regular` and `protected_fifos` have it, a file or FIFO another user
///   owns in such a folder is never written (it would hand them what we write);
/// - a regular file is replaced atomically: the bytes go to a temporary file beside the target,
///   are flushed to disk and renamed over it, so a failure (or, in a single-threaded program, a
///   signal that ends it, which cancels a replacement not yet renamed) leaves the old file whole
///   and no partial file behind (what a program killed outright left, a later replacement of the
///   same file removes: ``AbandonedTemporaries``); the new file keeps the old one's permission bits, owner and
///   group, and on Linux its extended attributes: access control lists, SELinux labels, `user.`
///   attributes (when any of these cannot be kept, the file is not replaced and the error says
///   why); a file this process may not write (mode 0444 for another user than root) is refused,
///   as `>` would refuse it, though its folder would let it be replaced;
/// - a new file is created the same way with `newFileMode` (less the umask): 0600 for threads;
/// - a FIFO or a character device (`/dev/null`, a terminal) is written through, never replaced;
/// - with `throughDescriptors` (an export, written once), a name for one of this process's open
///   descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) is written
///   through that descriptor, as the shell's redirection to it is: into a pipe, or a file at its
///   offset (appended after `>>`), never replacing the file; without it (a thread, saved again
///   and again whole) such a name is followed to the file it stands for like any link;
/// - a directory, a block device or a socket is refused, saying which it is;
/// - an empty name is refused as empty.
package enum OutputFile {
  /// Why a file could not be written: one line naming the file and the reason.
  package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path as given.
    package var path: String
    /// Why, in a few words (`No space left on device`, `it is a directory`).
    package var reason: String

    package var description: String { path.isEmpty ? reason : "cannot write '\(path)': \(reason)" }
  }

  /// Writes `bytes` to `path` under the rules above.
  package static func write(
    _ bytes: [UInt8], to path: String, newFileMode: mode_t = 0o666, throughDescriptors: Bool = false
  ) throws(Failure) {
    guard !path.isEmpty else { throw Failure(path: "", reason: "the output file name is empty") }
    if throughDescriptors, let descriptor = openDescriptor(named: path) {
      // Resolved, the name would be `pipe:[…]` (no such file) or the file itself, replaced: the
      // text around it in the same output would be lost (a trial).
      guard fcntl(descriptor, F_GETFD) != -1 else { throw Failure(path: path, reason: reason(errno)) }
      let failure = writeAll(descriptor, bytes)
      if failure != 0 { throw Failure(path: path, reason: reason(failure)) }
      return
    }
    let target = try resolve(path)
    var info = stat()
    guard lstat(target, &info) == 0 else {
      let failure = errno
      guard failure == ENOENT else { throw Failure(path: path, reason: reason(failure)) }
      try replace(target, with: bytes, existing: nil, mode: newFileMode, shownAs: path)
      return
    }
    try refuseOthersFileInSharedFolder(target, owner: info.st_uid, shownAs: path)
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      guard access(target, W_OK) == 0 else {
        let failure = errno
        throw Failure(
          path: path,
          reason: failure == EACCES
            ? "\(reason(failure)): the file is read-only; make it writable or write elsewhere"
            : reason(failure))
      }
      try replace(target, with: bytes, existing: info, mode: info.st_mode & 0o7777, shownAs: path)
    case S_IFIFO, S_IFCHR: try writeThrough(target, bytes, shownAs: path)
    case S_IFDIR: throw Failure(path: path, reason: "it is a directory")
    case S_IFBLK: throw Failure(path: path, reason: "it is a block device; not writing over it")
    case S_IFSOCK: throw Failure(path: path, reason: "it is a socket")
    default: throw Failure(path: path, reason: "it is not a regular file")
    }
  }

  /// The descriptor `path` names when it is a name for one of this process's open descriptors
  /// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`); nil for any other path.
  static func openDescriptor(named path: String) -> Int32? {
    switch path {
    case "/dev/stdout": return STDOUT_FILENO
    case "/dev/stderr": return STDERR_FILENO
    default:
      for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
        let number = path.dropFirst(prefix.count)
        guard number.count <= 9, number.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int32(number) else {
          return nil
        }
        return value
      }
      return nil
    }
  }

  /// Refuses `target`, owned by `owner`, when it sits in a world-writable sticky folder and
  /// `owner` is neither this process's user nor the folder's owner.
  private static func refuseOthersFileInSharedFolder(_ target: String, owner: uid_t, shownAs path: String)
    throws(Failure)
  {
    var folder = stat()
    let folderPath = directory(of: target)
    guard stat(folderPath.isEmpty ? "." : folderPath, &folder) == 0, folder.st_mode & S_ISVTX != 0,
      folder.st_mode & S_IWOTH != 0, owner != geteuid(), owner != folder.st_uid
    else { return }
    throw Failure(
      path: path,
      reason:
        "it belongs to another user and sits in a shared folder (\(folderPath.isEmpty ? "." : folderPath)); not writing to it"
    )
  }

  /// The path a chain of symbolic links at `path` ends at (which may not exist yet).
  static func resolve(_ path: String) throws(Failure) -> String {
    var current = path
    for _ in 0..<40 {
      try refuseOthersLinksAmongFolders(of: current, shownAs: path)
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
      var folder = stat()
      let folderPath = directory(of: current)
      if stat(folderPath.isEmpty ? "." : folderPath, &folder) == 0,
        folder.st_mode & S_ISVTX != 0, folder.st_mode & S_IWOTH != 0,
        info.st_uid != geteuid(), info.st_uid != folder.st_uid
      {
        throw Failure(
          path: path,
          reason:
            "it is a symbolic link another user made in a shared folder (\(folderPath.isEmpty ? "." : folderPath)); not following it"
        )
      }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count >= 0 else { throw Failure(path: path, reason: reason(errno)) }
      let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else {
        current = directory(of: current) + link
      }
    }
    throw Failure(path: path, reason: reason(ELOOP))
  }

  /// Refuses `path` when one of the folders on the way to it is a symbolic link that another user
  /// made in a world-writable sticky folder (the kernel's protected_symlinks rule, which applies
  /// to every link a path follows, not only its last: `/tmp/their-link/new.html` was written into
  /// wherever their link pointed).
  private static func refuseOthersLinksAmongFolders(of path: String, shownAs shown: String) throws(Failure) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    let components = directory(of: path).split(separator: "/", omittingEmptySubsequences: true)
    for component in components {
      let parent = prefix.isEmpty ? "." : prefix
      prefix += component
      defer { prefix += "/" }
      guard component != ".", component != ".." else { continue }
      var info = stat()
      guard lstat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid != geteuid() else { continue }
      var folder = stat()
      guard stat(parent, &folder) == 0, folder.st_mode & S_ISVTX != 0, folder.st_mode & S_IWOTH != 0,
        info.st_uid != folder.st_uid
      else { continue }
      throw Failure(
        path: shown,
        reason:
          "its folder \(prefix) is a symbolic link another user made in a shared folder (\(parent)); not following it")
    }
  }

  /// The directory part of `path` with its trailing slash (`""` for a bare name).
  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
  }

  /// How many bytes ``replace(_:with:existing:mode:shownAs:)`` writes between looks for a signal.
  static let writeSlice = 1 << 20

  private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBufferPointer { writeAll(descriptor, $0) }
  }

  /// Writes all of `buffer` to `descriptor`, retrying after signals; the `errno` of a failure,
  /// else 0.
  package static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }

  private static func writeThrough(_ target: String, _ bytes: [UInt8], shownAs path: String) throws(Failure) {
    // Not through a link that took the place of the file since it was looked at.
    let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw Failure(path: path, reason: reason(errno)) }
    var failure = writeAll(descriptor, bytes)
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure != 0 { throw Failure(path: path, reason: reason(failure)) }
  }

  /// Gives the file open at `descriptor` the extended attributes of `target`; why not, if it
  /// cannot. A `target` without an access control list leaves the file none either: one the
  /// new file took from its folder's default list would let in users the old file shut out
  /// (a review: a 640 file replaced in a folder whose default list names another user became
  /// readable by that user, and writable when 660), so the file's mode alone says who may read
  /// it, `mode` set again after.
  private static func keepAttributes(of target: String, on descriptor: Int32, mode: mode_t) -> String? {
    let attributes: [(name: String, value: [UInt8])]
    do {
      attributes = try ExtendedAttributes.read(target)
    } catch {
      return "cannot read its extended attributes: \(reason(error.code)); not replaced"
    }
    if !attributes.contains(where: { $0.name == Self.accessControlList }) {
      do {
        try ExtendedAttributes.remove(Self.accessControlList, from: descriptor)
      } catch {
        return "cannot remove the access control list its folder gives new files: \(reason(error.code)); not replaced"
      }
      if fchmod(descriptor, mode) != 0 { return "\(reason(errno)); not replaced" }
    }
    for (name, value) in attributes {
      do {
        try ExtendedAttributes.write(name, value, to: descriptor)
      } catch {
        let what = name == Self.accessControlList ? "access control list" : "extended attribute '\(name)'"
        return "cannot keep its \(what): \(reason(error.code)); not replaced"
      }
    }
    return nil
  }

  /// The extended attribute holding a file's POSIX access control list.
  private static let accessControlList = "system.posix_acl_access"

  /// Replaces `target` through a temporary file beside it. SIGINT, SIGTERM, SIGHUP and SIGQUIT
  /// are blocked in the calling thread meanwhile, so in a single-threaded program (the command
  /// line) the signal that ends it arrives after the temporary file was removed or renamed, never
  /// leaving it behind; one that arrived before the rename cancels it (the bytes are written a
  /// mebibyte at a time, looking for one in between): the old file stays, as Ctrl-C asked.
  private static func replace(
    _ target: String, with bytes: [UInt8], existing: stat?, mode: mode_t, shownAs path: String
  ) throws(Failure) {
    let signalMask = EndingSignals.block()
    defer { EndingSignals.restore(signalMask) }
    let name = target.split(separator: "/").last.map(String.init) ?? target
    let temporary =
      directory(of: target) + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existing == nil ? mode : 0o600)
    guard descriptor >= 0 else {
      let failure = errno
      // Replacing a file needs a new one beside it: say so when the folder forbids that.
      let folder = directory(of: target).isEmpty ? "." : directory(of: target)
      throw Failure(
        path: path,
        reason: failure == EACCES
          ? "\(reason(failure)): the folder '\(folder)' does not let files be created in it"
          : reason(failure))
    }
    var failure: Int32 = 0
    var problem: String?
    if let existing {
      if fchmod(descriptor, mode) != 0 { failure = errno }
      if failure == 0 && (existing.st_uid != geteuid() || existing.st_gid != getegid())
        && fchown(descriptor, existing.st_uid, existing.st_gid) != 0
      {
        problem =
          "cannot keep its owner and group (\(existing.st_uid):\(existing.st_gid)): \(reason(errno)); not replaced"
      }
      if failure == 0 && problem == nil { problem = keepAttributes(of: target, on: descriptor, mode: mode) }
    }
    let interrupted =
      "interrupted by a signal; " + (existing == nil ? "no file was made" : "the file was left as it was")
    if failure == 0 && problem == nil {
      bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < buffer.count && failure == 0 && problem == nil {
          if EndingSignals.arePending() {
            problem = interrupted
            break
          }
          let end = min(buffer.count, offset + Self.writeSlice)
          failure = writeAll(descriptor, UnsafeBufferPointer(rebasing: buffer[offset..<end]))
          offset = end
        }
      }
    }
    if failure == 0 && problem == nil && fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && problem == nil && EndingSignals.arePending() { problem = interrupted }
    if failure == 0 && problem == nil && rename(temporary, target) != 0 { failure = errno }
    if failure != 0 || problem != nil {
      unlink(temporary)
      throw Failure(path: path, reason: problem ?? reason(failure))
    }
    AbandonedTemporaries.sweep(folder: directory(of: target), name: name)
  }
}
