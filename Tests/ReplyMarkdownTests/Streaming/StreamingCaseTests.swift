import Foundation
import Testing

@testable import ReplyMarkdown

/// One line of our `Corpus/streaming/display-cases.jsonl`: the display for a prefix, normalised.
struct StreamingDisplayCase: Sendable, CustomTestStringConvertible {
  let id: String
  let rule: String
  let input: String
  /// The whole normalised display, or nil when only `contains` is checked.
  let show: String?
  /// A part the display must contain (for displays whose rest the rules leave open).
  let contains: String?
  let note: String
  /// What the implementation shows instead, when it disagrees with the rule: the case is then
  /// checked as a known issue (reported, not failing) until the implementation follows the rule.
  let known: String?

  var testDescription: String { "\(id) \(rule): \(input.debugDescription)" }

  static let all: [StreamingDisplayCase] = {
    let url = StreamingHarness.fixturesFolder.appendingPathComponent("display-cases.jsonl")
    let lines = (try? StreamingHarness.jsonLines(at: url)) ?? []
    return lines.compactMap { line in
      guard let id = line["id"] as? String, let input = line["in"] as? String else { return nil }
      return StreamingDisplayCase(
        id: id, rule: line["rule"] as? String ?? "", input: input, show: line["show"] as? String,
        contains: line["contains"] as? String, note: line["note"] as? String ?? "", known: line["known"] as? String)
    }
  }()
}

/// Our streaming acceptance cases (always), and those of `../shared/streaming/cases.jsonl` when
/// `../shared` is there.
@Suite struct StreamingCaseTests {
  /// Every rule of the streaming display has cases (the file is read, not silently empty).
  @Test func ourDisplayCasesCoverEveryRule() {
    let cases = StreamingDisplayCase.all
    #expect(cases.count >= 90)
    #expect(Set(cases.map(\.id)).count == cases.count, "ids are unique")
    #expect(cases.allSatisfy { $0.show != nil || $0.contains != nil }, "every case checks something")
    let rules = Set(cases.map(\.rule))
    for rule in [
      "heal", "reopen", "marker", "fence", "setext", "break", "ordered", "empty", "table", "html", "space", "cr",
      "grapheme", "image", "link", "footnote", "citation",
    ] {
      #expect(rules.contains(rule), "no case for \(rule)")
    }
  }

  @Test(arguments: StreamingDisplayCase.all)
  func ourCaseShowsTheExpectedDisplay(_ row: StreamingDisplayCase) {
    let shown = StreamingHarness.normalise(StreamingHarness.display(row.input))
    let check = {
      if let show = row.show { #expect(shown == show, "\(row.id) (\(row.note))") }
      if let part = row.contains { #expect(shown.contains(part), "\(row.id) shows \(shown) (\(row.note))") }
    }
    if let known = row.known {
      withKnownIssue("\(row.id): \(known)") { check() }
    } else {
      check()
    }
  }

  @Test(arguments: StreamingDisplayCase.all)
  func ourCaseFinishesAsOneShot(_ row: StreamingDisplayCase) {
    let result = StreamingHarness.stream(
      [row.input], options: StreamingHarness.caseOptions, renderer: StreamingHarness.caseRenderer,
      recordFrames: false)
    let oneShot = StreamingHarness.caseRenderer.render(
      MarkdownDocument(row.input, options: StreamingHarness.caseOptions))
    #expect(result.final == oneShot, "\(row.id)")
  }

  @Test(.enabled(if: SharedData.isAvailable, SharedData.absenceReason))
  func everySharedCaseShowsTheExpectedDisplay() throws {
    let cases = try StreamingHarness.jsonLines("cases.jsonl")
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

  @Test(.enabled(if: SharedData.isAvailable, SharedData.absenceReason))
  func everySharedCaseFinishesAsOneShot() throws {
    let cases = try StreamingHarness.jsonLines("cases.jsonl")
    #expect(!cases.isEmpty)
    for entry in cases {
      guard let input = entry["in"] as? String else { continue }
      let result = StreamingHarness.stream(
        [input], options: StreamingHarness.caseOptions, renderer: StreamingHarness.caseRenderer)
      let oneShot = StreamingHarness.caseRenderer.render(MarkdownDocument(input, options: StreamingHarness.caseOptions))
      #expect(result.final == oneShot, "\(entry["id"] ?? "")")
    }
  }
}
