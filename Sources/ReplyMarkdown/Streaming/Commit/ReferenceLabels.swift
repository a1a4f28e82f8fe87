/// Finds the labels that markdown source defines (`[label]:`) or may use (`[label]`), as keys
/// that compare the way cmark-gfm matches labels (case-insensitive, runs of whitespace as one
/// space, trimmed). A footnote label keeps its caret (`^1`).
///
/// The scan is a conservative byte scan, not a parse: it may report labels the source does not
/// really define or use (a bracket inside code), never the other way round. Callers use it to
/// choose which definitions a parse needs, where an extra one costs a few bytes and a missing one
/// would be wrong.
///
/// A footnote reference whose brackets stand on different lines is looked up by cmark-gfm under a
/// label of its own making: as many bytes after the caret as the columns of the two brackets
/// differ by, less two. A footnote definition's label holds no whitespace, so only a prefix of the
/// first word after the caret can match one; the scan reports those prefixes too.
enum ReferenceLabels {
  /// cmark-gfm's longest label.
  static let maximumLength = 999

  /// Labels of every `[...]` in `bytes` (no nested brackets, at most ``maximumLength`` bytes).
  ///
  /// - Complexity: O(n).
  static func used(in bytes: ArraySlice<UInt8>) -> Set<String> {
    var labels: Set<String> = []
    forEachUsed(in: bytes, footnotePrefixes: .upTo(multiLinePrefixLimit)) { labels.insert($0) }
    return labels
  }

  /// The longest prefix of a footnote label spanning lines that ``used(in:)`` reports, in bytes.
  /// Past it, a block waiting for a later definition may commit before that definition arrives,
  /// and the final replacement corrects it.
  static let multiLinePrefixLimit = 64

  /// Which prefixes of the first word of a footnote label spanning lines to report, by their
  /// length in bytes after the caret.
  enum FootnotePrefixes {
    /// Every length up to the given one.
    case upTo(Int)
    /// Only these lengths: those of the footnote labels the caller knows of.
    case lengths(Set<Int>)

    func contains(_ length: Int) -> Bool {
      switch self {
      case .upTo(let limit): length <= limit
      case .lengths(let lengths): lengths.contains(length)
      }
    }
  }

  /// Calls `body` with the label of every `[...]` in `bytes`, as ``used(in:)`` finds them, in
  /// order and as often as they occur; for a footnote label spanning lines, also the prefixes of
  /// its first word that `footnotePrefixes` names.
  ///
  /// - Complexity: O(n) plus, per footnote label spanning lines, O(w) per prefix reported (w the
  ///   length of its first word); bytes other than `\`, `[` and `]` are skipped sixteen at a time.
  static func forEachUsed(
    in bytes: ArraySlice<UInt8>, footnotePrefixes: FootnotePrefixes = .lengths([]), _ body: (String) -> Void
  ) {
    bytes.withUnsafeBufferPointer { buffer in
      var open = -1
      var cursor = ByteSetCursor()
      var index = cursor.next(Self.scanned, in: buffer, from: 0, to: buffer.count)
      while index < buffer.count {
        switch buffer[index] {
        case ASCII.backslash:
          index += 1
        case UInt8(ascii: "["):
          open = index
        case UInt8(ascii: "]"):
          if open >= 0, index - open - 1 <= maximumLength {
            let label = UnsafeBufferPointer(rebasing: buffer[(open + 1)..<index])
            let key = normalized(label)
            if !key.isEmpty { body(key) }
            if label.first == UInt8(ascii: "^") && label.contains(where: isLineBreak) {
              forEachFirstWordPrefix(of: label, footnotePrefixes, body)
            }
          }
          open = -1
        default:
          break
        }
        index = cursor.next(Self.scanned, in: buffer, from: index + 1, to: buffer.count)
      }
    }
  }

  /// Calls `body` with the key of each prefix of the first word after the caret of `label` that
  /// `prefixes` names, the caret kept.
  private static func forEachFirstWordPrefix(
    of label: UnsafeBufferPointer<UInt8>, _ prefixes: FootnotePrefixes, _ body: (String) -> Void
  ) {
    let word = label.dropFirst().prefix { !ASCII.isSpace($0) }
    guard !word.isEmpty else { return }
    let key = Array(normalized(UnsafeBufferPointer(rebasing: word)).utf8)
    for length in 1...key.count where prefixes.contains(length) {
      body("^" + String(decoding: key[..<length], as: UTF8.self))
    }
  }

  private static func isLineBreak(_ byte: UInt8) -> Bool {
    byte == ASCII.newline || byte == ASCII.carriageReturn
  }

  /// The bytes ``forEachUsed(in:_:)`` acts on.
  private static let scanned = ByteSet([ASCII.backslash, UInt8(ascii: "["), UInt8(ascii: "]")])

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
    bytes.withUnsafeBufferPointer { normalized($0) }
  }

  /// ``normalized(_:)`` of the bytes in `bytes`, written straight into the string's storage.
  static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var ascii = true
    let text = String(unsafeUninitializedCapacity: bytes.count) { out in
      var count = 0
      var pendingSpace = false
      for byte in bytes {
        if ASCII.isSpace(byte) {
          pendingSpace = count > 0
          continue
        }
        if pendingSpace {
          out[count] = ASCII.space
          count += 1
          pendingSpace = false
        }
        if byte >= 0x80 { ascii = false }
        out[count] = ASCII.lower(byte)
        count += 1
      }
      return count
    }
    return ascii ? text : text.lowercased()
  }
}
