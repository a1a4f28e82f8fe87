/// How a piece of terminal text looks: attributes and colours, written as one SGR sequence.
///
/// Styles nest by ``merging(_:)``: inner attributes add to outer ones, inner colours win.
///
/// - Thread safety: a value type; `Sendable`.
public struct ANSIStyle: Sendable, Hashable, Codable {
  /// Bold (SGR 1).
  public var bold: Bool
  /// Dim, faint (SGR 2).
  public var dim: Bool
  /// Italic (SGR 3).
  public var italic: Bool
  /// Underline (SGR 4).
  public var underline: Bool
  /// Struck through (SGR 9).
  public var strikethrough: Bool
  /// The text colour, or nil for the terminal's own.
  public var foreground: ANSIColor?
  /// The background colour, or nil for the terminal's own.
  public var background: ANSIColor?
  /// A text colour from the 256-colour palette or 24-bit, which wins over ``foreground``: how
  /// highlighted code is coloured (see ``ANSIOptions/colorDepth``).
  public var extendedForeground: ANSIExtendedColor?

  /// Creates a style; the default is plain text.
  public init(
    bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
    strikethrough: Bool = false, foreground: ANSIColor? = nil, background: ANSIColor? = nil,
    extendedForeground: ANSIExtendedColor? = nil
  ) {
    self.bold = bold
    self.dim = dim
    self.italic = italic
    self.underline = underline
    self.strikethrough = strikethrough
    self.foreground = foreground
    self.background = background
    self.extendedForeground = extendedForeground
  }

  /// Plain text: no attributes, the terminal's colours.
  public static let plain = ANSIStyle()

  /// Whether the style is plain text.
  public var isPlain: Bool { self == .plain }

  /// This style with `inner` on top: attributes combined, `inner`'s colours where it has them.
  public func merging(_ inner: ANSIStyle) -> ANSIStyle {
    ANSIStyle(
      bold: bold || inner.bold, dim: dim || inner.dim, italic: italic || inner.italic,
      underline: underline || inner.underline, strikethrough: strikethrough || inner.strikethrough,
      foreground: inner.foreground ?? foreground, background: inner.background ?? background,
      extendedForeground: inner.foreground != nil || inner.extendedForeground != nil
        ? inner.extendedForeground : extendedForeground)
  }

  /// Appends the SGR sequence that resets and then sets this style (`ESC [ 0 ; … m`).
  func appendSGR(to output: inout [UInt8]) {
    output.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0")])
    func parameter(_ value: Int) {
      output.append(UInt8(ascii: ";"))
      if value >= 100 { output.append(UInt8(ascii: "0") + UInt8(value / 100)) }
      if value >= 10 { output.append(UInt8(ascii: "0") + UInt8(value / 10 % 10)) }
      output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
    if bold { parameter(1) }
    if dim { parameter(2) }
    if italic { parameter(3) }
    if underline { parameter(4) }
    if strikethrough { parameter(9) }
    if let extendedForeground {
      switch extendedForeground {
      case .palette(let index):
        for value in [38, 5, Int(index)] { parameter(value) }
      case .rgb(let red, let green, let blue):
        for value in [38, 2, Int(red), Int(green), Int(blue)] { parameter(value) }
      }
    } else if let foreground {
      parameter(foreground.foregroundCode)
    }
    if let background { parameter(background.backgroundCode) }
    output.append(UInt8(ascii: "m"))
  }
}
