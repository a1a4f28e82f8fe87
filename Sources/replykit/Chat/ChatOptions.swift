import ChatModels
import ReplyHighlight
import ReplyMarkdown

/// The options of `replykit chat`, checked.
struct ChatOptions: Sendable {
  /// `--reply-command CMD`: replies come from this shell command instead of the built-in stub.
  var replyCommand: String?
  /// `--model NAME` and the rest, with the config file: replies come from this model server.
  var model: ModelEndpoint?
  /// `--thread FILE`: the thread file loaded at start and saved after every reply.
  var threadPath: String?
  /// `--max-bytes N`: the largest thread file loaded (256 MiB by default, as for `export`).
  var maxThreadBytes = InputLimits.default.maxInputBytes
  /// `--share-command CMD`: `/share` pipes the reply's plain text to this command.
  var shareCommand: String?
  /// `--pace-ms N` (or `REPLYKIT_PACE_MS`): milliseconds between the built-in stub's words.
  var paceMilliseconds = 35
  /// `--color`: colour in the transcript printed without a terminal, and in the full screen.
  var color: ANSIOptions.Mode = .auto
  /// `--width N`: the width of the transcript printed without a terminal.
  var width: Int?
  /// `--reading-width N`: the widest the full-screen thread is laid out.
  var readingWidth = 100
  /// `--benchmark`: measure frame times instead of chatting.
  var benchmark = false
  /// `--theme NAME` and `--highlight`: how code in replies is coloured when colour is on, or nil
  /// for not at all (`--highlight never`). By default GitHub Dark, or GitHub Light when the
  /// terminal's background is light.
  var highlighter: KSyntaxCodeHighlighter? = ChatHighlighting.highlighter

  static let help = """
    Usage: replykit chat [--model NAME [--base-url URL] [--api openai|anthropic] [--system TEXT]
                                       [--api-key-env VAR] [--allow-http-key]]
                         [--reply-command CMD] [--thread FILE [--max-bytes N]] [--share-command CMD]
                         [--pace-ms N] [--color auto|always|never] [--width N] [--reading-width N]
                         [--highlight auto|never] [--theme NAME] [--benchmark]

    A chat thread in the terminal, full-screen. With --model (or a default model in the config
    file) replies stream from a model server; with --reply-command from a command; with neither it
    shows the Example conversation and a built-in stub answers. A real source starts with an empty
    thread (or the --thread file). Without a terminal (a pipe, CI, TERM=dumb) it prints the thread, streams
    the reply it ends with if any (a thread file ending with your turn), saves it, and exits.

    Options:
      --model NAME         the model, or a model named in the config file
      --base-url URL       the server (default https://api.openai.com/v1, or
                           https://api.anthropic.com with --api anthropic)
      --api API            openai (Chat Completions, default) or anthropic (Messages)
      --system TEXT        the system prompt
      --api-key-env VAR    read the key from $VAR; without it $OPENAI_API_KEY or $ANTHROPIC_API_KEY
                           is sent to https://api.openai.com or https://api.anthropic.com only,
                           never elsewhere
      --allow-http-key     send the key over plain http:// to another machine (refused otherwise:
                           only https:// and this machine's own address get a key)
      --reply-command CMD  run CMD with 'sh -c' for each reply: the thread as JSON on its standard
                           input, its standard output streamed as the reply; a non-zero exit fails
                           the reply with the last line of its standard error
      --thread FILE        load the thread from FILE (JSON) and save it there as each message is
                           sent and after every reply; a file that fails to load is never
                           overwritten (without a terminal it is an error)
      --max-bytes N        refuse a thread file of more than N bytes (default 268435456, 256 MiB)
      --share-command CMD  /share pipes the reply's plain text to CMD (default: write it to a file)
      --pace-ms N          milliseconds between the built-in stub's words, 0 to 5000 (default 35,
                           or $REPLYKIT_PACE_MS)
      --color WHEN         auto (default: on a terminal unless NO_COLOR is set; FORCE_COLOR turns
                           it on anywhere and wins over NO_COLOR), always or never
      --width N            the width of the printed transcript (default: $COLUMNS, else 80)
      --reading-width N    the widest the thread is laid out on screen (default 100)
      --highlight WHEN     colour code in replies by language: auto (default: when colour is on)
                           or never
      --theme NAME         the highlighting theme (default: GitHub Dark, or GitHub Light when the
                           terminal's background is light); one of:
    \(RenderSettings.themeHelp)
      --benchmark          print frame times while a reply streams into a 1,000-message thread
      -h, --help           show this help

    Config file: $XDG_CONFIG_HOME/replykit/config.json (else ~/.config/replykit/config.json), see
    the README; options override it.

    Keys: Enter sends · Alt-Enter or Ctrl-J new line · Esc stops · PgUp/PgDn/wheel scroll ·
    End jumps to the latest · Ctrl-C (or Ctrl-D in an empty composer) quits. Type /help in the
    composer for the commands.
    """

