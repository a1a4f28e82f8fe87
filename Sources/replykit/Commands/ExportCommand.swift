import ChatEngine
import ChatExport
import Foundation
import ReplyHighlight
import ReplyMarkdown

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
                           [--lang CODE] [--highlight auto|always|never] [--all-versions] [--max-bytes N]

    Exports a saved thread (the JSON of ChatArchive; '-' reads standard input). On a terminal,
    control characters from the thread show as symbols (ESC as '␛'); the web page always shows
    them so, as HTML forbids them.

    Options:
      --to FORMAT    html (default): one self-contained web page (nothing loaded from the network)
                     transcript: day separators, then 'You:' / 'Assistant:' turns as plain text
                     plain: the turns as plain text, without day separators
                     markdown: a markdown document, a heading per day
      -o FILE        write to FILE (default: standard output). A regular file is replaced only once
                     the export succeeded, keeping its permissions and owner; a symbolic link is
                     followed; a FIFO or device such as /dev/null is written through, and
                     /dev/stdout (/dev/fd/N) through that descriptor; a directory is refused
      --max-bytes N  refuse a thread file of more than N bytes (default 268435456, 256 MiB)
      --title TEXT   html: the page title (default: the first line of your first message, else
                     "Conversation" in the page's language); not empty or blank
      --lang CODE    html: the language of every word of the page and its dates: \(languageCodes)
                     (default: the language of the environment, else en)
      --highlight W  html: colour code blocks by language, light and dark (auto or always, the
                     default; never for plain code)
      --all-versions html: also every other version of a turn, collapsed under the shown one
                     (without it the page shows the thread as shown, marking 'Version 2 of 3'
                     under turns with other versions; the transcript says so too)
      -h, --help     show this help

    Dates print in the time zone of TZ and the language of the environment (LANG); the page
    recomputes its day separators and times in the reader's time zone, in the page's language.
    The page's header shows the export date and the model when the thread file records one
    (a top-level "model" field).
    """

  /// The codes `--lang` takes, for the help and errors.
  static let languageCodes = PageLanguage.all.map(\.code).joined(separator: ", ")

  static let options: [String: ParsedArguments.Arity] = [
    "--to": .value, "-o": .value, "--output": .value, "--title": .value, "--max-bytes": .value, "--lang": .value,
    "--highlight": .value, "--all-versions": .flag, "--help": .flag,
    "-h": .flag,
  ]

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "export", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    let format = try parsed.choice("--to", default: ExportFormat.html)
    for name in ["--title", "--lang", "--highlight"] where parsed.value(name) != nil && format != .html {
      throw CLIError.usage("\(name) applies to '--to html' only")
    }
    // `auto` is accepted as `render` accepts it: a page always has a place for colours.
    let highlight = try parsed.choice("--highlight", among: ["auto", "always", "never"], default: "auto")
    var language: PageLanguage?
    if let code = parsed.value("--lang") {
      guard let chosen = PageLanguage(identifier: code) else {
        throw CLIError.usage("the page has no words in '\(code)' (--lang); languages: \(languageCodes)")
      }
      language = chosen
    }
    if parsed.has("--all-versions") && format != .html {
      throw CLIError.usage("--all-versions applies to '--to html' only (the other formats follow the thread as shown)")
    }
    guard let input = try parsed.singleInput(command: "export") else {
      throw CLIError.usage(
        "'replykit export' needs a thread file (or '-' for standard input); see 'replykit export --help'")
    }
    if parsed.value("-o") != nil && parsed.value("--output") != nil {
      throw CLIError.usage("-o and --output are the same option; give it once")
    }
    let output = parsed.value("-o") ?? parsed.value("--output")
    if output?.isEmpty == true { throw CLIError.usage("the output file name (-o) is empty") }
    if let output, output != "-", input == "-" ? isStandardInput(sameAs: output) : isSameFile(input, output) {
      throw CLIError.usage(
        "'\(output)' is the thread file itself"
          + (input == "-" ? " (standard input reads it)" : "")
          + ": the export would replace the thread; write it to another file")
    }
    let title = parsed.value("--title")
    // Blank also when it holds only invisible format characters (U+200B and the like): the page
    // would have a title no one can see.
    if let title,
      title.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.generalCategory == .format })
    {
      throw CLIError.usage(
        "the page title (--title) is \(title.isEmpty ? "empty" : "blank"); leave it out for the default")
    }
    let limit = try parsed.integer("--max-bytes", in: 1...Int.max) ?? InputLimits.default.maxInputBytes
    let document = try ThreadFile.read(input, limit: limit)
    let tree = document.tree
    let messages = tree.messages
    let text: String
    switch format {
    case .transcript:
      text = ThreadExport.transcript(tree, locale: EnvironmentLocale.forDates()) + (messages.isEmpty ? "" : "\n")
    case .plain: text = ThreadExport.plain(messages) + (messages.isEmpty ? "" : "\n")
    case .markdown: text = ThreadExport.markdown(messages, locale: EnvironmentLocale.forDates())
    case .html:
      let page = ThreadPage(
        tree: tree, title: title, locale: EnvironmentLocale.forDates(), language: language,
        model: recordedModel(document), highlighting: highlight == "never" ? nil : pageHighlighting(),
        includesOtherVersions: parsed.has("--all-versions"))
      text = page.render()
    }
    if let output, output != "-" {
      try writeAtomically(text, to: output, newFileMode: newExportMode(forThread: input))
    } else {
      StandardIO.writeShown(text)
    }
  }

  /// The model the thread file records: a top-level `"model"` string, else the last reply's.
  static func recordedModel(_ document: ChatArchive.Document) -> String? {
    let candidates =
      [document.fields["model"]]
      + document.messages.reversed().filter { $0.role == .assistant }.map {
        $0.archiveFields["model"]
      }
    for case let json? in candidates {
      if let name = (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) as? String,
        !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      {
        return name
      }
    }
    return nil
  }

  /// Code colours for the page: GitHub Light and GitHub Dark (the library's defaults when those
  /// are missing).
  static func pageHighlighting() -> PageHighlighting? {
    let light = KSyntaxCodeHighlighter(dark: false)
    let dark = KSyntaxCodeHighlighter(dark: true)
    return PageHighlighting(highlighter: light, light: light.codeTheme, dark: dark.codeTheme)
  }

  /// Whether standard input is the existing regular file `path` names (links followed):
  /// `export - -o thread.json < thread.json` would replace the thread it reads.
  static func isStandardInput(sameAs path: String) -> Bool {
    var input = stat()
    var other = stat()
    guard fstat(STDIN_FILENO, &input) == 0, input.st_mode & S_IFMT == S_IFREG, stat(path, &other) == 0 else {
      return false
    }
    return input.st_dev == other.st_dev && input.st_ino == other.st_ino
  }

  /// Whether `first` and `second` name the same existing file (links followed).
  static func isSameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var other = stat()
    guard stat(first, &one) == 0, stat(second, &other) == 0 else { return false }
    return one.st_dev == other.st_dev && one.st_ino == other.st_ino
  }

  /// The mode a new export file is created with (less the umask): no more open than the thread
  /// file it shows — its group's and others' read and write bits, and always readable and
  /// writable by its owner (a conversation kept private stays private in its export). A thread
  /// read from a pipe gives 0666, as the shell's `>` does.
  static func newExportMode(forThread input: String) -> mode_t {
    var info = stat()
    let found = input == "-" ? fstat(STDIN_FILENO, &info) == 0 : stat(input, &info) == 0
    guard found, info.st_mode & S_IFMT == S_IFREG else { return 0o666 }
    return 0o600 | (info.st_mode & 0o066)
  }

  /// Writes `text` to `path` by the rules of ``OutputFile`` (atomic replacement of a regular file,
  /// so a failed export never leaves a partial or empty file); a new file gets `newFileMode`
  /// less the umask, a replaced one keeps its mode.
  static func writeAtomically(_ text: String, to path: String, newFileMode: mode_t = 0o666) throws {
    do {
      try OutputFile.write(Array(text.utf8), to: path, newFileMode: newFileMode, throughDescriptors: true)
    } catch {
      throw CLIError.failure(error.description)
    }
  }
}
