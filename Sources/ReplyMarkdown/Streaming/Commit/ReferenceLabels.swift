/// Finds the labels that markdown source defines (`[label]:`) or may use (`[label]`), as keys
/// that compare the way cmark-gfm matches labels (case-insensitive, runs of whitespace as one
/// space, trimmed). A footnote label keeps its caret (`^1`).
///
/// The scan is a conservative byte scan, not a parse: it may report labels the source does not
/// really define or use (a bracket inside code), never the other way round for labels on one
/// line. Callers use it to choose which definitions a parse needs, where an extra one costs a
/// few bytes and a missing one would be wrong.
enum ReferenceLabels {
  /// cmark-gfm's longest label.
  static let maximumLength = 999

  /// Labels of every `[...]` in `bytes` (no nested brackets, at most ``maximumLength`` bytes).
  ///
  /// - Complexity: O(n).
  static func used(in bytes: ArraySlice<UInt8>) -> Set<String> {
    var labels: Set<String> = []
    var open: Int?
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch bytes[index] {
      case ASCII.backslash:
        index += 1
      case UInt8(ascii: "["):
        open = index
      case UInt8(ascii: "]"):
        if let start = open, index - start - 1 <= maximumLength {
          let key = normalized(bytes[(start + 1)..<index])
          if !key.isEmpty { labels.insert(key) }
        }
        open = nil
      default:
        break
      }
      index += 1
    }
    return labels
  }

  /// Labels that lines of `bytes` start to define: a `[label]:` after at most container markers
  /// (`>`, list markers) and spaces.
  ///
  /// - Complexity: O(n).
  static func defined(in bytes: ArraySlice<UInt8>) -> [String] {
    var labels: [String] = []
    var index = bytes.startIndex
    var atLineStart = true
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == ASCII.newline || byte == ASCII.carriageReturn {
        atLineStart = true
      } else if atLineStart && byte == UInt8(ascii: "[") {
        if let close = closingBracket(bytes, after: index), close + 1 < bytes.endIndex,
          bytes[close + 1] == UInt8(ascii: ":")
        {
          let key = normalized(bytes[(index + 1)..<close])
          if !key.isEmpty { labels.append(key) }
          index = close
        }
        atLineStart = false
      } else if atLineStart && !isContainerPrefix(byte) {
        atLineStart = false
      }
      index += 1
    }
    return labels
  }

  /// Bytes that may stand before a definition on its line: spaces, quote and list markers.
  private static func isContainerPrefix(_ byte: UInt8) -> Bool {
    ASCII.isBlank(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: ")")
  }

  /// The `]` that closes the label opened at `open` (labels may span lines).
  static func closingBracket(_ bytes: ArraySlice<UInt8>, after open: Int) -> Int? {
    var index = open + 1
    while index < bytes.endIndex && index - open - 1 <= maximumLength {
      switch bytes[index] {
      case ASCII.backslash: index += 1
      case UInt8(ascii: "["): return nil
      case UInt8(ascii: "]"): return index
      default: break
      }
      index += 1
    }
    return nil
  }

  /// The key of a label: lowercased, whitespace runs collapsed to one space, trimmed.
  static func normalized(_ bytes: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var pendingSpace = false
    var ascii = true
    for byte in bytes {
      if ASCII.isSpace(byte) {
        pendingSpace = !out.isEmpty
        continue
      }
      if pendingSpace {
        out.append(ASCII.space)
        pendingSpace = false
      }
      if byte >= 0x80 { ascii = false }
      out.append(ASCII.lower(byte))
    }
    let text = String(decoding: out, as: UTF8.self)
    return ascii ? text : text.lowercased()
  }
}
