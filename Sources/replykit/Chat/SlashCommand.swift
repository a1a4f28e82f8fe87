/// A command typed in the composer: a line starting with `/`.
///
/// ``parse(_:)`` takes the composer's text; a text starting with `//` is a message that starts
/// with `/`, anything else not starting with `/` is a message. A `/word` that is not a command,
/// or a command given arguments it does not take, is ``invalid(_:)``, never run: the chat keeps
/// the text in the composer.
enum SlashCommand: Hashable, Sendable {
  /// `/copy [N]`: reply N (numbered on screen), else the reply in view.
  case copy(Int?)
  /// `/copy [N] code M`: code block M of reply N, else of the reply in view.
  case copyCode(Int, reply: Int?)
  case regenerate
  case retry
  case good(Int?)
  case bad(Int?)
  case share(Int?)
  /// `/version N`: show version N of the turn in view (the reply, else your message before it).
  case version(Int)
  /// `/prev`: the version before the shown one.
  case previousVersion
  /// `/next`: the version after the shown one.
  case nextVersion
  /// `/edit [N]`: your message that reply N answers (else the latest, or the one in view) into
  /// the composer, to send as a new version of it.
  case edit(Int?)
  case save(String?)
  case help
  case quit
  /// A `/word` that is not a command, or a command with bad arguments: the text to show (it says
  /// how to send a message starting with `/`).
  case invalid(String)

  /// The help lines: every command and key.
  static let helpLines: [String] = [
    "Commands",
    "  Replies are numbered (#N under each), their code blocks too (code M on each label);",
    "  without N a command acts on the reply in view (the latest unless you scrolled up).",
    "  /copy [N]         copy reply N as plain text",
    "  /copy [N] code M  copy code block M of reply N (blocks count from the top)",
    "  /regenerate       ask for the latest reply again",
    "  /retry            retry the latest reply after it failed",
    "  /good, /bad [N]   rate reply N (again to clear)",
    "  /share [N]        save reply N as text (or pipe it to --share-command)",
    "  /prev, /next      show the previous or next version (‹ 2/3 ›) of the reply in view,",
    "                    else of your message before it;  /version N shows version N",
    "  /edit [N]         edit your message that reply N answers (Enter sends a new version)",
    "  /save [FILE]      save the thread as JSON (default: the --thread file)",
    "  /help             this help;  /quit (or Ctrl-C) quits",
    "  //text            send a message that starts with / (sent as /text)",
    "Keys",
    "  Enter sends · Alt-Enter or Ctrl-J new line · Esc stops the reply",
    "  PgUp/PgDn or the wheel scroll · End jumps to the latest · Ctrl-U clears",
    "  Alt-Left/Alt-Right show the previous or next version (as /prev and /next)",
    "  Up/Down move in a long message; on an empty one they recall what you sent",
    "Press any key to close this help.",
  ]

  /// The help lines wrapped to `width`: a wrapped line goes on under its own text (a command's
  /// description under the description, prose under the prose), so the columns stay readable.
  static func helpLines(width: Int) -> [String] {
    helpLines.flatMap { line -> [String] in
      let indent = line.prefix { $0 == " " }.count
      let body = String(line.dropFirst(indent))
      // A command line has its description after a gap of two or more spaces.
      let gap = body.range(of: "  ").map { body.distance(from: body.startIndex, to: $0.lowerBound) }
      let descriptionColumn = gap.map { offset in
        indent + offset + body.dropFirst(offset).prefix { $0 == " " }.count
      }
      let indentShown = min(indent, width / 2)
      let hanging = min(descriptionColumn ?? indentShown, width / 2)
      let wrapped = VisibleText.wrap(body, width: max(width - indentShown, 1))
      guard wrapped.count > 1 else { return [VisibleText.spaces(indentShown) + body] }
      // The first line as wide as it can be (wrapping keeps the spaces between words, so it is
      // the start of the text), the rest wrapped again at the hanging indent.
      let rest = String(body.dropFirst(wrapped[0].count)).trimmingWhitespace()
      let continued = VisibleText.wrap(rest, width: max(width - hanging, 1))
      return [VisibleText.spaces(indentShown) + wrapped[0]] + continued.map { VisibleText.spaces(hanging) + $0 }
    }
  }

