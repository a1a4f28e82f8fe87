import Foundation
import ReplyMarkdown
import Testing

/// `replykit render`, `--help`, `--version` and the one-line errors, as a user runs them.
@Suite struct RenderCommandTests {
  @Test func rendersStandardInputAsHTML() throws {
    let result = try CLIRunner.run(["render"], input: "# Hi **there**\n\n<b>raw</b>\n")
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "<h1>Hi <strong>there</strong></h1>\n<p><!-- raw HTML omitted -->raw<!-- raw HTML omitted --></p>\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func unsafeKeepsRawHTML() throws {
    let result = try CLIRunner.run(["render", "-", "--to", "html", "--unsafe"], input: "<b>raw</b>\n")
    #expect(result.stdout == "<p><b>raw</b></p>\n")
  }

  @Test func rendersAFileLikeTheLibrary() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-cli-\(UUID().uuidString).md")
    let markdown = "| a | b |\n|---|:-:|\n| 1 | 2 |\n\n- [x] done\n\ntext[^1]\n\n[^1]: note\n"
    try Data(markdown.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try CLIRunner.run(["render", url.path])
    #expect(result.status == 0)
    #expect(result.stdout == CmarkReference.html(markdown))
  }

  @Test func invalidUTF8BecomesReplacementCharacters() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-cli-\(UUID().uuidString).md")
    try Data([0x61, 0xFF, 0x62, 0x0A]).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try CLIRunner.run(["render", url.path])
    #expect(result.stdout == "<p>a\u{FFFD}b</p>\n")
  }

  @Test(arguments: [
    (["render", "--bogus"], 2, "unknown option '--bogus'"),
    (["render", "--to", "pdf"], 2, "unknown value 'pdf' for --to"),
    (["render", "--to"], 2, "option '--to' needs a value"),
    (["render", "/nonexistent/reply.md"], 1, "cannot read '/nonexistent/reply.md'"),
    (["render", "/"], 1, "it is a directory"),
    (["render", "a.md", "b.md"], 2, "takes one input file"),
    (["frobnicate"], 2, "unknown command 'frobnicate'"),
    (["--bogus"], 2, "unknown option '--bogus'"),
  ])
  func badInputGivesAOneLineErrorAndNonZeroStatus(arguments: [String], status: Int32, message: String) throws {
    let result = try CLIRunner.run(arguments)
    #expect(result.status == status)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("replykit: "))
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func helpAndVersion() throws {
    let help = try CLIRunner.run(["--help"])
    #expect(help.status == 0 && help.stdout.contains("Usage: replykit <command>"))
    let renderHelp = try CLIRunner.run(["render", "--help"])
    #expect(renderHelp.status == 0 && renderHelp.stdout.contains("Usage: replykit render"))
    let version = try CLIRunner.run(["--version"])
    #expect(version.status == 0 && version.stdout.contains("cmark-gfm 0.29.0.gfm.6"))
  }

  /// A named FIFO is read once: before, `render` opened it, closed it and opened it again, so the
  /// writer's text was dropped and the second open waited for ever.
  @Test(arguments: ["render", "stream"])
  func aFIFOIsReadOnce(command: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try OutputSafetyTests.shell(
      """
      mkfifo in
      timeout 10 "$R" \(command) in > out.html & reader=$!
      printf '# hi\\n' > in
      wait $reader; echo "status $?"
      cat out.html
      """, in: directory)
    #expect(result.stdout == "status 0\n<h1>hi</h1>\n")
  }
}
