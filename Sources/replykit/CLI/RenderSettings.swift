import ReplyHighlight
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rendering options that `render` and `stream` share: the output format, parse options, HTML
/// safety and the terminal's width, colour and hyperlinks. Bad values are usage errors.
struct RenderSettings {
  /// The options these settings read, for a command's option table.
  static let arities: [String: ParsedArguments.Arity] = [
    "--to": .value, "--width": .value, "--color": .value, "--hyperlinks": .value, "--unsafe": .flag,
    "--commonmark": .flag, "--smart": .flag, "--max-bytes": .value, "--theme": .value, "--highlight": .value,
  ]

  /// The lines `--help` lists the highlighting themes in.
  static var themeHelp: String {
    var lines: [String] = []
    var line = "                     "
    for name in KSyntaxCodeHighlighter.themeNames {
      if line.count + name.count + 2 > 98 {
        lines.append(line)
        line = "                     "
      }
      line += " " + name + ","
    }
    lines.append(String(line.dropLast()))
    return lines.joined(separator: "\n")
  }

  /// The help text of `--theme` and `--highlight`.
  static var highlightHelp: String {
    """
      --highlight WHEN   colour code blocks by language: auto (default: ansi with colour on),
                         always (html too: class="hl-…" spans) or never
      --theme NAME       the highlighting theme (default: GitHub Dark, or GitHub Light when the
                         terminal's background is light); one of:
    \(themeHelp)
    """
  }

  /// The highlighter in the theme `name` names, matched without regard to case; an unknown name is
  /// a usage error that lists the themes.
  static func highlighter(themeNamed name: String) throws -> KSyntaxCodeHighlighter {
    guard let theme = KSyntaxCodeHighlighter.themeNames.first(where: { $0.lowercased() == name.lowercased() }),
      let highlighter = KSyntaxCodeHighlighter(themeNamed: theme)
    else {
      throw CLIError.usage(
        "unknown theme '\(name)'; themes: \(KSyntaxCodeHighlighter.themeNames.joined(separator: ", "))")
    }
    return highlighter
  }

  /// What to write.
  let format: OutputFormat
  let parseOptions: ParseOptions
  let htmlOptions: HTMLRenderer.Options
  let ansiOptions: ANSIOptions
  /// The highlighter for HTML (`--highlight always`), or nil.
  let htmlHighlighter: KSyntaxCodeHighlighter?
  /// The largest input read (``InputLimits/maxInputBytes`` unless `--max-bytes` says otherwise).
  let maxInputBytes: Int

  /// Whether the command reads its input (one positional, or none, or `-`: standard input) from
  /// a terminal, typed as it runs.
  static func readsTerminal(_ parsed: ParsedArguments) -> Bool {
    let input = parsed.positionals.first
    return (input == nil || input == "-") && isatty(STDIN_FILENO) == 1
  }

  init(_ parsed: ParsedArguments) throws {
    maxInputBytes = try parsed.integer("--max-bytes", in: 1...Int.max) ?? InputLimits.default.maxInputBytes
    format = try parsed.choice("--to", default: OutputFormat.html)
    let width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...ANSIOptions.maximumEnvironmentWidth)
    let color = try parsed.choice("--color", default: ANSIOptions.Mode.auto)
    let hyperlinks = try parsed.choice("--hyperlinks", default: ANSIOptions.Mode.auto)
    if format != .ansi {
      for name in ["--width", "--color", "--hyperlinks"] where parsed.value(name) != nil {
        throw CLIError.usage("\(name) applies to '--to ansi' only")
      }
    }
    // An option that cannot change the output is a mistake worth naming, not one to ignore.
    if format != .html && parsed.has("--unsafe") {
      throw CLIError.usage("--unsafe applies to '--to html' only (ansi and plain never pass raw HTML)")
    }
    if format == .plain {
      for name in ["--highlight", "--theme"] where parsed.value(name) != nil {
        throw CLIError.usage("\(name) applies to '--to ansi' and '--to html' only; plain text has no colours")
      }
    }
    var parseOptions: ParseOptions = parsed.has("--commonmark") ? .commonMark : .github
    if parsed.has("--smart") { parseOptions.insert(.smartPunctuation) }
    self.parseOptions = parseOptions
    htmlOptions = parsed.has("--unsafe") ? [.unsafe] : []
    let highlight = try parsed.choice("--highlight", among: ["auto", "always", "never"], default: "auto")
    let chosenTheme = try parsed.value("--theme").map(Self.highlighter(themeNamed:))
    var ansi = ANSIOptions.standardOutput(width: width, color: color, hyperlinks: hyperlinks)
    if format == .ansi && ansi.color && highlight != "never" {
      // Not asked while the reply is typed at the terminal: the query would read its first keys.
      ansi.highlighter =
        chosenTheme
        ?? KSyntaxCodeHighlighter(
          dark: TerminalBackground.isDark(
            environment: TerminalEnvironment.variables, asking: !Self.readsTerminal(parsed), keys: .returned))
    }
    ansiOptions = ansi
    htmlHighlighter = format == .html && highlight == "always" ? chosenTheme ?? KSyntaxCodeHighlighter() : nil
  }
}
