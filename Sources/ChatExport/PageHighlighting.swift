import ReplyMarkdown

/// Syntax highlighting for a ``ThreadPage``'s code blocks: the highlighter that marks the code
/// with `hl-…` spans (``HTMLRenderer/highlighter``) and the two themes that colour them.
///
/// The page's style sheet gets one rule per token kind of `light`, and `dark`'s rules for screens
/// that prefer a dark scheme; printing always uses `light`. The rules are part of the page's one
/// style sheet, so its Content-Security-Policy hash covers them and nothing else is allowed.
///
/// - Thread safety: `Sendable`, as ``CodeHighlighter`` requires.
public struct PageHighlighting: Sendable {
  /// Marks code with spans of stable class names; which theme it was made with does not matter.
  public var highlighter: any CodeHighlighter
  /// The colours on a light page and on paper.
  public var light: CodeTheme
  /// The colours on a dark page.
  public var dark: CodeTheme

  /// Creates highlighting from a highlighter and the themes of the two schemes.
  public init(highlighter: any CodeHighlighter, light: CodeTheme, dark: CodeTheme) {
    self.highlighter = highlighter
    self.light = light
    self.dark = dark
  }

  /// The rules for the spans: `light`'s, then `dark`'s inside
  /// `@media screen and (prefers-color-scheme: dark)`.
  ///
  /// The code frame keeps the page's own background in both schemes; only the text of the spans
  /// takes the theme's colours and attributes.
  var stylesheet: String {
    Self.rules(light, indent: "") + "@media screen and (prefers-color-scheme: dark) {\n"
      + Self.rules(dark, indent: "  ") + "}\n"
  }

  private static func rules(_ theme: CodeTheme, indent: String) -> String {
    var css = ""
    for kind in CodeTokenKind.allCases where kind != .normal {
      let declarations = theme.style(kind).cssDeclarations(boldWeight: "600")
      guard !declarations.isEmpty else { continue }
      css += "\(indent).code .\(kind.cssClass) { \(declarations.joined(separator: "; ")); }\n"
    }
    return css
  }
}
