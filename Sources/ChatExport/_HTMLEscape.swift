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

  /// `html` without the characters HTML forbids in a document (C0 controls other than tab, line
  /// feed, form feed and carriage return; DEL; C1 controls): C0 and DEL become their Control
  /// Pictures (ESC shows as `␛`), C1 becomes U+FFFD. A page holds what users and models typed, and
  /// the reply HTML keeps those characters as cmark-gfm does; the page shows them instead.
  ///
  /// - Returns: `html` itself when it holds none (one pass over its bytes).
  static func withoutControls(_ html: String) -> String {
    let forbidden = html.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.indices.contains { index in
        let byte = bytes[index]
        if byte == 0xC2 { return index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]) }
        return (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D) || byte == 0x7F
      }
    }
    guard forbidden ?? true else { return html }
    var output = ""
    output.reserveCapacity(html.utf8.count + 16)
    for scalar in html.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0C, 0x0D: output.unicodeScalars.append(scalar)
      case 0x00..<0x20: output.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: output += "\u{2421}"
      case 0x80...0x9F: output += "\u{FFFD}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
