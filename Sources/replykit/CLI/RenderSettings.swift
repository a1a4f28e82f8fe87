import ReplyMarkdown

/// The rendering options that `render` and `stream` share: the output format, parse options, HTML
/// safety and the terminal's width, colour and hyperlinks. Bad values are usage errors.
struct RenderSettings {
  /// The options these settings read, for a command's option table.
  static let arities: [String: ParsedArguments.Arity] = [
    "--to": .value, "--width": .value, "--color": .value, "--hyperlinks": .value, "--unsafe": .flag,
    "--commonmark": .flag, "--smart": .flag, "--max-bytes": .value,
  ]

  /// What to write.
  let format: OutputFormat
  let parseOptions: ParseOptions
  let htmlOptions: HTMLRenderer.Options
  let ansiOptions: ANSIOptions
  /// The largest input read (``InputLimits/maxInputBytes`` unless `--max-bytes` says otherwise).
  let maxInputBytes: Int

  init(_ parsed: ParsedArguments) throws {
    maxInputBytes = try parsed.integer("--max-bytes", in: 1...Int.max) ?? InputLimits.default.maxInputBytes
    format = try parsed.choice("--to", default: OutputFormat.html)
    let width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...10_000)
    let color = try parsed.choice("--color", default: ANSIOptions.Mode.auto)
    let hyperlinks = try parsed.choice("--hyperlinks", default: ANSIOptions.Mode.auto)
    if format != .ansi {
      for name in ["--width", "--color", "--hyperlinks"] where parsed.value(name) != nil {
        throw CLIError.usage("\(name) applies to '--to ansi' only")
      }
    }
    var parseOptions: ParseOptions = parsed.has("--commonmark") ? .commonMark : .github
    if parsed.has("--smart") { parseOptions.insert(.smartPunctuation) }
    self.parseOptions = parseOptions
    htmlOptions = parsed.has("--unsafe") ? [.unsafe] : []
    ansiOptions = ANSIOptions.standardOutput(width: width, color: color, hyperlinks: hyperlinks)
  }
}
