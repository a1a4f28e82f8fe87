import Foundation
import Testing

@testable import ReplyMarkdown

/// The examples of `../shared/plaintext/examples`, byte for byte, and the rules they do not cover.
@Suite struct PlainTextExampleTests {
  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func everySharedExampleMatchesExactly() throws {
    let shared = try #require(SharedData.sharedRoot)
    let folder = shared.appendingPathComponent("plaintext/examples")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
    #expect(!names.isEmpty)
    for name in names {
      let markdown = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      let expected = try String(
        contentsOf: folder.appendingPathComponent(String(name.dropLast(3)) + ".txt"), encoding: .utf8)
      let ours = PlainTextRenderer().render(MarkdownDocument(markdown))
      #expect(ours == expected, "\(name): got\n\(ours)\n---- expected\n\(expected)")
    }
  }
}
