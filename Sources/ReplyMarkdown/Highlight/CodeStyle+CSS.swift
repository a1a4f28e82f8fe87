extension CodeStyle {
  /// The CSS declarations of this style (`color: #rrggbb`, `background: …`, the weight, `font-style:
  /// italic`, `text-decoration: …`), in that order; empty for a style that sets nothing. `boldWeight`
  /// is the `font-weight` a bold style takes.
  public func cssDeclarations(boldWeight: String = "bold") -> [String] {
    var declarations: [String] = []
    if let color = foreground { declarations.append("color: \(color.hex)") }
    if let color = background { declarations.append("background: \(color.hex)") }
    if bold { declarations.append("font-weight: \(boldWeight)") }
    if italic { declarations.append("font-style: italic") }
    var lines: [String] = []
    if underline { lines.append("underline") }
    if strikethrough { lines.append("line-through") }
    if !lines.isEmpty { declarations.append("text-decoration: \(lines.joined(separator: " "))") }
    return declarations
  }
}
