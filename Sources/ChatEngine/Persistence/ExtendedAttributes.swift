#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's extended attributes on Linux: POSIX access control lists (`system.posix_acl_access`),
/// SELinux labels and `user.` attributes. ``OutputFile`` copies them onto a file that replaces
/// another, so a replaced file keeps who may read it.
///
/// The calls are looked up in the C library at run time (Swift's Glibc module does not import
/// `<sys/xattr.h>`); where they do not exist, or on other systems, a file has none.
package enum ExtendedAttributes {
  private typealias List = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
  private typealias Get =
    @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
  private typealias FileGet = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
  private typealias FileSet = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
  private typealias FileRemove = @convention(c) (Int32, UnsafePointer<CChar>) -> Int32

  private struct Calls: @unchecked Sendable {
    let list: List
    let get: Get
    let fileGet: FileGet
    let fileSet: FileSet
    let fileRemove: FileRemove
  }

  private static let calls: Calls? = {
    #if os(Linux)
      guard let library = dlopen(nil, RTLD_NOW), let list = dlsym(library, "listxattr"),
        let get = dlsym(library, "getxattr"), let fileGet = dlsym(library, "fgetxattr"),
        let fileSet = dlsym(library, "fsetxattr"), let fileRemove = dlsym(library, "fremovexattr")
      else { return nil }
      return Calls(
        list: unsafeBitCast(list, to: List.self), get: unsafeBitCast(get, to: Get.self),
        fileGet: unsafeBitCast(fileGet, to: FileGet.self), fileSet: unsafeBitCast(fileSet, to: FileSet.self),
        fileRemove: unsafeBitCast(fileRemove, to: FileRemove.self))
    #else
      return nil
    #endif
  }()

  /// The extended attributes of the file at `path` (links followed): names and values, in the
  /// order the file system lists them; empty where the file system keeps none.
  ///
  /// - Throws: the `errno` of a failure other than "not supported".
  package static func read(_ path: String) throws(Errno) -> [(name: String, value: [UInt8])] {
    guard let calls else { return [] }
    var names: [CChar] = []
    // The list may grow between asking its size and reading it: ask again then.
    for _ in 0..<4 {
      let size = calls.list(path, nil, 0)
      if size < 0 {
        if errno == ENOTSUP { return [] }
        throw Errno(errno)
      }
      names = [CChar](repeating: 0, count: size)
      let read = names.withUnsafeMutableBufferPointer { calls.list(path, $0.baseAddress, size) }
      if read >= 0 {
        names.removeLast(size - read)
        break
      }
      if errno != ERANGE { throw Errno(errno) }
    }
    var attributes: [(name: String, value: [UInt8])] = []
    for raw in names.split(separator: 0) {
      let name = String(decoding: raw.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let size = calls.get(path, name, nil, 0)
      if size < 0 {
        if errno == ENODATA { continue }  // removed meanwhile
        throw Errno(errno)
      }
      var value = [UInt8](repeating: 0, count: size)
      let read = value.withUnsafeMutableBytes { calls.get(path, name, $0.baseAddress, size) }
      if read < 0 { throw Errno(errno) }
      value.removeLast(size - read)
      attributes.append((name, value))
    }
    return attributes
  }

  /// Gives the open file `descriptor` the attribute `name` with `value`. Where the system refuses
  /// (an SELinux label an unprivileged process may not set), it succeeds when the file has that
  /// value already.
  ///
  /// - Throws: the `errno` of the refusal.
  package static func write(_ name: String, _ value: [UInt8], to descriptor: Int32) throws(Errno) {
    guard let calls else { return }
    let result = value.withUnsafeBytes { calls.fileSet(descriptor, name, $0.baseAddress, value.count, 0) }
    guard result != 0 else { return }
    let failure = errno
    var current = [UInt8](repeating: 0, count: value.count + 1)
    let read = current.withUnsafeMutableBytes { calls.fileGet(descriptor, name, $0.baseAddress, $0.count) }
    if read == value.count && current.prefix(read).elementsEqual(value) { return }
    throw Errno(failure)
  }

  /// Takes the attribute `name` off the open file `descriptor`; nothing when it has none, or the
  /// file system keeps none.
  ///
  /// - Throws: the `errno` of another failure.
  package static func remove(_ name: String, from descriptor: Int32) throws(Errno) {
    guard let calls, calls.fileRemove(descriptor, name) != 0 else { return }
    if errno == ENODATA || errno == ENOTSUP { return }
    throw Errno(errno)
  }

  /// An `errno` value.
  package struct Errno: Error {
    package var code: Int32
    package init(_ code: Int32) { self.code = code }
  }
}
