#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a file looked like at one moment, enough to tell that someone wrote it since: its device
/// and inode (a file saved by renaming a new one over it has a new inode), its size, and its
/// modification and status change times to the nanosecond the file system keeps (a program that
/// writes in place and then sets the modification time back cannot set the status change time:
/// the kernel does, on every write, `utime` and `chmod`, and also when a hard link is added or an
/// extended attribute written, which a sync or backup tool may do: such a file is saved beside).
struct ThreadFileStamp: Equatable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modifiedSeconds: Int
  let modifiedNanoseconds: Int
  let changedSeconds: Int
  let changedNanoseconds: Int
  /// Whether the path named a regular file (through symbolic links). Only a regular file is
  /// compared: a FIFO or device written through has no content to lose.
  let isRegular: Bool
  /// Whether it named a FIFO or a character device, which a save writes through.
  let isFIFOOrCharacterDevice: Bool

  /// The stamp of the file at `path` now (symbolic links followed); `nil` when nothing is there
  /// or it cannot be looked at.
  static func of(_ path: String) -> ThreadFileStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Glibc)
      let modified = info.st_mtim
      let changed = info.st_ctim
    #else
      let modified = info.st_mtimespec
      let changed = info.st_ctimespec
    #endif
    return ThreadFileStamp(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
      changedSeconds: Int(changed.tv_sec), changedNanoseconds: Int(changed.tv_nsec),
      isRegular: (info.st_mode & S_IFMT) == S_IFREG,
      isFIFOOrCharacterDevice: (info.st_mode & S_IFMT) == S_IFIFO || (info.st_mode & S_IFMT) == S_IFCHR)
  }
}
