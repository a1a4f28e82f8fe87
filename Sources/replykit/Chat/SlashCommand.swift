/// A command typed in the composer: a line starting with `/`.
///
/// ``parse(_:)`` takes the composer's text; a text starting with `//` is a message that starts
/// with `/`, anything else not starting with `/` is a message.
enum SlashCommand: Hashable, Sendable {
  case copy
  case copyCode(Int)
  case regenerate
  case retry
  case good
  case bad
  case share
  case save(String?)
  case help
  case quit
  /// A `/word` that is not a command, or a command with bad arguments: the text to show.
  case invalid(String)

  /// The help lines: every command and key.
  static let helpLines: [String] = [
    "Commands",
    "  /copy             copy the latest reply as plain text",
    "  /copy code N      copy code block N of the latest reply",
    "  /regenerate       ask for the latest reply again",
    "  /retry            retry the latest reply after it failed",
    "  /good, /bad       rate the latest reply (again to clear)",
    "  /share            save the latest reply as text (or pipe it to --share-command)",
    "  /save [FILE]      save the thread as JSON (default: the --thread file)",
    "  /help             this help;  /quit (or Ctrl-C) quits",
    "Keys",
    "  Enter sends · Alt-Enter or Ctrl-J new line · Esc stops the reply",
    "  PgUp/PgDn or the wheel scroll · End jumps to the latest · Ctrl-U clears",
    "Press any key to close this help.",
  ]

  /// The command in `text`, or `nil` when it is a message to send.
  static func parse(_ text: String) -> SlashCommand? {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.hasPrefix("/"), !trimmed.hasPrefix("//") else { return nil }
    let words = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let name = words.first else { return nil }
    let arguments = Array(words.dropFirst())
    switch (name, arguments.count) {
    case ("/copy", 0): return .copy
    case ("/copy", 2) where arguments[0] == "code":
      guard let number = Int(arguments[1]), number >= 1 else { return .invalid("Use /copy code N, with N from 1.") }
      return .copyCode(number)
    case ("/copy", _): return .invalid("Use /copy, or /copy code N.")
    case ("/regenerate", 0): return .regenerate
    case ("/retry", 0): return .retry
    case ("/good", 0): return .good
    case ("/bad", 0): return .bad
    case ("/share", 0): return .share
    case ("/save", 0): return .save(nil)
    case ("/save", _):
      return .save(trimmed.dropFirst("/save".count).trimmingWhitespace())
    case ("/help", _), ("/?", _): return .help
    case ("/quit", _), ("/exit", _), ("/q", _): return .quit
    default:
      return .invalid("Unknown command \(name) — /help lists them; start with // to send a message starting with /.")
    }
  }

  /// A message typed as `//text` is sent as `/text`.
  static func message(from text: String) -> String {
    text.trimmingWhitespace().hasPrefix("//") ? String(text.trimmingWhitespace().dropFirst()) : text
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
