import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The subcommands, by name: each takes its arguments and throws ``CLIError`` on bad input.
let commands: [String: ([String]) throws -> Void] = [
  "render": RenderCommand.run,
  "stream": StreamCommand.run,
  "export": ExportCommand.run,
  "chat": ChatCommand.run,
  "fuzz": FuzzCommand.run,
]

let version = "0.1.0"

let usage = """
  replykit \(version) — render, stream and chat with markdown replies

  Usage: replykit <command> [options]

  Commands:
    render    render a markdown reply once (html, plain or ansi)
    stream    format a reply while it arrives (html, plain or ansi)
    export    a saved thread as a web page, transcript, plain text or markdown
    chat      chat in a full-screen terminal thread (without a terminal: the Example, or the
              thread file with a model or reply command)
    fuzz      fuzz the parser and renderers (benchmarks: replykit-bench, make bench)

  Run 'replykit <command> --help' for a command's options.
  Options: -h, --help (this text), --version
  """

// A file size limit (`ulimit -f`) makes a write fail with "File too large", which every write
// reports and cleans up after, instead of killing the program with a temporary file left behind.
signal(SIGXFSZ, SIG_IGN)
// Before anything opens a file: a closed standard output must stay closed, not become the next file.
StandardIO.reserveClosedStandardDescriptors()
let arguments = Array(CommandLine.arguments.dropFirst())
do {
  try ArgumentEncoding.requireUTF8(ArgumentEncoding.raw)
  guard let first = arguments.first else {
    // No command is a usage error: the usage goes to standard error, and the status says so.
    StandardIO.writeError(usage)
    exit(2)
  }
  switch first {
  case "-h", "--help", "help":
    StandardIO.write(usage + "\n")
  case "--version":
    guard arguments.count == 1 else {
      throw CLIError.usage("'--version' takes no arguments, got '\(arguments[1])'; see 'replykit --help'")
    }
    StandardIO.write("replykit \(version) (cmark-gfm \(CmarkReference.version))\n")
  default:
    guard let command = commands[first] else {
      throw CLIError.usage(
        first.hasPrefix("-")
          ? "unknown option '\(first)'; see 'replykit --help'"
          : "unknown command '\(first)'; see 'replykit --help'")
    }
    try command(Array(arguments.dropFirst()))
  }
  // Every write to standard output is checked: a full disk or a closed pipe is an error here.
  ProgramExit.exit(0)
} catch {
  ProgramExit.fail(error)
}
