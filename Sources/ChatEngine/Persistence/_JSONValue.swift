/// A parsed JSON value that keeps what a thread file says exactly: object members in file order
/// (duplicates are rejected by ``_JSONParser``), numbers as their source text.
indirect enum _JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// The number as written (`1e400` and 20-digit integers survive a round trip).
  case number(String)
  case string(String)
  case array([_JSONValue])
  case object([_JSONMember])

  /// The value of member `key`, when this is an object that has it.
  subscript(key: String) -> _JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A word for the kind of value, for error messages ("expected a string, found a number").
  var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "true or false"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// One member of a JSON object.
/// `text` as a JSON string literal, quotes included (the escaping thread files use).
package func jsonQuoted(_ text: String) -> String {
  var out = ""
  out.reserveCapacity(text.utf8.count + 2)
  _JSONValue.writeString(text, to: &out)
  return out
}

struct _JSONMember: Sendable, Hashable {
  var key: String
  var value: _JSONValue
}

extension _JSONValue {
  /// Appends the value as pretty-printed JSON (two-space indent, `"key" : value`, the layout of
  /// Foundation's `JSONEncoder` with `.prettyPrinted`), starting at `indent` levels.
  ///
  /// - Complexity: O(n) in the size of the value; nesting is limited by ``_JSONParser/maximumDepth``.
  func write(to out: inout String, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let text): out += text
    case .string(let text): _JSONValue.writeString(text, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[\n\n" + String(repeating: "  ", count: indent) + "]"
        return
      }
      out += "[\n"
      for (index, item) in items.enumerated() {
        out += String(repeating: "  ", count: indent + 1)
        item.write(to: &out, indent: indent + 1)
        out += index + 1 < items.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "]"
    case .object(let members):
      if members.isEmpty {
        out += "{\n\n" + String(repeating: "  ", count: indent) + "}"
        return
      }
      out += "{\n"
      for (index, member) in members.enumerated() {
        out += String(repeating: "  ", count: indent + 1)
        _JSONValue.writeString(member.key, to: &out)
        out += " : "
        member.value.write(to: &out, indent: indent + 1)
        out += index + 1 < members.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "}"
    }
  }

  /// Appends `text` as a JSON string; `/` is not escaped.
  static func writeString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
