import Foundation
import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// Every case of `pathological.json`, generated at full size, through the guard, the parser and the
/// HTML renderer: output stays bounded, a guard reports every change it makes, and our HTML of the
/// guarded text is cmark-gfm's. (Times are measured by `replykit-bench pathological`, not here.)
@Suite struct PathologicalInputTests {
  static func cases() throws -> [PathologicalCase] {
    let shared = try #require(SharedData.sharedRoot)
    return try PathologicalCase.load(from: shared.appendingPathComponent("corpus/pathological.json"))
  }

  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func allCasesAreBoundedAndReported() throws {
    let cases = try Self.cases()
    #expect(cases.count == 61)
    var guardedCases = 0
    for item in cases {
      let text = item.generate()
      #expect(text.utf8.count == item.measured.input_bytes, "\(item.name): generator size")
      let guarded = InputGuard.apply(text, options: item.parseOptions)
      // The guard ran above; parsing its text unguarded is what `MarkdownDocument(text)` does.
      let document = MarkdownDocument(guarded.text, options: item.parseOptions, limits: .unlimited)
      // A change is always reported, and a report always comes with a change.
      #expect((guarded.text != text) == !guarded.diagnostics.isEmpty, "\(item.name): change vs. diagnostics")
      if !guarded.diagnostics.isEmpty { guardedCases += 1 }
      let html = HTMLRenderer().render(document)
      let bound = FuzzOracle.outputBound(forBytes: text.utf8.count)
      #expect(html.utf8.count <= bound, "\(item.name): \(html.utf8.count) bytes of HTML from \(text.utf8.count)")
      // Below 300 kB the C library renders the guarded text quickly: ours must equal it.
      if guarded.text.utf8.count < 300_000 {
        let reference = CmarkReference.html(guarded.text, options: item.parseOptions)
        #expect(html == reference, "\(item.name): HTML differs from cmark-gfm on the guarded text")
      }
    }
    print("pathological: \(cases.count) cases bounded, \(guardedCases) changed by a guard")
    #expect(guardedCases >= 25, "the guard should act on at least the cases that are slow in C")
  }

  /// The cases the C library needs over a second for must all be changed by a guard.
  @Test(.enabled(if: SharedData.isPresent, SharedData.absent))
  func everySlowCaseIsGuarded() throws {
    for item in try Self.cases() where item.measured.over_1s && item.render == "html" {
      let guarded = InputGuard.apply(item.generate(), options: item.parseOptions)
      #expect(!guarded.diagnostics.isEmpty, "\(item.name) is slow in cmark-gfm but no guard acted")
    }
  }
}
