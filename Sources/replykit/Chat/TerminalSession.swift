#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal while the chat runs full-screen: raw mode, the alternate screen, SGR mouse
/// reports, bracketed paste; and its size.
///
/// Guarantees: after ``enter()`` the terminal is restored on ``leave()``, on exit, and on the
/// signals ``TerminalRestore`` handles, whichever comes first (once).
struct TerminalSession {
  /// The bytes that switch the chat's modes on.
  static let enterSequence =
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[H\u{1B}[2J"

  /// Puts the terminal in raw mode on the alternate screen.
  ///
  /// - Throws: ``CLIError`` when standard input is not a terminal that takes settings.
  static func enter() throws {
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else {
      throw CLIError.failure("cannot read the terminal settings: \(String(cString: strerror(errno)))")
    }
    TerminalRestore.arm(with: settings)
    TerminalRestore.installHandlers()
    var raw = settings
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else {
      throw CLIError.failure("cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
    }
    StandardIO.write(enterSequence)
  }

  /// Restores the terminal (see ``TerminalRestore/restore()``).
  static func leave() {
    TerminalRestore.restore()
  }

  /// The terminal's size in columns and rows, or 80x24 when it does not say.
  static func size() -> (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}
