import ChatEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A link another user planted in a shared sticky folder (`/tmp`) is never followed, as the
/// kernel's `protected_symlinks` refuses it: `/share` writes a predictable name there.
@Suite struct OutputFileLinkTests {
  /// A new world-writable sticky folder, like `/tmp`.
  private func stickyFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sticky-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(chmod(folder.path, 0o1777) == 0)
    return folder
  }

  @Test(.enabled(if: geteuid() == 0, "making a link owned by another user needs root"))
  func aLinkAnotherUserPlantedInASharedFolderIsRefused() throws {
    let folder = try stickyFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim.txt").path
    try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
    let link = folder.appendingPathComponent("replykit-reply-abcdef01.txt").path
    #expect(symlink(victim, link) == 0)
    #expect(lchown(link, 65_534, 65_534) == 0)
    #expect(throws: OutputFile.Failure.self) { try OutputFile.write(Array("reply\n".utf8), to: link) }
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
    do {
      try OutputFile.write(Array("reply\n".utf8), to: link)
    } catch {
      #expect(error.reason.contains("another user made in a shared folder"))
    }
  }

  /// A link to a folder, planted the same way, is not followed either when it is a folder on the
  /// way (`/tmp/their-link/new.html`): the file was written wherever their link pointed.
  @Test(.enabled(if: geteuid() == 0, "making a link owned by another user needs root"))
  func aFolderLinkAnotherUserPlantedInASharedFolderIsRefused() throws {
    let folder = try stickyFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    let link = folder.appendingPathComponent("their-folder").path
    #expect(symlink(victim.path, link) == 0)
    #expect(lchown(link, 65_534, 65_534) == 0)
    do {
      try OutputFile.write(Array("page\n".utf8), to: link + "/new.html")
      Issue.record("written through another user's folder link")
    } catch {
      #expect(error.reason.contains("its folder \(link) is a symbolic link another user made"), "\(error.reason)")
    }
    #expect(!FileManager.default.fileExists(atPath: victim.appendingPathComponent("new.html").path))
    // One of our own links, and one in a folder that is not shared, are followed.
    #expect(lchown(link, geteuid(), getegid()) == 0)
    try OutputFile.write(Array("page\n".utf8), to: link + "/new.html")
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("new.html").path))
  }

  /// A regular file or a FIFO another user made in a shared folder is never written: replacing
  /// the file as root would hand them the content, and the FIFO would pass it to them.
  @Test(.enabled(if: geteuid() == 0, "making a file owned by another user needs root"))
  func aFileOrFIFOAnotherUserMadeInASharedFolderIsRefused() throws {
    let folder = try stickyFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("replykit-reply-00000001.txt").path
    try Data("theirs".utf8).write(to: URL(fileURLWithPath: file))
    #expect(chown(file, 65_534, 65_534) == 0)
    #expect(chmod(file, 0o666) == 0)
    #expect(throws: OutputFile.Failure.self) { try OutputFile.write(Array("reply\n".utf8), to: file) }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "theirs")
    let fifo = folder.appendingPathComponent("replykit-reply-00000002.txt").path
    #expect(mkfifo(fifo, 0o666) == 0)
    #expect(chown(fifo, 65_534, 65_534) == 0)
    // Refused before it is opened, so no reader is needed for the test to end.
    #expect(throws: OutputFile.Failure.self) { try OutputFile.write(Array("reply\n".utf8), to: fifo) }
  }

  /// One's own link in the same folder is followed, as before.
  @Test func ownLinkInASharedFolderIsFollowed() throws {
    let folder = try stickyFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.txt").path
    let link = folder.appendingPathComponent("link.txt").path
    #expect(symlink(target, link) == 0)
    try OutputFile.write(Array("mine\n".utf8), to: link)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "mine\n")
  }
}
