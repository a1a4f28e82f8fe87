import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit render [FILE|-] --to html [--unsafe]`: renders a markdown reply once.
enum RenderCommand {
  static let help = """
    Usage: replykit render [FILE|-] [--to html] [--unsafe] [--commonmark] [--smart]

    Renders a markdown reply (a file, or standard input for '-' or no file) to standard output.

    Options:
      --to FORMAT     html (default)
      --unsafe        HTML only: keep raw HTML and dangerous URLs (never for untrusted input)
      --commonmark    parse plain CommonMark (GitHub's extensions and footnotes off)
      --smart         smart punctuation (curly quotes, dashes, ellipses)
      -h, --help      show this help
    """

  static let options: [String: ParsedArguments.Arity] = [
    "--to": .value, "--unsafe": .flag, "--commonmark": .flag, "--smart": .flag, "--help": .flag, "-h": .flag,
  ]

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "render", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let format = try parsed.choice("--to", among: ["html", "plain"], default: "html")
    let input = try parsed.singleInput(command: "render")
    let text = try StandardIO.readText(input)
    var parseOptions: ParseOptions = parsed.has("--commonmark") ? .commonMark : .github
    if parsed.has("--smart") { parseOptions.insert(.smartPunctuation) }
    let document = MarkdownDocument(text, options: parseOptions)
    switch format {
    case "plain":
      let text = PlainTextRenderer().render(document)
      StandardIO.write(text.isEmpty ? "" : text + "\n")
    default:
      let renderer = HTMLRenderer(options: parsed.has("--unsafe") ? [.unsafe] : [])
      renderer.withRenderedUTF8(document) { StandardIO.writeAll(STDOUT_FILENO, $0) }
    }
  }
}
