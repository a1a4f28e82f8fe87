import Foundation
import Testing

@testable import ReplyMarkdown

/// Every case of `../shared/streaming/cases.jsonl`: the display for a prefix, normalised.
@Suite struct StreamingCaseTests {
  @Test func everySharedCaseShowsTheExpectedDisplay() throws {
    let cases = try StreamingHarness.jsonLines("cases.jsonl")
    guard !cases.isEmpty else {
      print("streaming cases: skipped (../shared/streaming is absent)")
      return
    }
    var failures: [String] = []
    for entry in cases {
      guard let id = entry["id"] as? String, let input = entry["in"] as? String, let show = entry["show"] as? String
      else { continue }
      let shown = StreamingHarness.normalise(StreamingHarness.display(input))
      if shown != show { failures.append("\(id): \(input.debugDescription)\n  got  \(shown)\n  want \(show)") }
    }
    print("streaming cases: \(cases.count - failures.count) of \(cases.count) pass")
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(cases.count == 61)
  }

  @Test func everySharedCaseFinishesAsOneShot() throws {
    for entry in try StreamingHarness.jsonLines("cases.jsonl") {
      guard let input = entry["in"] as? String else { continue }
      let result = StreamingHarness.stream(
        [input], options: StreamingHarness.caseOptions, renderer: StreamingHarness.caseRenderer)
      let oneShot = StreamingHarness.caseRenderer.render(MarkdownDocument(input, options: StreamingHarness.caseOptions))
      #expect(result.final == oneShot, "\(entry["id"] ?? "")")
    }
  }
}
