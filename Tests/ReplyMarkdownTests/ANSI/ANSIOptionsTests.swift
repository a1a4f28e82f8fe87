import Testing

@testable import ReplyMarkdown

/// Colour decisions from the mode, the terminal and `NO_COLOR` / `FORCE_COLOR` / `TERM`.
@Suite struct ANSIOptionsTests {
  /// A width past a million columns counts as a million: `Int.max` overflowed drawing a rule
  /// (a library trial).
  @Test func hugeWidthsAreClamped() {
    var options = ANSIOptions(width: .max)
    #expect(options.width == ANSIOptions.maximumWidth)
    options.width = .max
    #expect(options.width == ANSIOptions.maximumWidth)
    let lines = ANSIRenderer(options: ANSIOptions(width: 2_000_000)).renderLines(MarkdownDocument("---\n"))
    #expect(lines.first.map { DisplayWidth.of($0) } == ANSIOptions.maximumWidth)
  }

  @Test func explicitModesWin() {
    #expect(ANSIOptions.resolve(color: .always, isTerminal: false, environment: ["NO_COLOR": "1"]))
    #expect(!ANSIOptions.resolve(color: .never, isTerminal: true, environment: ["FORCE_COLOR": "1"]))
  }

  @Test func autoFollowsTheTerminalAndTheEnvironment() {
    #expect(ANSIOptions.resolve(color: .auto, isTerminal: true, environment: [:]))
    #expect(!ANSIOptions.resolve(color: .auto, isTerminal: false, environment: [:]))
    #expect(!ANSIOptions.resolve(color: .auto, isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(ANSIOptions.resolve(color: .auto, isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(ANSIOptions.resolve(color: .auto, isTerminal: false, environment: ["FORCE_COLOR": "1"]))
    #expect(!ANSIOptions.resolve(color: .auto, isTerminal: false, environment: ["FORCE_COLOR": "0"]))
    #expect(!ANSIOptions.resolve(color: .auto, isTerminal: true, environment: ["TERM": "dumb"]))
  }

  /// Only where the test runner's standard output is not a terminal (else the terminal's width wins).
  @Test(.enabled(if: !TerminalEnvironment.standardOutputIsTerminal))
  func widthComesFromColumnsWhenNotATerminal() {
    #expect(ANSIOptions.standardOutput(environment: ["COLUMNS": "57"]).width == 57)
    #expect(ANSIOptions.standardOutput(environment: ["COLUMNS": "x"]).width == 80)
    // Past the widest `--width` takes: as wide as that (a trial's COLUMNS=100000 made lines of 99,998).
    #expect(ANSIOptions.standardOutput(environment: ["COLUMNS": "100000"]).width == 10_000)
    #expect(ANSIOptions.standardOutput(width: 33, environment: ["COLUMNS": "57"]).width == 33)
    #expect(!ANSIOptions.standardOutput(environment: [:]).color)
  }
}
