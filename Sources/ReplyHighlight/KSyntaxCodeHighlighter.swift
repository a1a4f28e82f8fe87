import CKSyntaxHighlighting
import ReplyMarkdown

/// A ``CodeHighlighter`` over KDE's KSyntaxHighlighting: 359 syntax definitions, styled in one of
/// its themes (GitHub Dark and Light, Solarized, Dracula …).
///
/// Languages are found by name, alias and file extension (``KSyntaxLanguageIndex``); an unknown
/// name stays plain. A line longer than ``maximumLineBytes`` is left plain and the state passes
/// through it unchanged, so one pathological line cannot stall rendering.
///
/// - Thread safety: `Sendable`. The C++ library is not thread-safe; every call into it is
///   serialized behind one process-wide lock, so calls from many threads are correct (and take
///   turns).
/// - Complexity: a line costs what the grammar's rules cost on it, about linear in its length for
///   ordinary code. Some grammars are slower on hostile text, as in KSyntaxHighlighting's own
///   `kate-syntax-highlighter`: a line of 16,000 bytes of `$($(…` in TypeScript takes about 3 s
///   (quadratic in the line's length below ``maximumLineBytes``), and tens of thousands of lines
///   each opening one more `[` in JSON, element in XML or `(` in Python cost time quadratic in
///   the depth (80,000 lines: about 7 s). `--highlight never` renders such input at full speed.
public struct KSyntaxCodeHighlighter: CodeHighlighter {
  /// Lines longer than this many UTF-8 bytes are not highlighted.
  public static let maximumLineBytes = 16_384

  /// The theme the spans are styled in.
  public let codeTheme: CodeTheme
  private let themeIndex: Int32

  /// A highlighter styled in the theme of this exact name (``themeNames``), or nil when there is
  /// no such theme.
  public init?(themeNamed name: String) {
    let index = name.withCString { cksh_theme_index($0) }
    guard index >= 0, let theme = Self.loadTheme(index) else { return nil }
    self.themeIndex = index
    self.codeTheme = theme
  }

  /// A highlighter in GitHub Dark (`dark`) or GitHub Light, or the library's default dark or light
  /// theme when those are missing.
  public init(dark: Bool = true) {
    if let named = Self(themeNamed: dark ? "GitHub Dark" : "GitHub Light") {
      self = named
      return
    }
    let index = cksh_theme_default(dark ? 1 : 0)
    self.themeIndex = index
    self.codeTheme =
      Self.loadTheme(index) ?? CodeTheme(name: "", background: CodeColor(rgb: dark ? 0 : 0xFFFFFF), styles: [:])
  }

  /// The names of the themes, in the library's order.
  public static let themeNames: [String] = (0..<cksh_theme_count()).compactMap { takeString(cksh_theme_name($0)) }

  /// The theme of this exact name, or nil.
  public static func theme(named name: String) -> CodeTheme? {
    let index = name.withCString { cksh_theme_index($0) }
    return index < 0 ? nil : loadTheme(index)
  }

  public var theme: CodeTheme? { codeTheme }

  public func language(named name: String) -> CodeLanguage? {
    KSyntaxLanguageIndex.shared.language(named: name)
  }

  /// Starts loading, on a thread of its own, the definitions of the languages that fences in
  /// `markdown` name (a line starting, after blanks, quote and list markers, with three backticks
  /// or tildes and a word), so reading their files overlaps the parse. Highlighting waits for it;
  /// the output is the same with or without it. A language it misses loads on first use, as
  /// always.
  ///
  /// - Complexity: O(n) in `markdown`'s bytes; the loading runs in the background.
  public func preloadLanguages(in markdown: String) {
    var identifiers: [Int32] = []
    var seen = Set<String>()
    for name in Self.fenceLanguageNames(in: markdown) where seen.insert(name).inserted {
      if let language = language(named: name) { identifiers.append(Int32(language.identifier)) }
    }
    guard !identifiers.isEmpty else { return }
    identifiers.withUnsafeBufferPointer { cksh_preload($0.baseAddress, $0.count) }
  }

