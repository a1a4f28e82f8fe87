/// The options of an ``ANSIRenderer``: width, colour, hyperlinks, theme, and how code is
/// highlighted.
///
/// ``init(width:color:hyperlinks:theme:)`` takes decided values; ``standardOutput(width:color:hyperlinks:theme:environment:)``
/// decides them the way a command-line tool should, from standard output and the environment.
public struct ANSIOptions: Sendable, Hashable {
  /// The narrowest width the layout guarantees; smaller widths count as this.
  public static let minimumWidth = 20

  /// The widest width taken from `COLUMNS` (10,000, the most the command line's `--width` takes):
  /// a larger value counts as this.
  public static let maximumEnvironmentWidth = 10_000

  /// The widest width the layout takes (a million columns); larger widths count as this. A rule
  /// or a table border is drawn across the width: `Int.max` overflowed counting its bytes.
  public static let maximumWidth = 1_000_000

  /// The width in columns; no line is wider (from ``minimumWidth`` to ``maximumWidth``).
  public var width: Int {
    didSet { width = Self.clamped(width) }
  }

  static func clamped(_ width: Int) -> Int { min(max(width, minimumWidth), maximumWidth) }
  /// Whether to style with SGR escape sequences.
  public var color: Bool
  /// Whether links are OSC 8 hyperlinks (the text alone, clickable) rather than `text (url)`.
  public var hyperlinks: Bool
  /// The styles of each element.
  public var theme: ANSITheme
  /// Colours the code of code blocks whose language it knows, when ``color`` is on; code in
  /// other languages keeps ``ANSITheme/codeBlock``. The default, ``PlainCodeHighlighter``, knows
  /// none, so output is unchanged. Layout never depends on it: the same characters, widths and
  /// wrapping, with or without.
  public var highlighter: any CodeHighlighter
  /// How many colours highlighted code may use.
  public var colorDepth: ANSIColorDepth
  /// Whether each code block's label names its number, counted from 1 in document order (the
  /// order of ``PlainTextRenderer/codeBlocks(in:)``): `swift · code 2`, or `code 2` on a line of
  /// its own when the block has no language. Off by default, and output is then unchanged; a
  /// chat turns it on so a reader can name a block (`/copy code 2`). Rendering one top-level
  /// block counts the blocks before it, so its numbers are those of the whole document.
  public var numbersCodeBlocks = false

  /// Creates options; the default is 80 columns, no colour, no hyperlinks, the default theme,
  /// no highlighting.
  public init(
    width: Int = 80, color: Bool = false, hyperlinks: Bool = false, theme: ANSITheme = .default,
    highlighter: any CodeHighlighter = PlainCodeHighlighter(), colorDepth: ANSIColorDepth = .palette256
  ) {
    self.width = Self.clamped(width)
    self.color = color
    self.hyperlinks = hyperlinks
    self.theme = theme
    self.highlighter = highlighter
    self.colorDepth = colorDepth
  }

  /// Equal when every option is, highlighters counting as equal when they are of the same type
  /// and theme.
  public static func == (lhs: ANSIOptions, rhs: ANSIOptions) -> Bool {
    lhs.width == rhs.width && lhs.color == rhs.color && lhs.hyperlinks == rhs.hyperlinks && lhs.theme == rhs.theme
      && lhs.colorDepth == rhs.colorDepth && type(of: lhs.highlighter) == type(of: rhs.highlighter)
      && lhs.highlighter.theme == rhs.highlighter.theme && lhs.numbersCodeBlocks == rhs.numbersCodeBlocks
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(width)
    hasher.combine(color)
    hasher.combine(hyperlinks)
    hasher.combine(theme)
    hasher.combine(colorDepth)
    hasher.combine(ObjectIdentifier(type(of: highlighter)))
    hasher.combine(highlighter.theme)
    hasher.combine(numbersCodeBlocks)
  }

  /// When to use a feature that only a terminal shows.
  public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only when standard output is a terminal (and, for colour, `NO_COLOR` is unset or
    /// `FORCE_COLOR` is set).
    case auto
    /// Always.
    case always
    /// Never.
    case never
  }

  /// Options for writing to standard output, decided as a command-line tool should.
  ///
  /// - Width: `width` if given; else the terminal's width when standard output is a terminal; else
  ///   `COLUMNS` when it is a positive number (at most ``maximumEnvironmentWidth``); else 80.
  /// - Colour `auto`: on when `FORCE_COLOR` is set to anything but `0` or `false`; otherwise off
  ///   when `NO_COLOR` is set and not empty or `TERM` is `dumb`; otherwise on only for a terminal.
  /// - Hyperlinks `auto`: on when colour is on and standard output is a terminal.
  ///   `always` emits OSC 8 even with colour off (an explicit request).
  /// - Colour depth of highlighted code: 24-bit when `COLORTERM` says so, else 256 colours.
  public static func standardOutput(
    width: Int? = nil, color: Mode = .auto, hyperlinks: Mode = .auto, theme: ANSITheme = .default,
    highlighter: any CodeHighlighter = PlainCodeHighlighter(),
    environment: [String: String] = TerminalEnvironment.variables
  ) -> ANSIOptions {
    let isTerminal = TerminalEnvironment.standardOutputIsTerminal
    let resolvedWidth =
      width ?? (isTerminal ? TerminalEnvironment.standardOutputColumns : nil)
      ?? environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? min($0, maximumEnvironmentWidth) : nil } ?? 80
    let colorOn = resolve(color: color, isTerminal: isTerminal, environment: environment)
    let hyperlinksOn: Bool
    switch hyperlinks {
    case .always: hyperlinksOn = true
    case .never: hyperlinksOn = false
    case .auto: hyperlinksOn = colorOn && isTerminal
    }
    return ANSIOptions(
      width: resolvedWidth, color: colorOn, hyperlinks: hyperlinksOn, theme: theme, highlighter: highlighter,
      colorDepth: .of(environment: environment))
  }

  /// Decides colour for a mode, given whether the output is a terminal and the environment.
  public static func resolve(color mode: Mode, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch mode {
    case .always: return true
    case .never: return false
    case .auto:
      if let force = environment["FORCE_COLOR"], force != "0", force.lowercased() != "false" { return true }
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return isTerminal
    }
  }
}
