#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files that ``OutputFile`` left beside a file when the program writing them died
/// before it could remove them (SIGKILL, a power cut): `.NAME.PID.RANDOM.tmp`.
///
/// A later replacement of the same file removes them, but only those surely abandoned: a regular
/// file with one link, owned by this process's user, its name exactly the pattern for this file,
/// unchanged for ``minimumAge`` seconds, and written by a process that no longer exists (`kill`
/// with signal 0 says so; a process that exists, or that this one may not signal, keeps its
/// files). A program in another PID namespace, or on another machine sharing the folder over the
/// network, could still be writing one only if it had not touched it for an hour (or the two
/// clocks differ by more than that); its rename would then fail, reported, with its old file
/// whole. Nothing else in the folder is ever removed.
enum AbandonedTemporaries {
  /// Seconds a temporary file must have gone unmodified before it counts as abandoned: an hour.
  static let minimumAge = 3600

  /// Removes the abandoned temporary files of the file `name` in `folder` (`""` for the current
  /// folder, else ending with `/`). Failures are ignored: this is tidying, never a write's error.
  ///
  /// - Complexity: O(entries of the folder).
  static func sweep(folder: String, name: String) {
    guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    let now = time(nil)
    while let entry = readdir(directory) {
      let entryName = withUnsafePointer(to: entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      guard let process = writer(of: entryName, forFile: name), process != getpid() else { continue }
      var info = stat()
      guard fstatat(descriptor, entryName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      #if canImport(Darwin)
        let modified = info.st_mtimespec.tv_sec
      #else
        let modified = info.st_mtim.tv_sec
      #endif
      guard info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1, info.st_uid == geteuid(),
        now - modified >= minimumAge, kill(process, 0) != 0, errno == ESRCH
      else { continue }
      unlinkat(descriptor, entryName, 0)
    }
  }

  /// The process ID in `entry` when it is a temporary file name of the file `name`
  /// (`.NAME.PID.RANDOM.tmp`, both numbers decimal), else nil.
  static func writer(of entry: String, forFile name: String) -> pid_t? {
    let prefix = "." + name + "."
    guard entry.hasPrefix(prefix), entry.hasSuffix(".tmp") else { return nil }
    let numbers = entry.utf8.dropFirst(prefix.utf8.count).dropLast(4).split(
      separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.allSatisfy(isDigit) }),
      UInt32(String(decoding: numbers[1], as: UTF8.self)) != nil,
      let process = pid_t(String(decoding: numbers[0], as: UTF8.self)), process > 0
    else { return nil }
    return process
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
