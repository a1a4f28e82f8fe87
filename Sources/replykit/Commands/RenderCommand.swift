import ReplyHighlight
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
                           [--max-bytes N] [--highlight auto|always|never] [--theme NAME]

    Renders a markdown reply (a file, or standard input for '-' or no file) to standard output.
    HTML and plain text are written byte for byte into a pipe or file; on a terminal their control
    characters show as symbols (ESC as '␛'), as ansi output always shows them.

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
      --max-bytes N      refuse an input of more than N bytes (default 268435456, 256 MiB)
    \(RenderSettings.highlightHelp)
      -h, --help         show this help
    """

  static let options: [String: ParsedArguments.Arity] = RenderSettings.arities.merging([
    "--help": .flag, "-h": .flag,
  ]) { first, _ in first }

  /// The rendered document, kept until the process ends: `render` exits right after writing, and
  /// the kernel drops the memory at once where releasing every node's strings one by one would
  /// only add time (about 3% of rendering a large reply).
  nonisolated(unsafe) static var keptUntilExit: MarkdownDocument?

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "render", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let settings = try RenderSettings(parsed)
    let input = try parsed.singleInput(command: "render")
    let text = try StandardIO.readText(input, limit: settings.maxInputBytes)
    // The fences' language definitions load on another core while the text parses.
    let highlighter: (any CodeHighlighter)? =
      settings.format == .ansi ? settings.ansiOptions.highlighter : settings.htmlHighlighter
    (highlighter as? KSyntaxCodeHighlighter)?.preloadLanguages(in: text)
    let document = MarkdownDocument(text, options: settings.parseOptions)
    keptUntilExit = document
    switch settings.format {
    case .plain:
      // HTML and plain text are not made for a terminal: on one, their control characters show.
      PlainTextRenderer().withRenderedUTF8(document) { StandardIO.writeShown($0) }
    case .ansi:
      ANSIRenderer(options: settings.ansiOptions).withRenderedUTF8(document) { StandardIO.writeAll(STDOUT_FILENO, $0) }
    case .html:
      let renderer = HTMLRenderer(options: settings.htmlOptions, highlighter: settings.htmlHighlighter)
      renderer.withRenderedUTF8(document) { StandardIO.writeShown($0) }
    }
    if highlighter is KSyntaxCodeHighlighter { KSyntaxCodeHighlighter.waitForPreloads() }
    try StandardIO.checkOutput()
    GuardNotes.write(document.diagnostics)
  }
}
