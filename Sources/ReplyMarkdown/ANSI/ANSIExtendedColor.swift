/// A terminal colour beyond the 16 standard ones: an index into the 256-colour palette, or 24-bit.
public enum ANSIExtendedColor: Sendable, Hashable, Codable {
  /// Index 0–255 of the xterm 256-colour palette (SGR `38;5;n`).
  case palette(UInt8)
  /// A 24-bit colour (SGR `38;2;r;g;b`), for terminals that set `COLORTERM` to `truecolor`.
  case rgb(UInt8, UInt8, UInt8)
}

/// How many colours the terminal shows: what highlighted code's theme colours are reduced to.
public enum ANSIColorDepth: String, Sendable, Hashable, Codable, CaseIterable {
  /// The 16 standard colours (the nearest of xterm's defaults).
  case standard
  /// The xterm 256-colour palette (the nearest of its 6×6×6 cube and grey ramp).
  case palette256
  /// 24-bit colour.
  case truecolor

  /// The depth a terminal announces: `truecolor` when `COLORTERM` is `truecolor` or `24bit`, else
  /// the 256-colour palette (every terminal in use shows it).
  public static func of(environment: [String: String]) -> ANSIColorDepth {
    let announced = environment["COLORTERM"]?.lowercased()
    return announced == "truecolor" || announced == "24bit" ? .truecolor : .palette256
  }

  /// A style for a 24-bit colour at this depth.
  func style(red: UInt8, green: UInt8, blue: UInt8) -> ANSIStyle {
    switch self {
    case .truecolor:
      return ANSIStyle(extendedForeground: .rgb(red, green, blue))
    case .palette256:
      return ANSIStyle(extendedForeground: .palette(Self.nearest256(red, green, blue)))
    case .standard:
      return ANSIStyle(foreground: Self.nearest16(red, green, blue))
    }
  }

  static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The nearest colour of the 256-colour palette's cube (16–231) or grey ramp (232–255).
  static func nearest256(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    func level(_ value: UInt8) -> Int {
      var best = 0
      for (index, candidate) in cubeLevels.enumerated()
      where abs(candidate - Int(value)) < abs(cubeLevels[best] - Int(value)) {
        best = index
      }
      return best
    }
    let (r, g, b) = (level(red), level(green), level(blue))
    let cube = (cubeLevels[r], cubeLevels[g], cubeLevels[b])
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let greyIndex = min(max((average - 8) / 10, 0), 23)
    let grey = 8 + greyIndex * 10
    func distance(_ color: (Int, Int, Int)) -> Int {
      let (dr, dg, db) = (color.0 - Int(red), color.1 - Int(green), color.2 - Int(blue))
      return dr * dr + dg * dg + db * db
    }
    return distance((grey, grey, grey)) < distance(cube) ? UInt8(232 + greyIndex) : UInt8(16 + 36 * r + 6 * g + b)
  }

  /// xterm's default values of the 16 standard colours.
  static let standardValues: [(ANSIColor, Int, Int, Int)] = [
    (.black, 0, 0, 0), (.red, 205, 0, 0), (.green, 0, 205, 0), (.yellow, 205, 205, 0), (.blue, 0, 0, 238),
    (.magenta, 205, 0, 205), (.cyan, 0, 205, 205), (.white, 229, 229, 229), (.brightBlack, 127, 127, 127),
    (.brightRed, 255, 0, 0), (.brightGreen, 0, 255, 0), (.brightYellow, 255, 255, 0), (.brightBlue, 92, 92, 255),
    (.brightMagenta, 255, 0, 255), (.brightCyan, 0, 255, 255), (.brightWhite, 255, 255, 255),
  ]

  /// The nearest of the 16 standard colours.
  static func nearest16(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> ANSIColor {
    var best = ANSIColor.white
    var bestDistance = Int.max
    for (color, r, g, b) in standardValues {
      let (dr, dg, db) = (r - Int(red), g - Int(green), b - Int(blue))
      let distance = dr * dr + dg * dg + db * db
      if distance < bestDistance {
        best = color
        bestDistance = distance
      }
    }
    return best
  }
}
