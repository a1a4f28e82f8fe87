import ChatEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether files in the temporary folder take `user.` attributes.
private let userAttributesSupported: Bool = {
  guard let (directory, path) = try? OutputFileAttributeTests.fileWithAttribute("user.probe", [1]) else { return false }
  defer { try? FileManager.default.removeItem(at: directory) }
  return (try? ExtendedAttributes.read(path).contains { $0.name == "user.probe" }) == true
}()

/// A file ``OutputFile`` replaces keeps its extended attributes: its access control list (who may
/// read it), and `user.` attributes.
@Suite(.enabled(if: userAttributesSupported, "the temporary folder's file system keeps no user attributes"))
struct OutputFileAttributeTests {
  /// A new folder holding `old.txt` with the attribute `name` set to `value`.
  static func fileWithAttribute(_ name: String, _ value: [UInt8]) throws -> (URL, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("old.txt").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    try ExtendedAttributes.write(name, value, to: descriptor)
    return (directory, path)
  }

  @Test func userAttributesAreKept() throws {
    let (directory, path) = try Self.fileWithAttribute("user.origin", Array("downloads".utf8))
    defer { try? FileManager.default.removeItem(at: directory) }
    try OutputFile.write(Array("new".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    let kept = try ExtendedAttributes.read(path)
    #expect(kept.contains { $0.name == "user.origin" && $0.value == Array("downloads".utf8) })
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["old.txt"])
  }

  /// One entry of an access control list in the kernel's format: tag, permissions, id.
  static func entry(_ tag: UInt16, _ permissions: UInt16, _ id: UInt32) -> [UInt8] {
    withUnsafeBytes(of: tag.littleEndian, Array.init) + withUnsafeBytes(of: permissions.littleEndian, Array.init)
      + withUnsafeBytes(of: id.littleEndian, Array.init)
  }

  /// A list in the kernel's format: version 2, then the entries sorted by tag and id (the owner,
  /// named users, the owning group, the mask, others).
  static func accessControlList(_ entries: [[UInt8]]) -> [UInt8] {
    entries.reduce(withUnsafeBytes(of: UInt32(2).littleEndian, Array.init), +)
  }

  static let undefinedID = UInt32.max

  /// An access control list that denies one user everything, on a file whose mode lets everyone
  /// read it: after the replacement that user still may not.
  @Test(.enabled(if: geteuid() == 0, "setting another user's access control entry needs root"))
  func theAccessControlListIsKept() throws {
    let undefined = Self.undefinedID
    let acl = Self.accessControlList([
      Self.entry(0x01, 6, undefined), Self.entry(0x02, 0, 65534), Self.entry(0x04, 4, undefined),
      Self.entry(0x10, 4, undefined), Self.entry(0x20, 4, undefined),
    ])
    let (directory, path) = try Self.fileWithAttribute("system.posix_acl_access", acl)
    defer { try? FileManager.default.removeItem(at: directory) }
    try OutputFile.write(Array("new".utf8), to: path)
    let kept = try ExtendedAttributes.read(path)
    #expect(kept.contains { $0.name == "system.posix_acl_access" && $0.value == acl })
  }

  /// A folder's default list letting user 65534 read and write new files.
  static let openDefaults: [UInt8] = accessControlList([
    entry(0x01, 6, undefinedID), entry(0x02, 6, 65534), entry(0x04, 4, undefinedID), entry(0x10, 6, undefinedID),
    entry(0x20, 0, undefinedID),
  ])

  /// Gives the folder at `path` the default access control list ``openDefaults``.
  static func giveOpenDefaults(_ path: String) throws {
    let folder = open(path, O_RDONLY | O_DIRECTORY)
    defer { close(folder) }
    try ExtendedAttributes.write("system.posix_acl_default", openDefaults, to: folder)
  }

  /// Whether folders in the temporary folder take default access control lists.
  static let defaultListsSupported: Bool = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
    guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else {
      return false
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    return (try? giveOpenDefaults(directory.path)) != nil
  }()

  /// A file without an access control list, in a folder whose default list (given after the file
  /// was made) lets user 65534 read and write new files: the replacement has no list either, and
  /// its mode is the old one, so that user still may not read it (the new file took the folder's
  /// list before: a review).
  @Test(.enabled(if: defaultListsSupported, "the temporary folder's file system keeps no access control lists"))
  func aFolderDefaultListDoesNotOpenAReplacedFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("old.txt").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o640) == 0)
    try Self.giveOpenDefaults(directory.path)
    try OutputFile.write(Array("new".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    #expect(try !ExtendedAttributes.read(path).contains { $0.name == "system.posix_acl_access" })
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o640)
  }
}