  /// The command in `text`, or `nil` when it is a message to send.
  static func parse(_ text: String) -> SlashCommand? {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.hasPrefix("/"), !trimmed.hasPrefix("//") else { return nil }
    let words = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let name = words.first else { return nil }
    let arguments = Array(words.dropFirst())
    switch (name, arguments.count) {
    case ("/copy", 0): return .copy(nil)
    case ("/copy", 1):
      guard let number = Int(arguments[0]), number >= 1 else { return .invalid("Use /copy N, with N from 1.") }
      return .copy(number)
    case ("/copy", 2) where arguments[0] == "code", ("/copy", 3) where arguments[1] == "code":
      let reply = arguments.count == 3 ? Int(arguments[0]) : nil
      guard let block = arguments.last.flatMap({ Int($0) }), block >= 1, arguments.count == 2 || (reply ?? 0) >= 1
      else { return .invalid("Use /copy [N] code M, with N and M from 1.") }
      return .copyCode(block, reply: reply)
    case ("/copy", _): return .invalid("Use /copy [N], or /copy [N] code M.")
    case ("/regenerate", 0): return .regenerate
    case ("/retry", 0): return .retry
    case ("/good", 0...1), ("/bad", 0...1), ("/share", 0...1):
      var number: Int?
      if let argument = arguments.first {
        guard let value = Int(argument), value >= 1 else { return .invalid("Use \(name) [N], with N from 1.") }
        number = value
      }
      return name == "/good" ? .good(number) : name == "/bad" ? .bad(number) : .share(number)
    case ("/version", 1):
      guard let number = Int(arguments[0]), number >= 1 else { return .invalid("Use /version N, with N from 1.") }
      return .version(number)
    case ("/version", _): return .invalid("Use /version N, with N from 1 (‹ N/M › under a turn).")
    case ("/prev", 0): return .previousVersion
    case ("/next", 0): return .nextVersion
    case ("/prev", _), ("/next", _): return .invalid("\(name) takes no number; /version N shows version N.")
    case ("/edit", 0...1):
      var number: Int?
      if let argument = arguments.first {
        guard let value = Int(argument), value >= 1 else { return .invalid("Use /edit [N], with N from 1.") }
        number = value
      }
      return .edit(number)
    case ("/save", 0): return .save(nil)
    case ("/save", _):
      return .save(trimmed.dropFirst("/save".count).trimmingWhitespace())
    case ("/help", 0), ("/?", 0): return .help
    case ("/quit", 0), ("/exit", 0), ("/q", 0): return .quit
    case ("/help", _), ("/?", _), ("/quit", _), ("/exit", _), ("/q", _), ("/regenerate", _), ("/retry", _):
      return .invalid("\(name) takes nothing after it. \(sendingSlash)")
    default:
      return .invalid("Unknown command \(name): /help lists them. \(sendingSlash)")
    }
  }

  /// How to send a message starting with `/`, for the notices of ``invalid(_:)``.
  static let sendingSlash = "To send it as a message, start it with // (//etc sends /etc)."

  /// A message typed as `//text` is sent as `/text`.
  static func message(from text: String) -> String {
    text.trimmingWhitespace().hasPrefix("//") ? String(text.trimmingWhitespace().dropFirst()) : text
  }

  /// What to type to send `message` as it is: `//text` for a message `/text`, else the message.
  /// `message(from: typed(m))` is `m` for every message `m` the composer sends.
  static func typed(_ message: String) -> String {
    let trimmed = message.trimmingWhitespace()
    return trimmed.hasPrefix("/") ? "/" + trimmed : message
  }
}

extension StringProtocol {
  /// The text without white space (and newlines) at either end.
  func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
