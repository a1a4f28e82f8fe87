/// How a run of code looks: colours and attributes.
///
/// - Thread safety: a value type; `Sendable`.
public struct CodeStyle: Sendable, Hashable, Codable {
  /// The text colour, or nil for the surrounding text's.
  public var foreground: CodeColor?
  /// The background colour, or nil for none.
  public var background: CodeColor?
  /// Bold.
  public var bold: Bool
  /// Italic.
  public var italic: Bool
  /// Underlined.
  public var underline: Bool
  /// Struck through.
  public var strikethrough: Bool

  /// Creates a style; the default is plain.
  public init(
    foreground: CodeColor? = nil, background: CodeColor? = nil, bold: Bool = false, italic: Bool = false,
    underline: Bool = false, strikethrough: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.italic = italic
    self.underline = underline
    self.strikethrough = strikethrough
  }

  /// No colours, no attributes.
  public static let plain = CodeStyle()
}

/// A 24-bit colour.
///
/// - Thread safety: a value type; `Sendable`.
public struct CodeColor: Sendable, Hashable, Codable {
  /// Red, 0–255.
  public var red: UInt8
  /// Green, 0–255.
  public var green: UInt8
  /// Blue, 0–255.
  public var blue: UInt8

  /// Creates a colour from its components.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Creates a colour from `0xRRGGBB` (higher bits are ignored).
  public init(rgb: UInt32) {
    self.init(
      red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
      blue: UInt8(truncatingIfNeeded: rgb))
  }

  /// The colour as CSS writes it: `#rrggbb`, lower case.
  public var hex: String {
    let digits = Array("0123456789abcdef")
    var result = "#"
    for component in [red, green, blue] {
      result.append(digits[Int(component >> 4)])
      result.append(digits[Int(component & 0xF)])
    }
    return result
  }

  /// Relative luminance, 0 (black) to 1 (white), by the sRGB weights.
  public var luminance: Double {
    (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255
  }
}
