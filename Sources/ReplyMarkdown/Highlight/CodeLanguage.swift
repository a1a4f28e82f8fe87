/// A language a ``CodeHighlighter`` knows, as it resolved a fence's language name.
///
/// - Thread safety: a value type; `Sendable`.
public struct CodeLanguage: Sendable, Hashable, Codable {
  /// The highlighter's name for the language (`Python`, `C++`).
  public var name: String
  /// The highlighter's own identifier for the language (an index into its definitions).
  public var identifier: Int

  /// Creates a language as a highlighter knows it.
  public init(name: String, identifier: Int) {
    self.name = name
    self.identifier = identifier
  }

  /// The language name a fence's info string gives: its first word, with a Pandoc-style `{.lang}`
  /// or `.lang` reduced to `lang`; nil when there is none.
  ///
  /// ```swift
  /// CodeLanguage.fenceName(info: "python title=\"x.py\"")  // "python"
  /// CodeLanguage.fenceName(info: "{.rust}")                // "rust"
  /// ```
  public static func fenceName(info: String) -> String? {
    let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).first ?? ""
    var name = Substring(word)
    if name.hasPrefix("{") { name = name.dropFirst() }
    if name.hasSuffix("}") { name = name.dropLast() }
    if name.hasPrefix(".") { name = name.dropFirst() }
    return name.isEmpty ? nil : String(name)
  }
}
