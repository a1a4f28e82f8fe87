/// The SGR sequences of the chat's own chrome (turn fill, marks, status), or none without colour.
///
/// Uses only the 16 standard colours and attributes, so it follows the terminal's palette.
/// Every styled piece is closed with a reset on the same line.
struct ChatStyle: Sendable {
  /// Whether sequences are written at all.
  let color: Bool

  /// `text` wrapped in the SGR `parameters` and a reset, or `text` alone without colour.
  func apply(_ parameters: String, _ text: String) -> String {
    color && !text.isEmpty ? "\u{1B}[\(parameters)m\(text)\u{1B}[0m" : text
  }

  /// The person's turn: bright text on the fill.
  func fill(_ text: String) -> String { apply("97;100", text) }
  /// Secondary text: day separators, hints, action glyphs.
  func secondary(_ text: String) -> String { apply("2", text) }
  /// A chosen thumb, "Copied": primary text.
  func primary(_ text: String) -> String { apply("1", text) }
  /// Errors.
  func danger(_ text: String) -> String { apply("31", text) }
  /// "Thinking" and "Stopped".
  func mark(_ text: String) -> String { apply("2;3", text) }
  /// A capsule (Stop, the jump-to-latest marker).
  func capsule(_ text: String) -> String { color ? apply("7", " \(text) ") : "[\(text)]" }
}
