import ChatEngine
import ChatExport
import Foundation
import Testing

/// `replykit export` of a thread with versions: the shown path, a mark on turns with other
/// versions, and `--all-versions` with the others collapsed under the shown one.
@Suite struct ExportVersionTests {
  private let environment = ["TZ": "UTC", "LANG": "en_US.UTF-8"]

  private static func message(_ number: Int, _ role: String, _ text: String) -> String {
    let id = String(format: "00000000-0000-4000-8000-%012d", number)
    return
      #"{"id": "\#(id)", "role": "\#(role)", "text": "\#(text)", "date": "2025-06-01T10:00:00Z", "state": "complete"}"#
  }

  /// Q → "New **answer**" (version 2 of 2; version 1 is "Old **answer** <script>…"), then Q2 → A2.
  private let thread = """
    {"messages": [\(message(1, "user", "Question")), \(message(3, "assistant", "New **answer**")),
                  \(message(4, "user", "Follow-up")), \(message(5, "assistant", "Second"))],
     "versions": [{"parent": "00000000-0000-4000-8000-000000000001", "version": 1,
                   "messages": [\(message(2, "assistant", "Old **answer** <script>alert(1)</script>"))]}]}
    """

  @Test func thePageShowsTheShownPathWithAMarkOnTurnsWithOtherVersions() throws {
    let result = try CLIRunner.run(["export", "-"], input: thread, environment: environment)
    #expect(result.status == 0 && result.stderr.isEmpty)
    let page = result.stdout
    #expect(page.contains("<strong>answer</strong>"))
    #expect(page.contains("<p class=\"state versions-mark\">Version 2 of 2</p>"))
    #expect(page.components(separatedBy: "versions-mark").count == 2)  // one turn has versions
    #expect(!page.contains("Old"))
    #expect(!page.contains("<details"))
    #expect(page.contains("<p>2 messages</p>") == false && page.contains("4 messages"))
  }

  @Test func allVersionsAddsTheOthersCollapsedAndSafe() throws {
    let result = try CLIRunner.run(["export", "-", "--all-versions"], input: thread, environment: environment)
    #expect(result.status == 0 && result.stderr.isEmpty)
    let page = result.stdout
    #expect(page.contains("<details><summary>1 other version</summary>"))
    #expect(page.contains("<section class=\"version\" aria-label=\"Version 1 of 2\">"))
    #expect(page.contains("<p>Old <strong>answer</strong> </p>") || page.contains("Old <strong>answer</strong>"))
    #expect(!page.contains("<script>alert"))
    // The other versions are not turns of the page: the script and the counts see the shown path.
    #expect(page.components(separatedBy: "<article class=\"turn").count == 5)
    // The style sheet with the version rules is the one the policy allows (the policy of a page
    // without highlighting is a constant; highlighting adds the theme rules to the hashed sheet).
    let plain = try CLIRunner.run(
      ["export", "-", "--all-versions", "--highlight", "never"], input: thread, environment: environment)
    #expect(plain.stdout.contains(ThreadPage.contentSecurityPolicy))
  }

  @Test func theTranscriptSaysWhenATurnHasOtherVersions() throws {
    let result = try CLIRunner.run(["export", "-", "--to", "transcript"], input: thread, environment: environment)
    #expect(
      result.stdout
        == "June 1, 2025\n\nYou: Question\n\nAssistant: New answer\nVersion 2 of 2\n\nYou: Follow-up\n\nAssistant: Second\n"
    )
    let plain = try CLIRunner.run(["export", "-", "--to", "plain"], input: thread, environment: environment)
    #expect(plain.stdout == "You: Question\n\nAssistant: New answer\n\nYou: Follow-up\n\nAssistant: Second\n")
  }

  @Test func aTurnWithVersionsInsideAnotherVersionIsMarked() throws {
    // Q1 edited (version 2 shows); on the old branch, its answer was regenerated (2 of 2 there).
    let nested = """
      {"messages": [\(Self.message(5, "user", "Q1 edited")), \(Self.message(6, "assistant", "B"))],
       "versions": [{"parent": null, "version": 1,
                     "messages": [\(Self.message(1, "user", "Q1")), \(Self.message(3, "assistant", "A second"))]},
                    {"parent": "00000000-0000-4000-8000-000000000001", "version": 1,
                     "messages": [\(Self.message(2, "assistant", "A first"))]}]}
      """
    let result = try CLIRunner.run(["export", "-", "--all-versions"], input: nested, environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let page = result.stdout
    // The edited turn's mark, and the mark of the answer inside the old branch.
    #expect(page.components(separatedBy: "<p class=\"state versions-mark\">Version 2 of 2</p>").count == 3)
    #expect(page.contains("A second"))
    // And the other version of that answer, collapsed under its mark, after the one the branch
    // shows (it was left out: a trial).
    let second = try #require(page.range(of: "A second"))
    let first = try #require(page.range(of: "A first"))
    #expect(second.upperBound < first.lowerBound)
    #expect(page[second.upperBound..<first.lowerBound].contains("Version 1 of 2"))
  }

  /// A chain of nested versions thousands deep: every version is on the page (the markup is made
  /// from a work list, not by recursion).
  @Test func aDeepChainOfNestedVersionsIsWhole() throws {
    let depth = 3_000
    // Shown: Q then R. Level k is another version of the turn after the first message of level
    // k - 1 (of R for level 0): its first message Hk, then a turn of the other role, whose own
    // other version is level k + 1.
    var versions: [String] = []
    var parent = 1
    for level in 0..<depth {
      let roles = level % 2 == 0 ? ("assistant", "user") : ("user", "assistant")
      let parentID = String(format: "00000000-0000-4000-8000-%012d", parent)
      let first = Self.message(10 + 2 * level, roles.0, "H" + String(level))
      let second = Self.message(11 + 2 * level, roles.1, "T" + String(level))
      versions.append(#"{"parent": "\#(parentID)", "version": 1, "messages": [\#(first), \#(second)]}"#)
      parent = 10 + 2 * level
    }
    let thread = """
      {"messages": [\(Self.message(1, "user", "Q")), \(Self.message(2, "assistant", "R"))],
       "versions": [\(versions.joined(separator: ","))]}
      """
    let result = try CLIRunner.run(["export", "-", "--all-versions"], input: thread, environment: environment)
    #expect(result.status == 0, "\(result.stderr.prefix(300))")
    for level in [0, 1, depth / 2, depth - 1] {
      #expect(result.stdout.contains(">H\(level)<"), "H\(level) missing")
    }
  }

  @Test func allVersionsIsForThePageOnly() throws {
    let result = try CLIRunner.run(
      ["export", "-", "--to", "markdown", "--all-versions"], input: thread, environment: environment)
    #expect(result.status == 2)
    #expect(result.stderr.contains("--all-versions applies to '--to html' only"))
  }

  @Test func theLibraryPageOfAThreadWithoutVersionsIsUnchanged() throws {
    let messages = ChatMessage.sample
    let plain = ThreadPage(messages: messages, timeZone: .gmt).render()
    let tree = ThreadPage(tree: ChatThreadTree(messages: messages), timeZone: .gmt, includesOtherVersions: true)
      .render()
    // The same page (the data block's JSON keys come in either order, so lengths are compared).
    #expect(tree.utf8.count == plain.utf8.count)
    #expect(!tree.contains("versions-mark") && !tree.contains("<details"))
  }
}
