import ReplyMarkdown

/// The rendering options that `render` and `stream` share: the output format, parse options, HTML
/// safety and the terminal's width, colour and hyperlinks. Bad values are usage errors.
struct RenderSettings {
  /// The options these settings read, for a command's option table.
  static let arities: [String: ParsedArguments.Arity] = [
    "--to": .value, "--width": .value, "--color": .value, "--hyperlinks": .value, "--unsafe": .flag,
    "--commonmark": .flag, "--smart": .flag, "--max-bytes": .value,
  ]

  /// `html`, `plain` or `ansi`.
  let format: String
  let parseOptions: ParseOptions
  let htmlOptions: HTMLRenderer.Options
  let ansiOptions: ANSIOptions
  /// The largest input read (``InputLimits/maxInputBytes`` unless `--max-bytes` says otherwise).
  let maxInputBytes: Int

  init(_ parsed: ParsedArguments) throws {
    maxInputBytes = try parsed.integer("--max-bytes", in: 1...Int.max) ?? InputLimits.default.maxInputBytes
    format = try parsed.choice("--to", among: ["html", "plain", "ansi"], default: "html")
    let width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...10_000)
    let modes = ANSIOptions.Mode.allCases.map(\.rawValue)
    let color = try parsed.choice("--color", among: modes, default: "auto")
    let hyperlinks = try parsed.choice("--hyperlinks", among: modes, default: "auto")
    if format != "ansi" {
      for name in ["--width", "--color", "--hyperlinks"] where parsed.value(name) != nil {
        throw CLIError.usage("\(name) applies to '--to ansi' only")
      }
    }
    var parseOptions: ParseOptions = parsed.has("--commonmark") ? .commonMark : .github
    if parsed.has("--smart") { parseOptions.insert(.smartPunctuation) }
    self.parseOptions = parseOptions
    htmlOptions = parsed.has("--unsafe") ? [.unsafe] : []
    ansiOptions = ANSIOptions.standardOutput(
      width: width, color: ANSIOptions.Mode(rawValue: color) ?? .auto,
      hyperlinks: ANSIOptions.Mode(rawValue: hyperlinks) ?? .auto)
  }
}
