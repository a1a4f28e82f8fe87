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

  /// `text` with the key, and every piece of it of 8 characters or more (servers echo keys
  /// partly masked), replaced by `<redacted>`.
  ///
  /// - Complexity: O(k² · n) for a key of k characters and a text of n; meant for error texts.
  public func redact(_ text: String) -> String {
    let key = Array(value)
    var result = text
    var length = key.count
    while length >= Swift.min(8, key.count) && length > 0 {
      for start in 0...(key.count - length) {
        let piece = String(key[start..<(start + length)])
        if result.contains(piece) { result = result.replacingOccurrences(of: piece, with: "<redacted>") }
      }
      length -= 1
    }
    return result
  }
}
