import CKSyntaxHighlighting
import ReplyMarkdown

/// Finds a KSyntaxHighlighting definition from a fence's language name, without regard to case:
/// first the aliases chat models write (``aliases``), then definition names, then file
/// extensions (`*.py` → `py`) and file names (`Dockerfile`), the definition of highest priority
/// winning a shared extension. Names that mean plain text (``plainNames``) and unknown names find
/// nothing: code is never highlighted in a guessed language.
///
/// - Thread safety: immutable after it is built once; `Sendable`.
public struct KSyntaxLanguageIndex: Sendable {
  /// The index over the process's repository, built on first use.
  public static let shared = KSyntaxLanguageIndex()

  /// Fence names whose definition is not found by name or extension, or whose extension another
  /// definition shares (`ts` is also Qt Linguist's), lower case, to the definition's name.
  public static let aliases: [String: String] = [
    "c++": "C++", "cpp": "C++", "cxx": "C++", "cc": "C++", "hpp": "C++", "h": "C",
    "objc": "Objective-C", "objective-c": "Objective-C", "objectivec": "Objective-C", "m": "Objective-C",
    "objc++": "Objective-C++", "objective-c++": "Objective-C++", "mm": "Objective-C++",
    "js": "JavaScript", "javascript": "JavaScript", "node": "JavaScript", "mjs": "JavaScript", "cjs": "JavaScript",
    "jsx": "JavaScript React (JSX)", "ts": "TypeScript", "typescript": "TypeScript", "tsx": "TypeScript React (TSX)",
    "sh": "Bash", "shell": "Bash", "bash": "Bash", "shellscript": "Bash", "console": "Bash", "zsh": "Zsh",
    "fish": "Fish", "ps1": "PowerShell", "pwsh": "PowerShell", "powershell": "PowerShell", "bat": "MS-DOS Batch",
    "cmd": "MS-DOS Batch", "batch": "MS-DOS Batch",
    "py": "Python", "python3": "Python", "py3": "Python", "rb": "Ruby", "rs": "Rust", "go": "Go", "golang": "Go",
    "kt": "Kotlin", "kts": "Kotlin", "cs": "C#", "csharp": "C#", "c#": "C#", "fs": "FSharp", "f#": "FSharp",
    "fsharp": "FSharp", "pl": "Perl", "perl": "Perl", "r": "R Script", "jl": "Julia", "ex": "Elixir",
    "exs": "Elixir", "erl": "Erlang", "hs": "Haskell", "ml": "Objective Caml", "ocaml": "Objective Caml",
    "clj": "Clojure", "scm": "Scheme", "lisp": "Common Lisp", "elisp": "Common Lisp", "vb": "MonoBasic",
    "json": "JSON", "jsonc": "JSON", "json5": "JSON", "jsonl": "JSON", "geojson": "JSON",
    "yml": "YAML", "yaml": "YAML", "toml": "TOML", "ini": "INI Files", "cfg": "INI Files", "conf": "INI Files",
    "xml": "XML", "svg": "XML", "plist": "XML", "html": "HTML", "htm": "HTML", "xhtml": "HTML", "css": "CSS",
    "scss": "SCSS", "sass": "SASS", "less": "LESSCSS", "md": "Markdown", "markdown": "Markdown",
    "tex": "LaTeX", "latex": "LaTeX", "rst": "reStructuredText", "adoc": "AsciiDoc",
    "diff": "Diff", "patch": "Diff", "udiff": "Diff", "dockerfile": "Dockerfile", "docker": "Dockerfile",
    "containerfile": "Dockerfile", "make": "Makefile", "makefile": "Makefile", "mk": "Makefile",
    "cmake": "CMake", "sql": "SQL", "psql": "SQL (PostgreSQL)", "postgres": "SQL (PostgreSQL)",
    "postgresql": "SQL (PostgreSQL)", "mysql": "SQL (MySQL)", "plsql": "SQL (Oracle)", "graphql": "GraphQL",
    "gql": "GraphQL", "proto": "Protobuf", "protobuf": "Protobuf", "tf": "Terraform", "hcl": "Terraform",
    "nix": "Nix", "lua": "Lua", "dart": "Dart", "scala": "Scala", "swift": "Swift", "zig": "Zig", "nim": "Nim",
    "java": "Java", "groovy": "Groovy", "gradle": "Groovy", "php": "PHP/PHP", "asm": "GNU Assembler",
    "nasm": "Intel x86 (NASM)", "llvm": "LLVM", "dot": "dot", "graphviz": "dot", "vue": "HTML",
    "awk": "AWK", "sed": "sed", "tcl": "Tcl/Tk",
    "gitignore": "Git Ignore", "csv": "CSV", "tsv": "TSV", "qml": "QML", "glsl": "GLSL", "hlsl": "GLSL",
    "cuda": "C++", "cu": "C++", "verilog": "Verilog", "vhdl": "VHDL", "sol": "Solidity",
    "solidity": "Solidity", "matlab": "Matlab", "octave": "Octave", "fortran": "Fortran (Free Format)",
    "f90": "Fortran (Free Format)", "cobol": "COBOL", "pascal": "Pascal", "ada": "Ada", "d": "D",
    "crystal": "Crystal", "elm": "Elm", "purescript": "PureScript", "racket": "Racket", "raku": "Raku",
    "coffee": "CoffeeScript", "coffeescript": "CoffeeScript", "haml": "Haml", "pug": "Pug",
    "mustache": "Mustache/Handlebars (HTML)", "handlebars": "Mustache/Handlebars (HTML)",
    "hbs": "Mustache/Handlebars (HTML)",
    "jinja": "Django HTML Template", "django": "Django HTML Template", "meson": "Meson", "ninja": "Ninja",
    "gdscript": "Godot", "bibtex": "BibTeX", "tsql": "SQL", "sqlite": "SQL", "log": "Log File (simplified)",
    "properties": "Java Properties", "systemd": "systemd unit",
    "apache": "Apache Configuration", "idris": "Idris", "agda": "Agda",
    "gherkin": "Cucumber Gherkin feature",
    "cucumber": "Cucumber Gherkin feature", "kotlin": "Kotlin", "rust": "Rust", "ruby": "Ruby", "c": "C",
  ]

