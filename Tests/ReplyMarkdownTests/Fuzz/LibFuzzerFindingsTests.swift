import Foundation
import ReplyKitFuzz
import Testing

/// Inputs the libFuzzer harness stopped on (a flags byte, then the document), replayed through the
/// same oracle: each must now pass every check without trapping.
@Suite struct LibFuzzerFindingsTests {
  @Test func everyLibFuzzerFindingPasses() throws {
    let folder = SharedData.repositoryRoot.appendingPathComponent("Corpus/fuzz-regressions/libfuzzer")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("crash-") }
    #expect(!names.isEmpty)
    for name in names.sorted() {
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      guard let flags = data.first else { continue }
      let input = FuzzOracle.Input(bytes: Array(data.dropFirst()), smart: flags & 1 == 1, unsafe: flags & 2 == 2)
      do throws(FuzzOracle.Failure) {
        try FuzzOracle(checksTime: false).check(input)
      } catch {
        Issue.record("\(name): \(error.check): \(error.detail.prefix(300))")
      }
    }
  }

  /// Entities in raw HTML count as the characters they decode to, as the renderers show them
  /// (`crash-9205…` held `<kbd>&#96;</kbd>` in an HTML block; plain text shows a backtick).
  @Test func entitiesInHTMLAreNotStrayMarkup() {
    for markdown in ["<div>&#96; &ast; &lbrack;x&rsqb; &lowbar; &lt;</div>\n", "| a |\n|---|\n| <kbd>&#96;</kbd> |\n"] {
      let input = FuzzOracle.Input(bytes: Array(markdown.utf8), smart: false, unsafe: false)
      do throws(FuzzOracle.Failure) {
        try FuzzOracle(checksTime: false).check(input)
      } catch {
        Issue.record("\(markdown.debugDescription): \(error.check): \(error.detail)")
      }
    }
  }

  /// The healer's placeholders never show in a streamed display (check `streaming-marker`):
  /// brackets opened inside open brackets, strikethrough closers side by side.
  @Test func healMarkersNeverShow() {
    for markdown in [
      "x [y [z w and more words\n", "a [[[[[[[[ deep run of brackets\n", "[x [a](b then", "~~a ~~b ~~c words\n",
      "see [one [two [three\n\nnext", "[foo]: /url\n\nsee [x [foo] more words\n",
      "[x [a](<b c>) d e f\n", "http://e[]", "see www.example.com/[a b",
    ] {
      let input = FuzzOracle.Input(bytes: Array(markdown.utf8), smart: false, unsafe: false)
      do throws(FuzzOracle.Failure) {
        try FuzzOracle(checksTime: false).check(input)
      } catch {
        Issue.record("\(markdown.debugDescription): \(error.check): \(error.detail)")
      }
    }
  }
}
