/// One thing the person did at the keyboard or with the mouse, decoded from terminal input.
enum KeyEvent: Hashable, Sendable {
  /// Printable text typed (never holds a control character).
  case text(String)
  /// Text pasted with bracketed paste (may hold newlines and controls; shown sanitized).
  case paste(String)
  /// A bracketed paste longer than ``InputDecoder/maximumPaste``: its length in bytes. None of it
  /// is kept.
  case pasteTooLarge(bytes: Int)
  /// Enter (carriage return): send.
  case enter
  /// A new line in the composer: Alt-Enter or Ctrl-J.
  case newline
  /// Escape on its own.
  case escape
  case backspace, delete, left, right, up, down, home, end, pageUp, pageDown
  /// Alt with Left or Right (`ESC [ 1 ; 3 D` / `C`): the previous or next version.
  case altLeft, altRight
  /// The mouse wheel, one notch.
  case wheelUp, wheelDown
  /// Ctrl with a letter, as its control byte (Ctrl-C is 0x03).
  case control(UInt8)
}
