#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process knows about its terminal: whether standard output is one, its width, and the
/// environment variables that decide colour.
///
/// - Thread safety: each property reads the process state when called; safe from any thread.
public enum TerminalEnvironment {
  /// Whether standard output is a terminal.
  public static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// The width of the terminal on standard output in columns, or nil when it is not a terminal or
  /// does not say.
  public static var standardOutputColumns: Int? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// The process environment as a dictionary.
  public static var variables: [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let pair = String(cString: entry)
      if let equals = pair.firstIndex(of: "=") {
        result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}
