import ReplyHighlight
import ReplyMarkdown
import Testing

@Suite("Language lookup")
struct LanguageLookupTests {
  let highlighter = KSyntaxCodeHighlighter()

  /// Fence names as chat models write them, and the definition each must find.
  static let table: [(fence: String, definition: String)] = [
    ("swift", "Swift"), ("Swift", "Swift"), ("SWIFT", "Swift"), ("python", "Python"), ("py", "Python"),
    ("js", "JavaScript"), ("javascript", "JavaScript"), ("ts", "TypeScript"), ("tsx", "TypeScript React (TSX)"),
    ("sh", "Bash"), ("bash", "Bash"), ("shell", "Bash"), ("zsh", "Zsh"), ("c++", "C++"), ("cpp", "C++"),
    ("C", "C"), ("objc", "Objective-C"), ("yml", "YAML"), ("yaml", "YAML"), ("json", "JSON"), ("jsonc", "JSON"),
    ("diff", "Diff"), ("patch", "Diff"), ("Dockerfile", "Dockerfile"), ("dockerfile", "Dockerfile"),
    ("rust", "Rust"), ("rs", "Rust"), ("go", "Go"), ("golang", "Go"), ("sql", "SQL"), ("toml", "TOML"),
    ("html", "HTML"), ("xml", "XML"), ("css", "CSS"), ("kotlin", "Kotlin"), ("rb", "Ruby"), ("java", "Java"),
    ("makefile", "Makefile"), ("cmake", "CMake"), ("lua", "Lua"), ("hs", "Haskell"), ("md", "Markdown"),
    // By file extension alone (no alias): `*.pyw`, `*.zig`, `*.dart`.
    ("pyw", "Python"), ("zig", "Zig"), ("dart", "Dart"),
  ]

  @Test("fence names find their definitions by name, alias and extension, in any case")
  func table() {
    for (fence, definition) in Self.table {
      #expect(highlighter.language(named: fence)?.name == definition, "\(fence)")
    }
  }

  @Test("unknown, missing and plain-text names stay plain")
  func unknownStaysPlain() {
    for name in ["", "text", "txt", "plaintext", "none", "output", "klingon", "*.py", "py3k", "alerts"] {
      #expect(highlighter.language(named: name) == nil, "\(name)")
    }
    #expect(highlighter.language(info: "") == nil)
    #expect(highlighter.language(info: "   ") == nil)
  }

  @Test("the info string's first word is the name")
  func infoString() {
    #expect(CodeLanguage.fenceName(info: "python title=\"a.py\"") == "python")
    #expect(CodeLanguage.fenceName(info: "{.rust}") == "rust")
    #expect(CodeLanguage.fenceName(info: ".ts") == "ts")
    #expect(CodeLanguage.fenceName(info: "js,linenos") == "js")
    #expect(highlighter.language(info: "py extra words")?.name == "Python")
  }

  @Test("the plain highlighter knows no language")
  func plain() {
    #expect(PlainCodeHighlighter().language(named: "swift") == nil)
    #expect(PlainCodeHighlighter().theme == nil)
  }

  @Test("themes: GitHub Dark and Light are there; dark is dark")
  func themes() throws {
    #expect(KSyntaxCodeHighlighter.themeNames.contains("GitHub Dark"))
    #expect(KSyntaxCodeHighlighter.themeNames.contains("GitHub Light"))
    #expect(KSyntaxCodeHighlighter.themeNames.count >= 20)
    let dark = try #require(KSyntaxCodeHighlighter.theme(named: "GitHub Dark"))
    let light = try #require(KSyntaxCodeHighlighter.theme(named: "GitHub Light"))
    #expect(dark.isDark)
    #expect(!light.isDark)
    #expect(dark.background.hex == "#24292e")
    #expect(KSyntaxCodeHighlighter(themeNamed: "No Such Theme") == nil)
    #expect(KSyntaxCodeHighlighter(dark: false).codeTheme.name == "GitHub Light")
  }
}
