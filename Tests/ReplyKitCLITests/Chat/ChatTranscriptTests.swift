import Foundation
import Testing

/// `replykit chat` without a terminal: the Example printed, the follow-up streamed, exit 0.
@Suite struct ChatTranscriptTests {
  @Test func printsTheExampleConversationInAPipe() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "0", "--width", "80"], environment: ["NO_COLOR": "1"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let output = result.stdout
    #expect(output.contains("Today"))
    #expect(output.contains("How do I run work in the background in Swift"))
    #expect(output.contains("Can you give me a template"))
    #expect(output.contains(" │ struct ItemsScreen: View {"))
    #expect(output.hasSuffix("\n Swap ItemStore for your own type and you are done.\n"))
    #expect(!output.contains("\u{1B}"))
    #expect(output.split(separator: "\n").allSatisfy { $0.count <= 80 && !$0.hasSuffix(" ") })
  }

  /// The chat printed dates in Foundation's `en_001` ("Sunday, 1 March") whatever `LANG` said,
  /// where `export` follows `LANG` (a trial): both ask the environment now.
  @Test(arguments: [
    ("de_DE.UTF-8", "1. Juni 2025", "Heute"), ("C.UTF-8", "June 1, 2025", "Today"),
    ("fr_FR.UTF-8", "1 juin 2025", "Aujourd"),
  ])
  func datesFollowTheEnvironmentsLanguage(lang: String, date: String, today: String) throws {
    let directory = try ChatWithoutTerminalTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let thread = """
      {"messages":[{"id":"00000000-0000-4000-8000-000000000001","role":"user","text":"Hi","date":"2025-06-01T12:00:00Z",\
      "state":"complete"},{"id":"00000000-0000-4000-8000-000000000002","role":"assistant","text":"Hello",\
      "date":"\(ISO8601DateFormatter().string(from: Date()))","state":"complete"}]}
      """
    try Data(thread.utf8).write(to: directory.appendingPathComponent("t.json"))
    let chat = try CLIRunner.run(
      ["chat", "--thread", directory.appendingPathComponent("t.json").path],
      environment: ["LANG": lang, "LC_ALL": "", "LC_TIME": "", "NO_COLOR": "1", "TZ": "UTC"])
    #expect(chat.status == 0, "\(chat.stderr)")
    #expect(chat.stdout.contains(date), "\(chat.stdout)")
    #expect(chat.stdout.contains(today), "\(chat.stdout)")
    let export = try CLIRunner.run(
      ["export", directory.appendingPathComponent("t.json").path, "--to", "transcript"],
      environment: ["LANG": lang, "LC_ALL": "", "LC_TIME": "", "TZ": "UTC"])
    #expect(export.stdout.contains(date) && export.stdout.contains(today), "\(export.stdout)")
  }

  @Test func colourFollowsTheColorOption() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "0", "--color", "always"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\u{1B}["))
  }

  @Test func codeIsHighlightedInTheChosenTheme() throws {
    let environment = ["COLORTERM": "truecolor", "COLORFGBG": "15;0"]
    let base = ["chat", "--pace-ms", "0", "--color", "always"]
    // `struct` in the Example's Swift: GitHub Dark's keyword #f97583 by default, Light's #d73a49.
    let dark = try CLIRunner.run(base, environment: environment)
    #expect(dark.status == 0)
    #expect(dark.stdout.contains("\u{1B}[0;38;2;249;117;131mstruct"))
    let light = try CLIRunner.run(base + ["--theme", "github light"], environment: environment)
    #expect(light.status == 0)
    #expect(light.stdout.contains("\u{1B}[0;38;2;215;58;73mstruct"))
    let never = try CLIRunner.run(base + ["--highlight", "never"], environment: environment)
    #expect(never.status == 0)
    #expect(never.stdout.contains("struct ItemsScreen"))
    #expect(!never.stdout.contains("38;2;"))
    // Highlighting changes colours only: the same text once escapes are removed.
    #expect(Self.withoutEscapes(never.stdout) == Self.withoutEscapes(dark.stdout))
  }

  @Test func unknownThemesAreUsageErrorsAndHelpListsTheThemes() throws {
    let bad = try CLIRunner.run(["chat", "--pace-ms", "0", "--theme", "No Such Theme"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("unknown theme 'No Such Theme'; themes: "))
    #expect(bad.stderr.contains("GitHub Dark"))
    let highlight = try CLIRunner.run(["chat", "--pace-ms", "0", "--highlight", "sometimes"])
    #expect(highlight.status == 2)
    let help = try CLIRunner.run(["chat", "--help"])
    #expect(help.status == 0)
    for name in ["--theme NAME", "--highlight WHEN", "GitHub Dark", "GitHub Light", "Solarized Dark", "Dracula"] {
      #expect(help.stdout.contains(name), "\(name)")
    }
  }

  /// The text with SGR sequences removed.
  static func withoutEscapes(_ text: String) -> String {
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        while let next = scalars.next(), next != "m" {}
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  @Test func badOptionsAreUsageErrors() throws {
    let result = try CLIRunner.run(["chat", "--pace-ms", "fast"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--pace-ms must be a whole number"))
  }
}
