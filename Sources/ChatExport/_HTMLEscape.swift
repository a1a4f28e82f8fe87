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
}
