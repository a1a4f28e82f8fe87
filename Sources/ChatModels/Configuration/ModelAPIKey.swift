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
  /// `<redacted>`.
  ///
  /// - Complexity: O(n + k) for a text of n Unicode scalars and a key of k: each scalar of the
  ///   text is looked up once in a set of the key's 8-scalar pieces.
  public func redact(_ text: String) -> String {
    var lookups = 0
    return redact(text, prefix: Int.max, lookups: &lookups)
  }

  /// The first `prefix` Unicode scalars of `text`, redacted as ``redact(_:)`` does, reading at
  /// most `prefix + k - 1` scalars of `text` (a piece of the key that starts before the cut and
  /// ends after it is still found); `lookups` counts the pieces looked up.
  package func redact<Text: StringProtocol>(_ text: Text, prefix: Int, lookups: inout Int) -> String {
    let key = Array(value.unicodeScalars)
    let width = Swift.min(Self.shortestRedactedPiece, key.count)
    var pieces = Set<SIMD8<UInt32>>()
    for start in 0...(key.count - width) { pieces.insert(Self.piece(key[start..<(start + width)])) }
    // The scalars read: those kept, and enough after them to finish a piece that starts there.
    let readLimit = prefix > Int.max - key.count ? Int.max : prefix + key.count - 1
    let scalars = Array(text.unicodeScalars.prefix(readLimit))
    let kept = Swift.min(prefix, scalars.count)
    // covered[i]: scalar i is part of a piece of the key found in the text.
    var covered = [Bool](repeating: false, count: kept)
    var coveredUntil = 0
    for start in 0..<Swift.max(0, Swift.min(scalars.count - width + 1, kept)) {
      lookups += 1
      guard pieces.contains(Self.piece(scalars[start..<(start + width)])) else { continue }
      let from = Swift.max(start, coveredUntil)
      let to = Swift.min(start + width, kept)
      if from < to { for index in from..<to { covered[index] = true } }
      coveredUntil = Swift.max(coveredUntil, start + width)
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

  /// Up to 8 scalars as one hashable value; every piece compared has the same width, so the
  /// unused lanes (zero) never tell two pieces apart wrongly.
  private static func piece(_ scalars: ArraySlice<Unicode.Scalar>) -> SIMD8<UInt32> {
    var lanes = SIMD8<UInt32>()
    for (lane, scalar) in scalars.enumerated() { lanes[lane] = scalar.value }
    return lanes
  }
}
