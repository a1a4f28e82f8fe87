import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts text on the system clipboard from a terminal program.
///
/// Writes OSC 52 to the terminal (most terminals and tmux with `set-clipboard` take it) and also
/// pipes the text to `wl-copy` under Wayland or `xclip -selection clipboard` under X11 when
/// they are installed. Never waits for those tools.
enum Clipboard {
  /// The OSC 52 sequence that sets the clipboard to `text` (base64, so no byte of the text
  /// reaches the terminal as such).
  static func osc52(_ text: String) -> String {
    "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
  }

  /// The clipboard tool to pipe to in this environment, if one is installed.
  static func helperCommand(environment: [String: String]) -> String? {
    if environment["WAYLAND_DISPLAY"] != nil, let path = executable("wl-copy", environment: environment) {
      return "'\(path)'"
    }
    if environment["DISPLAY"] != nil, let path = executable("xclip", environment: environment) {
      return "'\(path)' -selection clipboard"
    }
    return nil
  }

  /// The full path of `name` on `PATH`, if it is an executable file there.
  static func executable(_ name: String, environment: [String: String]) -> String? {
    for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let path = "\(directory)/\(name)"
      if access(path, X_OK) == 0 { return path }
    }
    return nil
  }

  /// Copies `text`: OSC 52 through `writeToTerminal`, and the helper tool when present.
  static func copy(_ text: String, environment: [String: String], writeToTerminal: (String) -> Void) {
    writeToTerminal(osc52(text))
    guard let helper = helperCommand(environment: environment) else { return }
    pipe(text, to: helper)
  }

  /// Runs `command` with `text` on its standard input, in the background, and calls `done` on
  /// the main queue with `nil` when it exited 0, else what went wrong (not found, its status
  /// and the last line of its standard error).
  static func run(_ text: String, through command: String, done: @escaping @Sendable (String?) -> Void) {
    guard let process = try? Subprocess.shell(command) else {
      return DispatchQueue.main.async { done("it could not be started") }
    }
    close(process.output)
    // Quitting ends the command too (a share command that hangs would outlive the chat).
    ProcessGroups.add(process.pid)
    let data = Data(text.utf8)
    Subprocess.onOwnThread {
      Subprocess.writeAndClose(data, to: process.input)
      let errorText = String(decoding: CommandReplySource.readAll(process.error, keepingLast: 4096), as: UTF8.self)
      close(process.error)
      let end = process.wait()
      ProcessGroups.forgetIfGone(process.pid)
      let line = errorText.split(whereSeparator: \.isNewline).last.map { CommandReplySource.shortened(String($0)) }
      let failure: String? =
        switch (end.status, end.signal) {
        case (0, nil): nil
        case (127, nil): "command not found: \(command)"
        case (_, nil): "exit status \(end.status)" + (line.map { ": \($0)" } ?? "")
        default: "the command \(end.phrase)" + (line.map { ": \($0)" } ?? "")
        }
      DispatchQueue.main.async { done(failure) }
    }
  }

  /// Runs `command` with `text` on its standard input, in the background; `false` when the
  /// command cannot start.
  @discardableResult
  static func pipe(_ text: String, to command: String) -> Bool {
    guard let process = try? Subprocess.shell(command) else { return false }
    close(process.output)
    close(process.error)
    ProcessGroups.add(process.pid)
    let data = Data(text.utf8)
    Subprocess.onOwnThread {
      Subprocess.writeAndClose(data, to: process.input)
      _ = process.wait()
      ProcessGroups.forgetIfGone(process.pid)
    }
    return true
  }
}