  /// Waits until every ``preloadLanguages(in:)`` started so far is done; call it before the
  /// program exits (a load still running then would race the library's teardown).
  public static func waitForPreloads() { cksh_preload_wait() }

  /// The first word of every fence opener's info string in `markdown` (a byte scan, not a parse:
  /// it may name a language no fence really has, which costs only its loading).
  static func fenceLanguageNames(in markdown: String) -> [String] {
    var names: [String] = []
    var text = markdown
    text.withUTF8 { bytes in
      var index = 0
      let count = bytes.count
      while index < count {
        // Skip the line's blanks and quote and list markers.
        while index < count, [0x20, 0x09, 0x3E, 0x2D, 0x2A, 0x2B].contains(bytes[index]) { index += 1 }
        let fence = index < count ? bytes[index] : 0
        var run = 0
        while index < count, bytes[index] == fence, fence == 0x60 || fence == 0x7E {
          run += 1
          index += 1
        }
        if run >= 3 {
          while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
          let start = index
          while index < count, !Self.endsWord(bytes[index]) { index += 1 }
          if index > start {
            names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
          }
        }
        while index < count, bytes[index] != 0x0A { index += 1 }
        index += 1
      }
    }
    return names
  }

  private static func endsWord(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x60 || byte == 0x7B
  }

  public func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
    let previous = state.storage as? KSyntaxLineState
    // A state from another definition is not carried over.
    let start = previous?.definition == language.identifier ? previous : nil
    var line = line
    return line.withUTF8 { bytes -> HighlightedLine in
      guard bytes.count <= Self.maximumLineBytes, language.identifier >= 0, language.identifier <= Int(Int32.max)
      else { return HighlightedLine(spans: [], state: state) }
      var next: OpaquePointer?
      var spans: UnsafeMutablePointer<cksh_span>?
      var count = 0
      let ok = bytes.withMemoryRebound(to: CChar.self) { chars in
        cksh_highlight_line(
          Int32(language.identifier), themeIndex, chars.baseAddress, chars.count, start?.handle, &next, &spans, &count)
      }
      defer { cksh_free(spans) }
      guard ok == 1, let next else { return HighlightedLine(spans: [], state: state) }
      var result: [CodeSpan] = []
      result.reserveCapacity(count)
      if let spans {
        for index in 0..<count {
          let span = spans[index]
          let lower = Int(span.offset)
          let upper = min(lower + Int(span.length), bytes.count)
          guard lower < upper else { continue }
          result.append(
            CodeSpan(
              range: lower..<upper, kind: CodeTokenKind(textStyle: Int(span.text_style)), style: Self.style(span.style))
          )
        }
      }
      let after = KSyntaxLineState(handle: next, definition: language.identifier)
      return HighlightedLine(spans: result, state: CodeLineState(storage: after))
    }
  }

  static func style(_ style: cksh_style) -> CodeStyle {
    let flags = style.flags
    func has(_ flag: Int) -> Bool { flags & UInt32(flag) != 0 }
    return CodeStyle(
      foreground: has(CKSH_HAS_FOREGROUND) ? CodeColor(rgb: style.foreground) : nil,
      background: has(CKSH_HAS_BACKGROUND) ? CodeColor(rgb: style.background) : nil,
      bold: has(CKSH_BOLD), italic: has(CKSH_ITALIC), underline: has(CKSH_UNDERLINE),
      strikethrough: has(CKSH_STRIKETHROUGH))
  }

  static func loadTheme(_ index: Int32) -> CodeTheme? {
    guard let name = takeString(cksh_theme_name(index)) else { return nil }
    var styles: [CodeTokenKind: CodeStyle] = [:]
    for (position, kind) in CodeTokenKind.allCases.enumerated() {
      var style = cksh_style()
      if cksh_theme_style(index, Int32(position), &style) == 1 { styles[kind] = Self.style(style) }
    }
    return CodeTheme(name: name, background: CodeColor(rgb: cksh_theme_background(index)), styles: styles)
  }
}

/// Takes a malloc'd C string from the shim: its text, freed.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
  guard let pointer else { return nil }
  defer { cksh_free(pointer) }
  return String(cString: pointer)
}
