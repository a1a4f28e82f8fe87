/// The colours of a highlighting theme: its background, and a style per token kind.
///
/// - Thread safety: a value type; `Sendable`.
public struct CodeTheme: Sendable, Hashable, Codable {
  /// The theme's name (`GitHub Dark`).
  public var name: String
  /// The editor background the theme is made for.
  public var background: CodeColor
  /// The style of each token kind, indexed by the kind's position in ``CodeTokenKind/allCases``.
  public var styles: [CodeStyle]

  /// Creates a theme; missing kinds are plain.
  public init(name: String, background: CodeColor, styles: [CodeTokenKind: CodeStyle]) {
    self.name = name
    self.background = background
    self.styles = CodeTokenKind.allCases.map { styles[$0] ?? .plain }
  }

  /// Whether the theme is for a dark background.
  public var isDark: Bool { background.luminance < 0.5 }

  /// The style of a token kind.
  public func style(_ kind: CodeTokenKind) -> CodeStyle {
    let index = CodeTokenKind.allCases.firstIndex(of: kind) ?? 0
    return index < styles.count ? styles[index] : .plain
  }
}
