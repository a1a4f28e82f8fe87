import Foundation
import Testing

@testable import replykit

/// An argument that is not UTF-8 (a Latin-1 file name) is refused: decoded with U+FFFD it would
/// name another file.
@Suite struct ArgumentEncodingTests {
  @Test func anArgumentThatIsNotUTF8IsAUsageErrorShowingItsBytes() throws {
    #expect(throws: Never.self) { try ArgumentEncoding.requireUTF8([Array("café.json".utf8), Array("-o".utf8)]) }
    do {
      try ArgumentEncoding.requireUTF8([Array("export".utf8), [0x63, 0x61, 0x66, 0xE9, 0x1B, 0x5C]])
      Issue.record("accepted")
    } catch {
      #expect(error.status == 2)
      #expect(error.message.hasPrefix(#"argument 2 is not UTF-8 ('caf\xE9\x1B\x5C'); "#), "\(error.message)")
      // Not only a file name: a title may be the argument (a review: "rename the file" alone).
      #expect(error.message.contains("write a value (a title, a language) in UTF-8"), "\(error.message)")
    }
  }

  /// Run as a user would: the file is not looked for under another name.
  @Test func theCommandLineRefusesALatin1FileName() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-argv-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      #"printf 'Hi\n' > "$(printf 'caf\351.md')"; "$R" render "$(printf 'caf\351.md')"; echo "status $?""#,
      in: directory)
    #expect(result.stdout == "status 2\n", "\(result.stdout)")
    #expect(result.stderr.contains(#"argument 2 is not UTF-8 ('caf\xE9.md')"#), "\(result.stderr)")
  }
}
