/// Escaping for text and attribute values that the page builder writes itself.
enum _HTMLEscape {
  /// `text` with `&`, `<`, `>` and `"` replaced by entities: safe in element content and in
  /// double-quoted attribute values.
  static func text(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
    var output = ""
    output.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// `html` without the characters a page must not hold raw, shown as visible stand-ins the way
  /// `TerminalSafeText` shows them on a terminal:
  ///
  /// - C0 controls other than tab, line feed and carriage return become their Control Pictures
  ///   (ESC shows as `␛`, form feed as `␌`, as on a terminal), DEL becomes `␡` (HTML forbids
  ///   them, form feed aside);
  /// - C1 controls become U+FFFD (HTML forbids them);
  /// - the bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069)
  ///   become U+FFFD, so no text from a thread can reorder the page around it;
  /// - noncharacters (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF,
  ///   U+1FFFE …) become U+FFFD (HTML forbids them).
  ///
  /// A page holds what users and models typed, and the reply HTML keeps those characters as
  /// cmark-gfm does; the page shows them instead. The page's data block escapes them in JSON
  /// (``_PageData/scriptText()``), so Copy and Download keep the originals.
  ///
  /// - Returns: `html` itself when it holds none (one pass over its bytes).
  static func withoutControls(_ html: String) -> String {
    let forbidden = html.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.indices.contains { isForbidden(bytes, at: $0) }
    }
    guard forbidden ?? true else { return html }
    var output = ""
    output.reserveCapacity(html.utf8.count + 16)
    for scalar in html.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: output.unicodeScalars.append(scalar)
      case 0x00..<0x20: output.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: output += "\u{2421}"
      case 0x80...0x9F: output += "\u{FFFD}"
      case _ where isReplaced(scalar): output += "\u{FFFD}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// Whether `scalar` is a bidirectional embedding, override or isolate control or a
  /// noncharacter, which the page shows as U+FFFD.
  static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069, 0xFDD0...0xFDEF: return true
    default: return scalar.value & 0xFFFE == 0xFFFE
    }
  }

  /// Whether the UTF-8 sequence at `index` of valid UTF-8 `bytes` starts a character that
  /// ``withoutControls(_:)`` replaces.
  @inline(__always)
  static func isForbidden(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    let byte = bytes[index]
    if byte < 0x20 { return byte != 0x09 && byte != 0x0A && byte != 0x0D }
    if byte < 0xC2 { return byte == 0x7F }
    let second: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
    let third: UInt8 = index + 2 < bytes.count ? bytes[index + 2] : 0
    switch byte {
    // C1: C2 80–9F.
    case 0xC2: return second >= 0x80 && second <= 0x9F
    // U+202A–U+202E: E2 80 AA–AE; U+2066–U+2069: E2 81 A6–A9.
    case 0xE2:
      return (second == 0x80 && third >= 0xAA && third <= 0xAE) || (second == 0x81 && third >= 0xA6 && third <= 0xA9)
    // U+FDD0–U+FDEF: EF B7 90–AF; U+FFFE, U+FFFF: EF BF BE–BF.
    case 0xEF: return (second == 0xB7 && third >= 0x90 && third <= 0xAF) || (second == 0xBF && third >= 0xBE)
    // U+nFFFE, U+nFFFF: F0–F4, then x8F/x9F/xAF/xBF, BF, BE–BF.
    case 0xF0...0xF4:
      let fourth: UInt8 = index + 3 < bytes.count ? bytes[index + 3] : 0
      return second & 0x0F == 0x0F && third == 0xBF && fourth >= 0xBE
    default: return false
    }
  }
}
