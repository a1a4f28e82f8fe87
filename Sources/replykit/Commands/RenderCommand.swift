import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit render [FILE|-] --to html|plain|ansi [options]`: renders a markdown reply once.
enum RenderCommand {
  static let help = """
    Usage: replykit render [FILE|-] [--to html|plain|ansi] [--width N] [--color auto|always|never]
                           [--hyperlinks auto|always|never] [--unsafe] [--commonmark] [--smart]

    Renders a markdown reply (a file, or standard input for '-' or no file) to standard output.

    Options:
      --to FORMAT        html (default), plain (Copy/Share text) or ansi (terminal text)
      --width N          ansi: wrap to N columns, 20 to 10000 (default: the terminal's width,
                         else $COLUMNS, else 80)
      --color WHEN       ansi: auto (default: only on a terminal, off with NO_COLOR, on with
                         FORCE_COLOR), always or never
      --hyperlinks WHEN  ansi: auto (default: on a terminal with colour), always or never;
                         without hyperlinks links show as 'text (url)'
      --unsafe           HTML only: keep raw HTML and dangerous URLs (never for untrusted input)
      --commonmark       parse plain CommonMark (GitHub's extensions and footnotes off)
      --smart            smart punctuation (curly quotes, dashes, ellipses)
      -h, --help         show this help
    """

  static let options: [String: ParsedArguments.Arity] = [
    "--to": .value, "--width": .value, "--color": .value, "--hyperlinks": .value, "--unsafe": .flag,
    "--commonmark": .flag, "--smart": .flag, "--help": .flag, "-h": .flag,
  ]

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "render", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let format = try parsed.choice("--to", among: ["html", "plain", "ansi"], default: "html")
    let width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...10_000)
    let modes = ANSIOptions.Mode.allCases.map(\.rawValue)
    let color = try parsed.choice("--color", among: modes, default: "auto")
    let hyperlinks = try parsed.choice("--hyperlinks", among: modes, default: "auto")
    if format != "ansi" {
      for name in ["--width", "--color", "--hyperlinks"] where parsed.value(name) != nil {
        throw CLIError.usage("\(name) applies to '--to ansi' only")
      }
    }
    let input = try parsed.singleInput(command: "render")
    let text = try StandardIO.readText(input)
    var parseOptions: ParseOptions = parsed.has("--commonmark") ? .commonMark : .github
    if parsed.has("--smart") { parseOptions.insert(.smartPunctuation) }
    let document = MarkdownDocument(text, options: parseOptions)
    switch format {
    case "plain":
      PlainTextRenderer().withRenderedUTF8(document) { StandardIO.writeAll(STDOUT_FILENO, $0) }
    case "ansi":
      let options = ANSIOptions.standardOutput(
        width: width, color: ANSIOptions.Mode(rawValue: color) ?? .auto,
        hyperlinks: ANSIOptions.Mode(rawValue: hyperlinks) ?? .auto)
      ANSIRenderer(options: options).withRenderedUTF8(document) { StandardIO.writeAll(STDOUT_FILENO, $0) }
    default:
      let renderer = HTMLRenderer(options: parsed.has("--unsafe") ? [.unsafe] : [])
      renderer.withRenderedUTF8(document) { StandardIO.writeAll(STDOUT_FILENO, $0) }
    }
  }
}