  /// Fence names that mean plain text: never highlighted, whatever a definition calls itself.
  public static let plainNames: Set<String> = [
    "text", "txt", "plain", "plaintext", "none", "nohighlight", "no-highlight", "output", "stdout", "stderr", "raw",
  ]

  private let byName: [String: CodeLanguage]
  private let byExtension: [String: CodeLanguage]

  /// The definitions, each as a language (hidden ones included), in the repository's order.
  public let languages: [CodeLanguage]

  init() {
    var languages: [CodeLanguage] = []
    var names: [String: CodeLanguage] = [:]
    var extensions: [String: (language: CodeLanguage, priority: Int32)] = [:]
    let count = cksh_definition_count()
    for index in 0..<count {
      guard let name = takeString(cksh_definition_name(index)) else { continue }
      let language = CodeLanguage(name: name, identifier: Int(index))
      languages.append(language)
      if cksh_definition_is_hidden(index) != 0 { continue }
      names[name.lowercased()] = names[name.lowercased()] ?? language
      let priority = cksh_definition_priority(index)
      for pattern in (takeString(cksh_definition_patterns(index)) ?? "").split(separator: ";") {
        guard let key = Self.extensionKey(pattern) else { continue }
        if let existing = extensions[key], existing.priority >= priority { continue }
        extensions[key] = (language, priority)
      }
    }
    var byName = names
    for (alias, name) in Self.aliases {
      if let language = names[name.lowercased()] { byName[alias] = language }
    }
    self.byName = byName
    self.byExtension = extensions.mapValues(\.language)
    self.languages = languages
  }

  /// The language of a fence's language name, or nil.
  public func language(named name: String) -> CodeLanguage? {
    let key = name.lowercased()
    guard !key.isEmpty, !Self.plainNames.contains(key) else { return nil }
    return byName[key] ?? byExtension[key]
  }

  /// The key a file pattern is found by: `*.py` → `py`, `Dockerfile` → `dockerfile`; nil for
  /// patterns with other wildcards (`*.[ch]`, `*-config`), which would match by guesswork.
  static func extensionKey(_ pattern: Substring) -> String? {
    var key = pattern
    if key.hasPrefix("*.") { key = key.dropFirst(2) }
    guard !key.isEmpty, !key.contains(where: { "*?[]{} ".contains($0) }) else { return nil }
    return key.lowercased()
  }
}
