/// Inline text made terminal-safe, with the style and hyperlink of each run of bytes: what a
/// paragraph, heading or table cell holds before it is wrapped.
///
/// Bytes hold no control characters: they are replaced on the way in (see ``TerminalSafeText``),
/// tabs become spaces, and the only newline bytes are the hard breaks.
struct StyledText {
  /// A run of bytes ending at `end` (starting where the previous run ends).
  struct Run {
    var end: Int
    var style: ANSIStyle
    /// An index into ``StyledText/links``, or -1.
    var link: Int
  }

  var bytes: [UInt8] = []
  var runs: [Run] = []
  /// Hyperlink targets, already made safe for an OSC 8 sequence.
  var links: [[UInt8]] = []

  var isEmpty: Bool { bytes.isEmpty }

  init() {}

  /// A copy of `other` in buffers of its exact size (`other`'s may be a reused, larger scratch).
  init(copying other: StyledText) {
    // From buffer pointers: `Array(other.bytes)` would share `other`'s storage.
    bytes = other.bytes.withUnsafeBufferPointer { Array($0) }
    runs = other.runs.withUnsafeBufferPointer { Array($0) }
    links = other.links.isEmpty ? [] : other.links.withUnsafeBufferPointer { Array($0) }
  }

  /// Empties the text, keeping its buffers.
  mutating func removeAll() {
    // An empty buffer is left alone: removing from it would still check that it is unique.
    if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
    if !runs.isEmpty { runs.removeAll(keepingCapacity: true) }
    if !links.isEmpty { links.removeAll(keepingCapacity: true) }
  }

  /// Appends text in a style, replacing control characters; tabs and newlines become spaces.
  mutating func append(_ string: String, style: ANSIStyle, link: Int = -1) {
    var string = string
    let before = bytes.count
    string.withUTF8 { source in
      if source.count == 0 { return }
      if !TerminalSafeText.anyNeedsCheck(source) {
        bytes.append(contentsOf: source)
      } else {
        TerminalSafeText.append(source, 0..<source.count, to: &bytes, tab: Self.space, newline: Self.space)
      }
    }
    if bytes.count > before { extendRun(style: style, link: link) }
  }

  /// Appends a hard line break.
  mutating func appendLineBreak() {
    bytes.append(0x0A)
    extendRun(style: .plain, link: -1)
  }

  /// Appends a soft break: a space, except between two East Asian wide characters (checked
  /// against the next text when it comes, see ``resolveSoftBreak(before:)``).
  mutating func appendSpace(style: ANSIStyle) {
    bytes.append(0x20)
    extendRun(style: style, link: -1)
  }

  /// Whether the last character is East Asian wide.
  var endsWithWideCharacter: Bool {
    guard !bytes.isEmpty else { return false }
    var index = bytes.count - 1
    while index > 0 && bytes[index] & 0xC0 == 0x80 { index -= 1 }
    let scalar = bytes.withUnsafeBufferPointer { GraphemeScanner.decode($0, at: index).value }
    return DisplayWidth.scalarWidth(scalar) == 2
  }

  /// Registers a hyperlink target and returns its index; the URL is percent-encoded outside
  /// printable ASCII, so it cannot end the OSC 8 sequence early.
  mutating func addLink(_ destination: String) -> Int {
    var safe: [UInt8] = []
    for byte in destination.utf8 {
      if byte > 0x20 && byte < 0x7F {
        safe.append(byte)
      } else {
        safe.append(UInt8(ascii: "%"))
        safe.append(StyledText.hexDigits[Int(byte >> 4)])
        safe.append(StyledText.hexDigits[Int(byte & 0xF)])
      }
    }
    links.append(safe)
    return links.count - 1
  }

  private mutating func extendRun(style: ANSIStyle, link: Int) {
    if let last = runs.last, last.style == style, last.link == link {
      runs[runs.count - 1].end = bytes.count
    } else {
      runs.append(Run(end: bytes.count, style: style, link: link))
    }
  }

  static let space: [UInt8] = [0x20]
  static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

extension StyledText {
  /// Appends bytes already made safe (from another ``StyledText``).
  mutating func appendRaw(_ safe: ArraySlice<UInt8>, style: ANSIStyle, link: Int) {
    guard !safe.isEmpty else { return }
    bytes.append(contentsOf: safe)
    if let last = runs.last, last.style == style, last.link == link {
      runs[runs.count - 1].end = bytes.count
    } else {
      runs.append(Run(end: bytes.count, style: style, link: link))
    }
  }

  /// Registers a hyperlink target already made safe; returns its index.
  mutating func addLinkTarget(_ safe: [UInt8]) -> Int {
    links.append(safe)
    return links.count - 1
  }
}
