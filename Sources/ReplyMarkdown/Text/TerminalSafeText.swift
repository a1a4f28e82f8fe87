/// Replaces the characters a terminal would obey rather than show with visible stand-ins.
///
/// C0 controls become their Control Pictures (U+2400–U+241F: ESC shows as `␛`), DEL becomes `␡`,
/// C1 controls (U+0080–U+009F) and the bidirectional embedding, override and isolate controls
/// (U+202A–U+202E, U+2066–U+2069) become U+FFFD. Tab and newline are left to the caller, which
/// lays them out; everything else is copied unchanged.
///
/// - Complexity: O(n); runs without such characters are copied in one step.
/// - Thread safety: a pure function.
public enum TerminalSafeText {
  /// `text` with the characters a terminal would obey replaced by their stand-ins, for printing
  /// text that did not come from a renderer made for terminals (Copy/Share plain text, a file
  /// name in an error message). Tabs and newlines are kept when `keepingTabsAndNewlines`, else
  /// they show as `␉` and `␊` too, so the result is one line.
  ///
  /// - Returns: `text` itself when it holds no such character.
  public static func visible(_ text: String, keepingTabsAndNewlines: Bool = true) -> String {
    var text = text
    return text.withUTF8 { source -> String? in
      guard anyNeedsCheck(source) else { return nil }
      var output: [UInt8] = []
      output.reserveCapacity(source.count + 16)
      let kept: (tab: [UInt8]?, newline: [UInt8]?) =
        keepingTabsAndNewlines ? (nil, nil) : ([0xE2, 0x90, 0x89], [0xE2, 0x90, 0x8A])
      append(source, 0..<source.count, to: &output, tab: kept.tab, newline: kept.newline)
      return String(decoding: output, as: UTF8.self)
    } ?? text
  }

  /// Whether `byte` could start a sequence this type replaces (the slow path's entry test).
  @inline(__always)
  static func needsCheck(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
  }

  /// Whether some byte of `bytes` passes ``needsCheck(_:)`` (eight bytes at a time).
  @inline(__always)
  static func anyNeedsCheck(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    ByteWords.contains(
      bytes,
      wordMatches: {
        ByteWords.bytesBelow(0x20, in: $0) | ByteWords.bytesEqual(to: 0x7F, in: $0)
          | ByteWords.bytesEqual(to: 0xC2, in: $0) | ByteWords.bytesEqual(to: 0xE2, in: $0) != 0
      }, needsCheck)
  }

  /// Appends `source[range]` to `output`, replacing controls; tabs become `tab` bytes (nil keeps
  /// them) and newlines `newline` (nil keeps them).
  static func append(
    _ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8],
    tab: [UInt8]?, newline: [UInt8]?
  ) {
    var runStart = range.lowerBound
    var index = range.lowerBound
    let end = range.upperBound
    while index < end {
      let byte = source[index]
      guard needsCheck(byte) else {
        index += 1
        continue
      }
      var replacement: [UInt8]? = nil
      var length = 1
      if byte == 0x09 {
        guard let tab else {
          index += 1
          continue
        }
        replacement = tab
      } else if byte == 0x0A {
        guard let newline else {
          index += 1
          continue
        }
        replacement = newline
      } else if byte < 0x20 {
        replacement = [0xE2, 0x90, 0x80 + byte]
      } else if byte == 0x7F {
        replacement = [0xE2, 0x90, 0xA1]
      } else if byte == 0xC2, index + 1 < end, source[index + 1] >= 0x80, source[index + 1] <= 0x9F {
        replacement = replacementCharacter
        length = 2
      } else if byte == 0xE2, index + 2 < end, isBidiControl(source[index + 1], source[index + 2]) {
        replacement = replacementCharacter
        length = 3
      }
      guard let replacement else {
        index += 1
        continue
      }
      if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index])) }
      output.append(contentsOf: replacement)
      index += length
      runStart = index
    }
    if runStart < end { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<end])) }
  }

  /// U+202A–U+202E are E2 80 AA–AE; U+2066–U+2069 are E2 81 A6–A9.
  @inline(__always)
  static func isBidiControl(_ second: UInt8, _ third: UInt8) -> Bool {
    (second == 0x80 && third >= 0xAA && third <= 0xAE) || (second == 0x81 && third >= 0xA6 && third <= 0xA9)
  }

  static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]
}
