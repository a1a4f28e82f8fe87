import Foundation
import ReplyMarkdown
import Testing

/// `replykit stream --to ansi` on a terminal (tmux): the live region redraws in place with rows
/// counted as drawn, so with `--width` wider than the terminal the scrollback ends as `render`'s
/// output wrapped at the terminal's columns, no line repeated.
///
/// Left out: replies whose link definitions come last and replies with a table taller than the
/// screen (rows frozen above the screen keep their references and column widths as they stood),
/// and ZWJ emoji (tmux 3.3 gives them other widths than the renderer, in `render` too).
@Suite(.enabled(if: TmuxSession.tmuxPath != nil, "tmux is not installed: run 'make test' (it installs tmux)"))
struct StreamTerminalTests {
  static let columns = 80

  /// `text`'s lines as a terminal `columns` wide shows them: wrapped by display width, a wide
  /// character that does not fit moving to the next row; trailing spaces dropped (as tmux captures).
  static func wrapped(_ text: String, columns: Int) -> [String] {
    var rows: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var row = ""
      var width = 0
      for character in line {
        let characterWidth = DisplayWidth.of(String(character))
        if width + characterWidth > columns {
          rows.append(row)
          row = ""
          width = 0
        }
        row.append(character)
        width += characterWidth
      }
      rows.append(row)
    }
    return rows.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  @Test(arguments: [
    "02-swift-sort-vs-sorted.md", "09-banana-bread-recipe.md", "13-c-pointers-explained.md",
    "16-korean-study-plan.md", "19-vscode-keyboard-shortcuts.md",
  ])
  func widerThanTheTerminalEndsAsRenderWrapped(name: String) throws {
    let file = StreamCommandTests.corpus.first { $0.lastPathComponent == name }
    let path = try #require(file).path
    let flags = ["--to", "ansi", "--width", "120", "--color", "never", "--hyperlinks", "never"]
    let rendered = try CLIRunner.run(["render", path] + flags)
    var expected = Self.wrapped(rendered.stdout, columns: Self.columns)
    while expected.last == "" { expected.removeLast() }

    let session = try TmuxSession(
      [path, "--delay-ms", "1", "--chunk-bytes", "8"] + flags, width: Self.columns, height: 24,
      subcommand: "stream", readyText: nil)
    try session.waitFor("EXITED 0", timeout: 60)
    var rows = try session.scrollback().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let end = try #require(rows.lastIndex { $0.hasPrefix("EXITED ") })
    rows = Array(rows[..<end])
    while rows.last == "" { rows.removeLast() }
    #expect(rows == expected, "\(name): the terminal shows\n\(rows.joined(separator: "\n"))")
  }
}