  static let arities: [String: ParsedArguments.Arity] = [
    "--reply-command": .value, "--thread": .value, "--max-bytes": .value, "--share-command": .value,
    "--pace-ms": .value,
    "--model": .value, "--base-url": .value, "--api": .value, "--system": .value, "--api-key-env": .value,
    "--allow-http-key": .flag, "--color": .value, "--width": .value, "--reading-width": .value, "--benchmark": .flag,
    "--highlight": .value, "--theme": .value, "--help": .flag, "-h": .flag,
  ]

  /// Parses the arguments of `replykit chat`; `nil` when help was asked for (and printed).
  static func parse(_ arguments: [String], environment: [String: String]) throws -> ChatOptions? {
    let parsed = try ParsedArguments(arguments, command: "chat", options: arities)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return nil
    }
    guard parsed.positionals.isEmpty else {
      throw CLIError.usage("'replykit chat' takes no file; use --thread FILE")
    }
    var options = ChatOptions()
    options.replyCommand = parsed.value("--reply-command")
    options.threadPath = parsed.value("--thread")
    if let limit = try parsed.integer("--max-bytes", in: 1...Int.max) {
      guard options.threadPath != nil else { throw CLIError.usage("--max-bytes limits the --thread file; give one") }
      options.maxThreadBytes = limit
    }
    options.shareCommand = parsed.value("--share-command")
    for name in ["--reply-command", "--thread", "--share-command", "--model", "--base-url", "--api-key-env"]
    where parsed.value(name)?.isEmpty == true {
      throw CLIError.usage("\(name) needs a non-empty value")
    }
    let apiName = try parsed.choice("--api", among: ModelAPI.allCases.map(\.rawValue), default: "")
    let choice = ModelChoice.Arguments(
      model: parsed.value("--model"), baseURL: parsed.value("--base-url"), api: ModelAPI(rawValue: apiName),
      system: parsed.value("--system"), apiKeyVariable: parsed.value("--api-key-env"),
      allowsPlainHTTPKey: parsed.has("--allow-http-key") ? true : nil)
    if options.replyCommand != nil {
      guard choice.isEmpty else { throw CLIError.usage("--reply-command and --model cannot be used together") }
    } else if !parsed.has("--benchmark") {
      let config = try ModelConfigFile.load(path: ModelConfigFile.path(environment: environment))
      options.model = try ModelChoice.endpoint(choice, config: config, environment: environment)
    }
    if let pace = try parsed.integer("--pace-ms", in: 0...5000) {
      options.paceMilliseconds = pace
    } else if let text = environment["REPLYKIT_PACE_MS"] {
      guard let pace = Int(text), (0...5000).contains(pace) else {
        throw CLIError.usage("REPLYKIT_PACE_MS must be a whole number from 0 to 5000, not '\(text)'")
      }
      options.paceMilliseconds = pace
    }
    options.color = try parsed.choice("--color", default: ANSIOptions.Mode.auto)
    options.width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...ANSIOptions.maximumEnvironmentWidth)
    options.readingWidth = try parsed.integer("--reading-width", in: 20...10_000) ?? 100
    options.benchmark = parsed.has("--benchmark")
    let highlight = try parsed.choice("--highlight", among: ["auto", "never"], default: "auto")
    let theme = try parsed.value("--theme").map(RenderSettings.highlighter(themeNamed:))
    options.highlighter =
      highlight == "never"
      ? nil
      : theme ?? (options.benchmark ? nil : ChatHighlighting.atStartUp(environment: environment))
        ?? ChatHighlighting.highlighter
    return options
  }
}
