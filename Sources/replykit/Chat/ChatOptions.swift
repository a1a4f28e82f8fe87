import ReplyMarkdown

/// The options of `replykit chat`, checked.
struct ChatOptions: Sendable {
  /// `--reply-command CMD`: replies come from this shell command instead of the built-in stub.
  var replyCommand: String?
  /// `--thread FILE`: the thread file loaded at start and saved after every reply.
  var threadPath: String?
  /// `--share-command CMD`: `/share` pipes the reply's plain text to this command.
  var shareCommand: String?
  /// `--pace-ms N` (or `REPLYKIT_PACE_MS`): milliseconds between the built-in stub's words.
  var paceMilliseconds = 35
  /// `--color`: colour in the transcript printed without a terminal, and in the full screen.
  var color: ANSIOptions.Mode = .auto
  /// `--width N`: the width of the transcript printed without a terminal.
  var width: Int?
  /// `--benchmark`: measure frame times instead of chatting.
  var benchmark = false

  static let help = """
    Usage: replykit chat [--reply-command CMD] [--thread FILE] [--share-command CMD]
                         [--pace-ms N] [--color auto|always|never] [--width N] [--benchmark]

    A chat thread in the terminal, full-screen. Without --reply-command it shows the Example
    conversation (a follow-up streams in) and a built-in stub answers what you send. Without a
    terminal (a pipe, CI) it prints the Example conversation, streaming the follow-up, and exits.

    Options:
      --reply-command CMD  run CMD with 'sh -c' for each reply: the thread as JSON on its standard
                           input, its standard output streamed as the reply; a non-zero exit fails
                           the reply with the last line of its standard error
      --thread FILE        load the thread from FILE (JSON) and save it there after every reply;
                           a file that fails to load is never overwritten
      --share-command CMD  /share pipes the reply's plain text to CMD (default: write it to a file)
      --pace-ms N          milliseconds between the built-in stub's words, 0 to 5000 (default 35,
                           or $REPLYKIT_PACE_MS)
      --color WHEN         auto (default: off with NO_COLOR or in a pipe), always or never
      --width N            the width of the printed transcript (default: $COLUMNS, else 80)
      --benchmark          print frame times while a reply streams into a 1,000-message thread
      -h, --help           show this help

    Keys: Enter sends · Alt-Enter or Ctrl-J new line · Esc stops · PgUp/PgDn/wheel scroll ·
    End jumps to the latest · Ctrl-C quits. Type /help in the composer for the commands.
    """

  static let arities: [String: ParsedArguments.Arity] = [
    "--reply-command": .value, "--thread": .value, "--share-command": .value, "--pace-ms": .value,
    "--color": .value, "--width": .value, "--benchmark": .flag, "--help": .flag, "-h": .flag,
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
    options.shareCommand = parsed.value("--share-command")
    for name in ["--reply-command", "--thread", "--share-command"] where parsed.value(name)?.isEmpty == true {
      throw CLIError.usage("\(name) needs a non-empty value")
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
    options.width = try parsed.integer("--width", in: ANSIOptions.minimumWidth...10_000)
    options.benchmark = parsed.has("--benchmark")
    return options
  }
}
