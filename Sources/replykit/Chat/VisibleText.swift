import ReplyMarkdown

/// Text from the person or a reply command made safe and measurable for the screen.
///
/// Guarantees: ``sanitize(_:)`` output holds no C0 control (newline excepted), DEL, C1 or
/// bidirectional override, so typed, pasted or piped text can never drive the terminal; the
/// wrapping and fitting functions never return a line wider than asked (by display width).
/// - Thread safety: pure functions.
enum VisibleText {
  /// Replaces controls with visible symbols (ESC shows as `␛`), a tab with four spaces; keeps `\n`.
  ///
  /// - Complexity: O(n); text without controls is returned as is.
  static func sanitize(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: result.append(scalar)
      // Four appends: `append(contentsOf:)` on a scalar view copies the whole view (quadratic).
      case 0x09: for _ in 0..<4 { result.append(" ") }
      case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: result.append("\u{2421}")
      case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: result.append("\u{FFFD}")
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `sanitize` would change `scalar` (tab included, newline not).
  static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x0A) || value == 0x7F || (0x80...0x9F).contains(value)
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
  }

  /// The display width of one grapheme cluster.
  @inline(__always)
  static func width(of character: Character) -> Int {
    if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
    return DisplayWidth.of(String(character))
  }

  /// The display width of sanitized text on one line.
  static func width(_ text: String) -> Int { DisplayWidth.of(text) }

  /// Word-wraps sanitized text to `width` columns: breaks at spaces, splits longer words, keeps
  /// each `\n` as a line break. Never returns an empty array.
  static func wrap(_ text: String, width: Int) -> [String] {
    let width = max(width, 1)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      var word = ""
      var wordWidth = 0
      var spaces = 0
      func placeWord() {
        guard !word.isEmpty else { return }
        if lineWidth > 0, lineWidth + spaces + wordWidth > width {
          lines.append(line)
          line = ""
          lineWidth = 0
        } else if lineWidth > 0 {
          line += String(repeating: " ", count: spaces)
          lineWidth += spaces
        }
        for character in word {
          let characterWidth = Self.width(of: character)
          if lineWidth + characterWidth > width, lineWidth > 0 {
            lines.append(line)
            line = ""
            lineWidth = 0
          }
          line.append(character)
          lineWidth += characterWidth
        }
        word = ""
        wordWidth = 0
        spaces = 0
      }
      for character in paragraph {
        if character == " " {
          placeWord()
          spaces += 1
        } else {
          word.append(character)
          wordWidth += Self.width(of: character)
        }
      }
      placeWord()
      lines.append(line)
    }
    return lines
  }

  /// Cuts sanitized text to at most `width` columns, ending with `…` when something was cut.
  static func fit(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    if text.utf8.count <= width, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard DisplayWidth.of(text) > width else { return text }
    var result = ""
    var used = 0
    for character in text {
      let characterWidth = Self.width(of: character)
      if used + characterWidth > width - 1 { break }
      result.append(character)
      used += characterWidth
    }
    return result + "…"
  }

  /// `count` spaces.
  static func spaces(_ count: Int) -> String { String(repeating: " ", count: max(count, 0)) }
}
