import Foundation

/// A secret API key that never prints itself.
///
/// Guarantees: `description`, `debugDescription`, string interpolation, `dump` and `Mirror`
/// show `<redacted>`; the key itself is only read by the request builder (``value`` is
/// `package`), and ``redact(_:)`` removes it from any text that might have echoed it (a server's
/// error message, say).
public struct ModelAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  package let value: String

  /// Wraps `value`; `nil` when it is empty or only white space.
  public init?(_ value: String) {
    let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    self.value = trimmed
  }

  /// `<redacted>`.
  public var description: String { "<redacted>" }
  /// `<redacted>`.
  public var debugDescription: String { "<redacted>" }
  /// A mirror with no children, so `dump` shows nothing of the key.
  public var customMirror: Mirror { Mirror(self, children: [:]) }

  /// The shortest piece of the key that is redacted on its own (a shorter key is redacted whole).
  public static let shortestRedactedPiece = 8

  /// `text` with the key, and every piece of it of 8 characters or more (servers echo keys
  /// partly masked), replaced by `<redacted>`: each run of text made of such pieces becomes one
  /// `<redacted>`. A key echoed inside a URL, a JSON string or HTML is found too: pieces are also
  /// looked up in the text read with its percent escapes (`%2F`), JSON escapes (`\/`, `\u002F`)
  /// and character references (`&#47;`, `&#x2F;`) decoded, up to three levels deep (`%252F`),
  /// and the escapes that spelled a piece are redacted with it.
  ///
  /// - Complexity: O(n + k) for a text of n Unicode scalars and a key of k: each scalar of the
  ///   text is looked up at most four times (as written, and at each level of escapes the text
  ///   still holds) in a set of the key's 8-scalar pieces.
  public func redact(_ text: String) -> String {
    var lookups = 0
    return redact(text, prefix: Int.max, lookups: &lookups)
  }

  /// The first `prefix` Unicode scalars of `text`, redacted as ``redact(_:)`` does, reading at
  /// most `prefix + 30k` scalars of `text` (a piece of the key that starts before the cut and
  /// ends after it is still found, even spelled with nested escapes of up to 30 scalars each);
  /// `lookups` counts the pieces looked up.
  package func redact<Text: StringProtocol>(_ text: Text, prefix: Int, lookups: inout Int) -> String {
    let key = Array(value.unicodeScalars)
    let width = Swift.min(Self.shortestRedactedPiece, key.count)
    var pieces = Set<SIMD8<UInt32>>()
    for start in 0...(key.count - width) { pieces.insert(Self.piece(key[start..<(start + width)].lazy.map(\.value))) }
    // The scalars read: those kept, and enough after them to finish a piece that starts there.
    let longestEscape = 30
    let readLimit = prefix > Int.max / 2 - key.count * longestEscape ? Int.max : prefix + key.count * longestEscape
    let scalars = Array(text.unicodeScalars.prefix(readLimit))
    let kept = Swift.min(prefix, scalars.count)
    // covered[i]: scalar i is part of a piece of the key found in the text.
    var covered = [Bool](repeating: false, count: kept)
    let written = scalars.indices.map { Spelled(value: scalars[$0].value, start: $0, end: $0 + 1) }
    Self.cover(&covered, pieces: pieces, width: width, in: written, lookups: &lookups)
    // Escaped spellings, up to three levels deep (a key escaped for a URL, then for JSON, then
    // for HTML), each level looked up as long as it still holds an escape.
    var spelled = written
    for _ in 0..<3 where spelled.contains(where: { Self.mayEscape($0.value) }) {
      spelled = Self.decodingEscapes(spelled)
      Self.cover(&covered, pieces: pieces, width: width, in: spelled, lookups: &lookups)
    }
    var result = String.UnicodeScalarView()
    var index = 0
    while index < kept {
      if covered[index] {
        // One scalar at a time: `append(contentsOf:)` on a scalar view copies the whole view.
        for scalar in "<redacted>".unicodeScalars { result.append(scalar) }
        while index < kept && covered[index] { index += 1 }
      } else {
        result.append(scalars[index])
        index += 1
      }
    }
    return String(result)
  }

  /// A scalar as the text means it, and the scalars of the text that spell it (`start..<end`).
  private struct Spelled {
    var value: UInt32
    var start: Int
    var end: Int
  }

  /// Marks in `covered` the written scalars that spell a piece of the key found in `spelled`
  /// (those of the kept prefix: `covered.count`).
  private static func cover(
    _ covered: inout [Bool], pieces: Set<SIMD8<UInt32>>, width: Int, in spelled: [Spelled], lookups: inout Int
  ) {
    let kept = covered.count
    var coveredUntil = 0
    var start = 0
    while start + width <= spelled.count, spelled[start].start < kept {
      defer { start += 1 }
      lookups += 1
      guard pieces.contains(piece(spelled[start..<(start + width)].lazy.map(\.value))) else { continue }
      let from = Swift.max(spelled[start].start, coveredUntil)
      let to = Swift.min(spelled[start + width - 1].end, kept)
      if from < to { for index in from..<to { covered[index] = true } }
      coveredUntil = Swift.max(coveredUntil, spelled[start + width - 1].end)
    }
  }

  /// Whether `value` may start an escape ``decodingEscapes(_:)`` reads: `%`, `\` or `&`.
  private static func mayEscape(_ value: UInt32) -> Bool {
    value == 0x25 || value == 0x5C || value == 0x26
  }

  /// `text` read with one level of escapes decoded: `%` and two hex digits (an ASCII character),
  /// the JSON escapes `\/`, `\\`, `\"` and `\u` with four hex digits, and the HTML
  /// character references `&#` with decimal or `&#x` with hex digits and `;`. Anything else
  /// stands for itself. Each result spans the written scalars of the ones it was read from.
  private static func decodingEscapes(_ text: [Spelled]) -> [Spelled] {
    func digits(_ from: Int, radix: UInt32, count: ClosedRange<Int>) -> (value: UInt32, end: Int)? {
      var value: UInt32 = 0
      var index = from
      while index < text.count, index - from < count.upperBound,
        let scalar = Unicode.Scalar(text[index].value), scalar.isASCII,
        let digit = Character(scalar).hexDigitValue, UInt32(digit) < radix
      {
        value = value * radix + UInt32(digit)
        index += 1
      }
      return count.contains(index - from) ? (value, index) : nil
    }
    func spanning(_ value: UInt32, _ from: Int, _ end: Int) -> Spelled {
      Spelled(value: value, start: text[from].start, end: text[end - 1].end)
    }
    var decoded: [Spelled] = []
    decoded.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      var spelled = text[index]
      var next = index + 1
      let first = text[index].value
      let second = index + 1 < text.count ? text[index + 1].value : 0
      if first == 0x25, let (byte, end) = digits(index + 1, radix: 16, count: 2...2), byte < 0x80 {
        (spelled, next) = (spanning(byte, index, end), end)
      } else if first == 0x5C, second == 0x2F || second == 0x5C || second == 0x22 {
        (spelled, next) = (spanning(second, index, index + 2), index + 2)
      } else if first == 0x5C, second == 0x75, let (code, end) = digits(index + 2, radix: 16, count: 4...4),
        Unicode.Scalar(code) != nil
      {
        (spelled, next) = (spanning(code, index, end), end)
      } else if first == 0x26, second == 0x23 {
        let isHex = index + 2 < text.count && (text[index + 2].value == 0x78 || text[index + 2].value == 0x58)
        let from = index + (isHex ? 3 : 2)
        if let (code, end) = digits(from, radix: isHex ? 16 : 10, count: 1...7), end < text.count,
          text[end].value == 0x3B, Unicode.Scalar(code) != nil
        {
          (spelled, next) = (spanning(code, index, end + 1), end + 1)
        }
      }
      decoded.append(spelled)
      index = next
    }
    return decoded
  }

  /// Up to 8 scalars as one hashable value; every piece compared has the same width, so the
  /// unused lanes (zero) never tell two pieces apart wrongly.
  private static func piece<Values: Sequence<UInt32>>(_ values: Values) -> SIMD8<UInt32> {
    var lanes = SIMD8<UInt32>()
    for (lane, value) in values.enumerated() { lanes[lane] = value }
    return lanes
  }
}
