import ChatEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit export THREAD.json --to html|transcript|plain|markdown [-o FILE]`: a saved thread as a
/// web page or as text.
enum ExportCommand {
  static let help = """
    Usage: replykit export THREAD.json|- [--to html|transcript|plain|markdown] [-o FILE] [--title TEXT]

    Exports a saved thread (the JSON of ChatArchive; '-' reads standard input).

    Options:
      --to FORMAT    html (default): one self-contained web page (nothing loaded from the network)
                     transcript: day separators, then 'You:' / 'Assistant:' turns as plain text
                     plain: the turns as plain text, without day separators
                     markdown: a markdown document, a heading per day
      -o FILE        write to FILE (replaced only once the export succeeded; default: standard output)
      --title TEXT   html: the page title (default: the first line of the first message)
      -h, --help     show this help

    Dates print in the time zone of TZ and the language of the environment (LANG); the page
    recomputes its day separators in the reader's browser.
    """

  static let options: [String: ParsedArguments.Arity] = [
    "--to": .value, "-o": .value, "--output": .value, "--title": .value, "--help": .flag, "-h": .flag,
  ]

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "export", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let format = try parsed.choice("--to", among: ["html", "transcript", "plain", "markdown"], default: "html")
    if parsed.value("--title") != nil && format != "html" {
      throw CLIError.usage("--title applies to '--to html' only")
    }
    guard let input = try parsed.singleInput(command: "export") else {
      throw CLIError.usage(
        "'replykit export' needs a thread file (or '-' for standard input); see 'replykit export --help'")
    }
    let output = parsed.value("-o") ?? parsed.value("--output")
    let name = input == "-" ? "standard input" : input
    let messages: [ChatMessage]
    do {
      messages = try ChatArchive.decode(Data(try StandardIO.readAll(input)))
    } catch let error as ChatArchiveError {
      throw CLIError.failure("\(name): \(oneLine(error.errorDescription ?? "not a thread file"))")
    }
    let text: String
    switch format {
    case "transcript": text = ThreadExport.transcript(messages, locale: locale()) + (messages.isEmpty ? "" : "\n")
    case "plain": text = ThreadExport.plain(messages) + (messages.isEmpty ? "" : "\n")
    case "markdown": text = ThreadExport.markdown(messages, locale: locale())
    default: text = ThreadPage(messages: messages, title: parsed.value("--title"), locale: locale()).render()
    }
    if let output, output != "-" {
      try writeAtomically(text, to: output)
    } else {
      StandardIO.write(text)
    }
  }

  /// The locale of the environment (`LC_ALL`, `LC_TIME`, `LANG`), for printed dates.
  static func locale() -> Locale {
    let environment = ProcessInfo.processInfo.environment
    for key in ["LC_ALL", "LC_TIME", "LANG"] {
      guard let value = environment[key], !value.isEmpty else { continue }
      let identifier = value.prefix { $0 != "." && $0 != "@" }
      if identifier == "C" || identifier == "POSIX" { return Locale(identifier: "en_US") }
      return Locale(identifier: String(identifier))
    }
    return Locale(identifier: "en_US")
  }

  /// Writes `text` to a temporary file beside `path` and renames it over `path`, so a failed
  /// export never leaves a partial or empty file.
  static func writeAtomically(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else {
      throw CLIError.failure("cannot write '\(path)': \(String(cString: strerror(errno)))")
    }
    var failure: Int32 = 0
    var bytes = text
    bytes.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == 0 && fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temporary.path, url.path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary.path)
      throw CLIError.failure("cannot write '\(path)': \(String(cString: strerror(failure)))")
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
