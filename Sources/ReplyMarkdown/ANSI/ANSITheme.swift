/// The styles of each element of terminal output.
///
/// The ``default`` theme uses only attributes and the 16 standard colours, with no backgrounds,
/// so it reads on dark and light terminals alike; structure never depends on colour (with colour
/// off the same bullets, bars, labels and borders show).
///
/// - Thread safety: a value type; `Sendable`.
public struct ANSITheme: Sendable, Hashable, Codable {
  /// Level-1 headings (and their `═` underline).
  public var heading1: ANSIStyle
  /// Level-2 headings (and their `─` underline).
  public var heading2: ANSIStyle
  /// Headings of levels 3 to 6.
  public var heading: ANSIStyle
  /// Emphasis (`*x*`).
  public var emphasis: ANSIStyle
  /// Strong emphasis (`**x**`).
  public var strong: ANSIStyle
  /// Strikethrough (`~~x~~`).
  public var strikethrough: ANSIStyle
  /// Inline code spans.
  public var inlineCode: ANSIStyle
  /// The code of code blocks.
  public var codeBlock: ANSIStyle
  /// The language label above a code block.
  public var codeLabel: ANSIStyle
  /// The code block gutter and its continuation marker.
  public var codeGutter: ANSIStyle
  /// Link text.
  public var link: ANSIStyle
  /// A URL shown in parentheses after link text or image alt text.
  public var url: ANSIStyle
  /// Image alt text.
  public var image: ANSIStyle
  /// Block quote bars.
  public var quoteBar: ANSIStyle
  /// List bullets and numbers.
  public var listMarker: ANSIStyle
  /// A checked task box.
  public var taskChecked: ANSIStyle
  /// An unchecked task box.
  public var taskUnchecked: ANSIStyle
  /// Table borders.
  public var tableBorder: ANSIStyle
  /// Table header cells.
  public var tableHeader: ANSIStyle
  /// Thematic breaks.
  public var rule: ANSIStyle
  /// Footnote references (`[1]`) and the labels of the notes.
  public var footnote: ANSIStyle
  /// Text from raw HTML blocks.
  public var html: ANSIStyle

  /// Creates a theme from a style per element.
  public init(
    heading1: ANSIStyle, heading2: ANSIStyle, heading: ANSIStyle, emphasis: ANSIStyle, strong: ANSIStyle,
    strikethrough: ANSIStyle, inlineCode: ANSIStyle, codeBlock: ANSIStyle, codeLabel: ANSIStyle,
    codeGutter: ANSIStyle, link: ANSIStyle, url: ANSIStyle, image: ANSIStyle, quoteBar: ANSIStyle,
    listMarker: ANSIStyle, taskChecked: ANSIStyle, taskUnchecked: ANSIStyle, tableBorder: ANSIStyle,
    tableHeader: ANSIStyle, rule: ANSIStyle, footnote: ANSIStyle, html: ANSIStyle
  ) {
    self.heading1 = heading1
    self.heading2 = heading2
    self.heading = heading
    self.emphasis = emphasis
    self.strong = strong
    self.strikethrough = strikethrough
    self.inlineCode = inlineCode
    self.codeBlock = codeBlock
    self.codeLabel = codeLabel
    self.codeGutter = codeGutter
    self.link = link
    self.url = url
    self.image = image
    self.quoteBar = quoteBar
    self.listMarker = listMarker
    self.taskChecked = taskChecked
    self.taskUnchecked = taskUnchecked
    self.tableBorder = tableBorder
    self.tableHeader = tableHeader
    self.rule = rule
    self.footnote = footnote
    self.html = html
  }

  /// The default theme: bold magenta headings, green code,
  /// underlined links, dim chrome. Blue, cyan, yellow and white text are avoided: each is hard to
  /// read on a dark or a light background in common palettes.
  public static let `default` = ANSITheme(
    heading1: ANSIStyle(bold: true, foreground: .magenta),
    heading2: ANSIStyle(bold: true, foreground: .magenta),
    heading: ANSIStyle(bold: true),
    emphasis: ANSIStyle(italic: true),
    strong: ANSIStyle(bold: true),
    strikethrough: ANSIStyle(strikethrough: true),
    inlineCode: ANSIStyle(foreground: .green),
    codeBlock: ANSIStyle(foreground: .green),
    codeLabel: ANSIStyle(bold: true, dim: true),
    codeGutter: ANSIStyle(dim: true),
    link: ANSIStyle(underline: true),
    url: ANSIStyle(dim: true),
    image: ANSIStyle(italic: true),
    quoteBar: ANSIStyle(dim: true),
    listMarker: ANSIStyle(bold: true),
    taskChecked: ANSIStyle(foreground: .green),
    taskUnchecked: ANSIStyle(bold: true),
    tableBorder: ANSIStyle(dim: true),
    tableHeader: ANSIStyle(bold: true),
    rule: ANSIStyle(dim: true),
    footnote: ANSIStyle(foreground: .magenta),
    html: ANSIStyle(dim: true)
  )
}
