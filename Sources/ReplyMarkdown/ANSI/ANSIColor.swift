/// One of the 16 standard terminal colours, which every terminal maps to its own palette (so they
/// follow the user's light or dark theme).
public enum ANSIColor: UInt8, Sendable, Hashable, Codable, CaseIterable {
  case black = 0, red, green, yellow, blue, magenta, cyan, white
  case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

  /// The SGR parameter that sets this colour as the foreground (30–37, 90–97).
  public var foregroundCode: Int { rawValue < 8 ? 30 + Int(rawValue) : 82 + Int(rawValue) }

  /// The SGR parameter that sets this colour as the background (40–47, 100–107).
  public var backgroundCode: Int { foregroundCode + 10 }
}
