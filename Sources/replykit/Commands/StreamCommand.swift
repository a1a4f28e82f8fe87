import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit stream [FILE|-] --to html|ansi|plain`: formats a reply while it arrives.
enum StreamCommand {
  static let help = """
    Usage: replykit stream [FILE|-] [--to html|ansi|plain] [--chunk-bytes N] [--delay-ms N] [--frames]
                           [--width N] [--color auto|always|never] [--hyperlinks auto|always|never]
                           [--unsafe] [--commonmark] [--smart] [--max-bytes N] [--highlight WHEN]
                           [--theme NAME]

    Formats a markdown reply incrementally: standard input as it arrives, or FILE in chunks.
    On a terminal (ansi) committed lines are written once and the tail is redrawn in place; into a
    pipe committed blocks are written as they commit and the rest at the end, so the output equals
    'replykit render' of the same input. On a terminal, control characters in html, plain and
    --frames output show as symbols (ESC as '␛').

    Options:
      --to FORMAT        html (default), plain or ansi
      --chunk-bytes N    feed N bytes at a time, 1 to 1048576 (default: 16 for a file; standard
                         input as it arrives)
      --delay-ms N       wait N milliseconds after each chunk, 0 to 60000 (default 0)
      --frames           after each chunk, one JSON line {"bytes": N, "display": "..."} with the
                         whole current display (every control character escaped, DEL and
                         C1 too); a last line with "final": true. Each line
                         repeats the display, so the output grows with the square of the reply
                         (for tests and debugging; use larger --chunk-bytes on long replies)
      --width N, --color WHEN, --hyperlinks WHEN, --unsafe, --commonmark, --smart, --max-bytes N,
      --highlight WHEN, --theme NAME:
                         as for 'replykit render' (see 'replykit render --help' for the themes)
      -h, --help         show this help
    """

  static let options: [String: ParsedArguments.Arity] = RenderSettings.arities.merging([
    "--chunk-bytes": .value, "--delay-ms": .value, "--frames": .flag, "--help": .flag, "-h": .flag,
  ]) { first, _ in first }

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "stream", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let settings = try RenderSettings(parsed)
    let format = settings.format
    let chunkBytes = try parsed.integer("--chunk-bytes", in: 1...1_048_576)
    let delay = try parsed.integer("--delay-ms", in: 0...60_000) ?? 0
    let input = try parsed.singleInput(command: "stream")
    var output = StreamOutput(
      format: format, frames: parsed.has("--frames"),
      stream: MarkdownStream(options: settings.parseOptions),
      html: MarkdownStreamHTMLRenderer(
        renderer: HTMLRenderer(options: settings.htmlOptions, highlighter: settings.htmlHighlighter)),
      ansi: MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: settings.ansiOptions)),
      // Started in the background (`&`), it writes as into a pipe: no redraw over the shell's lines;
      // nor while the reply is typed at the terminal, whose echo would land in the redrawn rows.
      live: format == .ansi && !parsed.has("--frames") && StandardIO.stdoutIsTerminal && !StandardIO.terminalIsDumb
        && !TerminalRegion.inBackground && !RenderSettings.readsTerminal(parsed))
    if output.live {
      StreamInterruption.install()
      // The line may hold text already (a prompt): the first line follows it.
      output.startColumn = cursorColumn(input: input)
    }
    do {
      try feed(&output, input: input, settings: settings, chunkBytes: chunkBytes, delay: delay)
    } catch {
      // What arrived within the limits stays on the screen whole, its top included.
      output.abandon()
      throw error
    }
    try output.finish()
    // A signal during the last update: the display is whole already.
    if let signalNumber = StreamInterruption.pending { StreamInterruption.die(of: signalNumber) }
    try StandardIO.checkOutput()
    // Where the whole reply's guard acts, the final update is the whole reply's parse, which sets
    // the flag too.
    if output.stream.guardChangedInput {
      // The stream's guard works per piece; the notes name the kinds a whole-reply check finds.
      let diagnostics = InputGuard.apply(output.stream.text, options: settings.parseOptions).diagnostics
      if !diagnostics.isEmpty {
        GuardNotes.write(diagnostics)
      } else if output.stream.showsTail {
        // On a terminal lines a piece's guard shaped may stay. Written as into a pipe, the output
        // is `render`'s (checked as it is written), and so are the notes: none for pieces guarded
        // on the way (a paragraph's 404 link openers before the line whose code span made most of
        // them code: a review saw a note `render` does not print).
        StandardIO.writeError(GuardNotes.streamed)
      }
    }
  }

  /// The column the terminal's cursor is in (0 when it cannot be asked).
  private static func cursorColumn(input: String?) -> Int {
    TerminalCursor.column(readsStandardInput: input == nil || input == "-") ?? 0
  }

  /// Feeds the input to `output` in chunks; on an ending signal (live output only), writes the
  /// whole tail and dies of it.
  private static func feed(
    _ output: inout StreamOutput, input: String?, settings: RenderSettings, chunkBytes: Int?, delay: Int
  ) throws {
    func checkSignal() {
      if let signalNumber = StreamInterruption.pending {
        output.abandon()
        StreamInterruption.die(of: signalNumber)
      }
      if StreamInterruption.stopRequested {
        output.suspend()
        StreamInterruption.stopNow()
        // The shell wrote meanwhile: the tail starts again where it left the cursor.
        output.startColumn = cursorColumn(input: input)
        output.resume()
      }
    }
    if let path = input, path != "-" {
      let bytes = try StandardIO.readAll(path, limit: settings.maxInputBytes)
      let size = chunkBytes ?? 16
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + size)
        output.feed(bytes[offset..<end])
        try StandardIO.checkOutput()
        offset = end
        checkSignal()
        if delay > 0 { usleep(UInt32(delay) * 1000) }
        checkSignal()
      }
    } else {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      var received = 0
      while true {
        let count = try buffer.withUnsafeMutableBytes {
          try StandardIO.readSome(STDIN_FILENO, into: $0, path: nil, interrupted: checkSignal)
        }
        checkSignal()
        if count == 0 { break }
        received += count
        if received > settings.maxInputBytes {
          throw StandardIO.tooLarge(nil, count: nil, limit: settings.maxInputBytes)
        }
        var offset = 0
        while offset < count {
          let end = min(count, offset + (chunkBytes ?? count))
          output.feed(buffer[offset..<end])
          try StandardIO.checkOutput()
          offset = end
          checkSignal()
          if delay > 0 { usleep(UInt32(delay) * 1000) }
          checkSignal()
        }
      }
    }
  }
}
