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
  /// `<redacted>`. A key echoed inside a URL or a JSON string is found too: pieces are also looked
  /// up in the text read with its percent escapes (`%2F`) and JSON escapes (`\/`, `\u002F`)
  /// decoded, and the escapes that spelled a piece are redacted with it.
  ///
  /// - Complexity: O(n + k) for a text of n Unicode scalars and a key of k: each scalar of the
  ///   text is looked up at most twice (as written, and decoded when the text holds an escape)
  ///   in a set of the key's 8-scalar pieces.
  public func redact(_ text: String) -> String {
    var lookups = 0
    return redact(text, prefix: Int.max, lookups: &lookups)
  }

  /// The first `prefix` Unicode scalars of `text`, redacted as ``redact(_:)`` does, reading at
  /// most `prefix + 6k` scalars of `text` (a piece of the key that starts before the cut and ends
  /// after it is still found, even spelled with escapes of up to 6 scalars each); `lookups`
  /// counts the pieces looked up.
  package func redact<Text: StringProtocol>(_ text: Text, prefix: Int, lookups: inout Int) -> String {
    let key = Array(value.unicodeScalars)
    let width = Swift.min(Self.shortestRedactedPiece, key.count)
    var pieces = Set<SIMD8<UInt32>>()
    for start in 0...(key.count - width) { pieces.insert(Self.piece(key[start..<(start + width)].lazy.map(\.value))) }
    // The scalars read: those kept, and enough after them to finish a piece that starts there.
    let longestEscape = 6
    let readLimit = prefix > Int.max / 2 - key.count * longestEscape ? Int.max : prefix + key.count * longestEscape
    let scalars = Array(text.unicodeScalars.prefix(readLimit))
    let kept = Swift.min(prefix, scalars.count)
    // covered[i]: scalar i is part of a piece of the key found in the text.
    var covered = [Bool](repeating: false, count: kept)
    let written = scalars.indices.map { Spelled(value: scalars[$0].value, start: $0, end: $0 + 1) }
    Self.cover(&covered, pieces: pieces, width: width, in: written, lookups: &lookups)
    if scalars.contains(where: { $0 == "%" || $0 == "\\" }) {
      Self.cover(&covered, pieces: pieces, width: width, in: Self.decodingEscapes(scalars), lookups: &lookups)
    }
    var result = String.UnicodeScalarView()
    var index = 0
    while index < kept {
      if covered[index] {
        result.append(contentsOf: "<redacted>".unicodeScalars)
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

  /// `scalars` read with their escapes decoded: `%` and two hex digits (an ASCII character), and
  /// the JSON escapes `\/`, `\\`, `\"` and `\u` with four hex digits. Anything else stands for
  /// itself.
  private static func decodingEscapes(_ scalars: [Unicode.Scalar]) -> [Spelled] {
    func hex(_ from: Int, _ count: Int) -> UInt32? {
      guard from + count <= scalars.count else { return nil }
      var value: UInt32 = 0
      for scalar in scalars[from..<(from + count)] {
        guard let digit = Character(scalar).hexDigitValue, scalar.isASCII else { return nil }
        value = value * 16 + UInt32(digit)
      }
      return value
    }
    var decoded: [Spelled] = []
    decoded.reserveCapacity(scalars.count)
    var index = 0
    while index < scalars.count {
      var spelled = Spelled(value: scalars[index].value, start: index, end: index + 1)
      if scalars[index] == "%", let byte = hex(index + 1, 2), byte < 0x80 {
        spelled = Spelled(value: byte, start: index, end: index + 3)
      } else if scalars[index] == "\\", index + 1 < scalars.count {
        let next = scalars[index + 1]
        if next == "/" || next == "\\" || next == "\"" {
          spelled = Spelled(value: next.value, start: index, end: index + 2)
        } else if next == "u", let code = hex(index + 2, 4), Unicode.Scalar(code) != nil {
          spelled = Spelled(value: code, start: index, end: index + 6)
        }
      }
      decoded.append(spelled)
      index = spelled.end
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
