extension CodeTheme {
  /// CSS for the `hl-…` spans of highlighted HTML in this theme, one rule per token kind the
  /// theme styles, each selector prefixed by `scope` (`""`, or `".dark"` to scope a theme).
  ///
  /// A theme change is a change of this stylesheet only: the HTML stays the same.
  public func stylesheet(scope: String = "") -> String {
    let prefix = scope.isEmpty ? "" : scope + " "
    var css = "\(prefix)pre:has(> code [class^=\"hl-\"]) { background: \(background.hex); }\n"
    if let normal = style(.normal).foreground {
      css += "\(prefix)pre:has(> code [class^=\"hl-\"]) > code { color: \(normal.hex); }\n"
    }
    for kind in CodeTokenKind.allCases where kind != .normal {
      let declarations = style(kind).cssDeclarations()
      guard !declarations.isEmpty else { continue }
      css += "\(prefix).\(kind.cssClass) { \(declarations.joined(separator: "; ")); }\n"
    }
    return css
  }

  /// CSS that follows the reader's light or dark preference: `light`'s rules, and `dark`'s inside
  /// `@media (prefers-color-scheme: dark)`.
  public static func stylesheet(light: CodeTheme, dark: CodeTheme) -> String {
    let darkRules = dark.stylesheet().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    return light.stylesheet() + "@media (prefers-color-scheme: dark) {\n" + darkRules + "\n}\n"
  }
}
