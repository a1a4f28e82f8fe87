/// Writes seeded, realistic *mixed* chat replies: every block kind and nesting that chat models
/// write, in the untidy ways they write them.
///
/// A reply holds ATX and setext headings; paragraphs with emphasis, strikethrough, code spans,
/// links, autolinks and images; a sentence glued directly above every kind of block
/// (`Here is a comparison:` right above a table, `Steps:` above a list, `Example:` above a fence);
/// bullet, ordered and task lists with nested lists; fences inside list items and block quotes;
/// block quotes with nested lists, fences and quotes; tables, some of them long; HTML blocks;
/// thematic breaks; indented code; citations `[1]` and footnotes `[^n]` with their definitions
/// both before and after use (most of them at the very end, as models write them); link
/// reference definitions; and some blocks with no blank line between them. Some replies use CRLF
/// line endings (``usesCRLF``).
///
/// The first blocks of a reply go through every kind once (in a seeded order), so even a small
/// reply uses them all; after that kinds are drawn at random until the target size is reached.
///
/// Deterministic: the same seed and size give the same text on every platform.
public struct MixedReplyGenerator: Sendable {
  /// The kinds of block a reply is made of.
  public enum Block: String, CaseIterable, Sendable {
    case atxHeading, setextHeading, paragraph, bulletList, orderedList, taskList, nestedList
    case fence, longFence, fenceInList, blockQuote, fenceInQuote, table, longTable, longList
    case htmlBlock, thematicBreak, indentedCode, definitionsMidway, footnoteMidway
  }

  /// The seed.
  public let seed: UInt64
  /// Whether lines end in CRLF (by default, one reply in four, picked by the seed).
  public var usesCRLF: Bool

  /// Creates a generator for `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    var random = SplitMix64(seed: seed ^ 0x5EED_C0DE)
    usesCRLF = random.next() % 4 == 0
  }

  /// A reply of about `bytes` UTF-8 bytes (at least that many, plus the definitions at its end).
  ///
  /// - Complexity: O(`bytes`).
  public func reply(bytes target: Int) -> String {
    var writer = Writer(seed: seed)
    writer.write(target: target)
    let text = writer.out
    guard usesCRLF else { return text }
    var crlf = ""
    crlf.reserveCapacity(text.utf8.count + text.utf8.count / 20)
    for character in text.unicodeScalars {
      if character == "\n" { crlf.unicodeScalars.append("\r") }
      crlf.unicodeScalars.append(character)
    }
    return crlf
  }
}

extension MixedReplyGenerator {
  /// The state of one reply being written.
  struct Writer {
    var random: SplitMix64
    var out = ""
    /// Citation numbers used so far, and those already defined.
    var citations: [Int] = []
    var definedCitations: Set<Int> = []
    /// Footnote labels used so far, and those already defined.
    var footnotes: [String] = []
    var definedFootnotes: Set<String> = []
    /// Reference labels (`[the docs][docs]`) used so far, and those already defined.
    var references: [String] = []
    var definedReferences: Set<String> = []
    var counter = 0
    /// Whether a footnote definition is being written (its text references no footnote).
    var inFootnote = false

    /// The reply's target size: long blocks stay within a fraction of it.
    var target = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A length for a long block: drawn from `range`, but in a small reply kept to about a
    /// sixth of it (`bytesEach` is the size of one line, item or row).
    mutating func long(_ range: ClosedRange<Int>, bytesEach: Int) -> Int {
      let cap = max(8, target / 6 / bytesEach)
      return min(int(range), max(cap, 8))
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    var size: Int { out.utf8.count }

    mutating func write(target: Int) {
      self.target = target
      var order = Block.allCases
      // A seeded shuffle (Fisher–Yates), so the first pass uses every kind once.
      for index in stride(from: order.count - 1, to: 0, by: -1) {
        order.swapAt(index, int(0...index))
      }
      paragraph()
      var first = true
      while size < target || !order.isEmpty {
        let block = order.isEmpty ? pick(Self.weighted) : order.removeFirst()
        separator(before: block, first: first)
        first = false
        emit(block)
      }
      closingDefinitions()
    }

    /// Kinds drawn after the first pass, weighted as they show up in replies.
    static let weighted: [Block] =
      Array(repeating: .paragraph, count: 6) + Array(repeating: .bulletList, count: 2)
      + Array(repeating: .fence, count: 2) + Array(repeating: .atxHeading, count: 2) + Block.allCases

    /// Writes what comes between two blocks: usually a blank line; sometimes only a line break;
    /// sometimes a sentence glued right above the block.
    mutating func separator(before block: Block, first: Bool) {
      let roll = int(0...99)
      if roll < 30 && block != .definitionsMidway && block != .footnoteMidway {
        // The sentence models write right above a block, without a blank line.
        out += "\n"
        out += pick(Self.lead(for: block)) + "\n"
      } else if roll < 40 && !first {
        // No blank line between the blocks.
      } else {
        out += "\n"
      }
    }

    static func lead(for block: Block) -> [String] {
      switch block {
      case .table, .longTable: ["Here is a comparison:", "The options side by side:", "In a table:"]
      case .orderedList, .fenceInList: ["Steps:", "Follow these steps:", "To set it up:"]
      case .bulletList, .longList, .nestedList: ["Key points:", "In short:", "A few things to note:"]
      case .taskList: ["Checklist:", "Before you ship:"]
      case .fence, .longFence: ["Example:", "For instance:", "Run this:"]
      case .blockQuote, .fenceInQuote: ["As the documentation puts it:", "From the README:"]
      case .htmlBlock: ["Expand for details:", "Raw markup:"]
      case .atxHeading, .setextHeading: ["That covers the basics.", "Next up."]
      case .thematicBreak: ["That's the first part."]
      case .indentedCode: ["The output was:", "Old-style code:"]
      case .paragraph, .definitionsMidway, .footnoteMidway: ["Also:", "Note that"]
      }
    }

    mutating func emit(_ block: Block) {
      switch block {
      case .atxHeading: out += String(repeating: "#", count: int(1...4)) + " " + title() + "\n"
      case .setextHeading: setextHeading()
      case .paragraph: paragraph()
      case .bulletList: list(items: int(2...6), marker: pick(["-", "*", "+"]), depth: 0)
      case .orderedList: orderedList(items: int(2...6))
      case .taskList: taskList()
      case .nestedList: list(items: int(2...4), marker: "-", depth: 2)
      case .longList: list(items: long(30...120, bytesEach: 100), marker: "-", depth: 0)
      case .fence: fence(indent: "", lines: int(2...12))
      case .longFence: fence(indent: "", lines: long(60...250, bytesEach: 35))
      case .fenceInList: fenceInList()
      case .blockQuote: blockQuote()
      case .fenceInQuote: fenceInQuote()
      case .table: table(rows: int(2...6))
      case .longTable: table(rows: long(40...200, bytesEach: 80))
      case .htmlBlock: htmlBlock()
      case .thematicBreak: out += pick(["***", "* * *", "___", "- - -"]) + "\n"
      case .indentedCode: indentedCode()
      case .definitionsMidway: definitionsMidway()
      case .footnoteMidway: footnoteMidway()
      }
    }

    // MARK: Inline content

    static let words = [
      "the", "value", "returns", "array", "sorted", "copy", "in", "place", "server", "request", "cache", "is",
      "faster", "when", "you", "call", "it", "once", "per", "item", "and", "then", "a", "closure", "that", "runs",
      "on", "main", "thread", "config", "file", "default", "option", "error", "handler", "async", "task", "query",
      "index", "row", "column", "join", "network", "timeout", "retry", "version", "build", "test", "deploy",
      "東京", "データ", "naïve", "café", "größe", "📦", "✅",
    ]

    mutating func words(_ count: Int) -> String {
      var parts: [String] = []
      for _ in 0..<count { parts.append(pick(Self.words)) }
      return parts.joined(separator: " ")
    }

    mutating func title() -> String {
      let text = words(int(2...5))
      return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A span of inline markup, or a plain word.
    mutating func inline() -> String {
      counter += 1
      switch int(0...22) {
      case 0: return "**" + words(int(1...3)) + "**"
      case 1: return "*" + words(int(1...2)) + "*"
      case 2: return "_" + words(1) + "_"
      case 3: return "`" + pick(["sorted()", "x += 1", "let a = [1, 2]", "git status", "*ptr", "a_b_c"]) + "`"
      case 4: return "[" + words(int(1...3)) + "](https://example.com/docs/\(counter))"
      case 5: return "<https://example.org/page/\(counter)>"
      case 6: return "https://www.example.net/path?q=\(counter)"
      case 7: return "~~" + words(int(1...2)) + "~~"
      case 8: return "***" + words(1) + "***"
      case 9: return citation()
      case 10: return inFootnote ? words(2) : footnoteReference()
      case 11: return referenceLink()
      case 12: return "![" + words(1) + "](https://example.com/img/\(counter).png)"
      case 13: return "**bold with `code` inside**"
      case 14: return "[`api`](https://example.com/api \"The API\")"
      default: return words(int(1...3))
      }
    }

    mutating func sentence() -> String {
      var parts: [String] = []
      for _ in 0..<int(3...9) { parts.append(inline()) }
      let text = parts.joined(separator: " ")
      return text.prefix(1).uppercased() + text.dropFirst() + pick([".", ".", ".", "!", "?", ":"])
    }

    /// `[1]`: a citation, defined before use sometimes, at the very end mostly.
    mutating func citation() -> String {
      let number = chance(50) && !citations.isEmpty ? pick(citations) : citations.count + 1
      if !citations.contains(number) { citations.append(number) }
      return "[\(number)]"
    }

    mutating func footnoteReference() -> String {
      let label = chance(40) && !footnotes.isEmpty ? pick(footnotes) : "\(footnotes.count + 1)"
      if !footnotes.contains(label) { footnotes.append(label) }
      return "[^\(label)]"
    }

    mutating func referenceLink() -> String {
      let label =
        chance(50) && !references.isEmpty
        ? pick(references) : pick(["docs", "spec", "rfc", "guide"]) + "-\(references.count)"
      if !references.contains(label) { references.append(label) }
      return chance(50) ? "[" + words(int(1...2)) + "][\(label)]" : "[\(label)]"
    }

    // MARK: Blocks

    mutating func paragraph() {
      var lines: [String] = []
      for _ in 0..<int(1...4) { lines.append(sentence()) }
      // Some paragraphs wrap their lines, some end a line with a hard break.
      out += lines.joined(separator: pick(["\n", " ", "  \n", "\\\n"])) + "\n"
    }

    mutating func setextHeading() {
      let text = title()
      out += text + "\n" + String(repeating: pick(["=", "-"]), count: int(3...text.utf8.count)) + "\n"
    }

    mutating func list(items: Int, marker: String, depth: Int) {
      listItems(items: items, marker: marker, indent: "", depth: depth)
    }

    mutating func listItems(items: Int, marker: String, indent: String, depth: Int) {
      let loose = chance(25)
      for index in 0..<items {
        if loose && index > 0 { out += "\n" }
        out += indent + marker + " " + sentence() + "\n"
        if depth > 0 && chance(50) {
          listItems(
            items: int(1...3), marker: pick(["-", "*", "1."]),
            indent: indent + String(repeating: " ", count: marker.count + 1),
            depth: depth - 1)
        }
      }
    }

    mutating func orderedList(items: Int) {
      let delimiter = pick([".", ".", ")"])
      let start = chance(80) ? 1 : int(2...9)
      for index in 0..<items {
        out += "\(start + index)\(delimiter) " + sentence() + "\n"
        if chance(25) { out += "   - " + sentence() + "\n" }
      }
    }

    mutating func taskList() {
      for _ in 0..<int(2...6) {
        out += "- [" + pick([" ", "x", "X"]) + "] " + words(int(2...6)) + "\n"
      }
      if chance(50) { out += "  - [ ] nested " + words(2) + "\n" }
    }

    static let code = [
      "let sorted = values.sorted { $0.count > $1.count }", "for item in items where item.isValid {",
      "    print(\"\\(item.name): \\(item.value)\")", "}", "func load(_ url: URL) async throws -> Data {",
      "if (x < 10 && y > 2) { return *ptr; }", "SELECT id, name FROM users WHERE active = 1;",
      "    # a comment with `backticks` and **stars**", "", "const total = rows.reduce((a, b) => a + b, 0);",
      "| not | a | table |", "> not a quote", "- not a list", "<div>not html</div>",
    ]

    mutating func fence(indent: String, lines: Int) {
      let marker = chance(85) ? "```" : pick(["~~~", "````"])
      out += indent + marker + pick(["swift", "python", "sh", "json", "", "ts", "sql"]) + "\n"
      for _ in 0..<lines {
        let line = pick(Self.code)
        out += (line.isEmpty ? "" : indent + line) + "\n"
      }
      out += indent + marker + "\n"
    }

    mutating func fenceInList() {
      let ordered = chance(60)
      for index in 1...int(2...4) {
        let marker = ordered ? "\(index)." : "-"
        out += marker + " " + sentence() + "\n"
        let indent = String(repeating: " ", count: marker.count + 1)
        if chance(60) { out += "\n" }
        fence(indent: indent, lines: int(1...6))
        if chance(50) { out += "\n" + indent + sentence() + "\n" }
        if chance(50) { out += "\n" }
      }
    }

    mutating func blockQuote() {
      out += "> " + sentence() + "\n"
      if chance(50) { out += sentence() + "\n" }  // a lazy continuation line
      out += ">\n"
      for _ in 0..<int(1...3) { out += "> - " + sentence() + "\n" }
      if chance(60) {
        out += ">\n> > " + sentence() + "\n"
      }
      if chance(40) { out += ">\n> 1. " + words(4) + "\n>    - " + words(3) + "\n" }
    }

    mutating func fenceInQuote() {
      out += "> " + sentence() + "\n"
      if chance(50) { out += ">\n" }
      out += "> ```" + pick(["sh", "swift", ""]) + "\n"
      for _ in 0..<int(1...5) { out += "> " + pick(Self.code) + "\n" }
      out += "> ```\n"
      if chance(50) { out += "> " + sentence() + "\n" }
    }

    mutating func table(rows: Int) {
      let columns = int(2...5)
      var header: [String] = []
      var delimiter: [String] = []
      for _ in 0..<columns {
        header.append(title())
        delimiter.append(pick(["---", ":---", "---:", ":-:", "-----"]))
      }
      out += "| " + header.joined(separator: " | ") + " |\n"
      out += "|" + delimiter.joined(separator: "|") + "|\n"
      for _ in 0..<rows {
        var cells: [String] = []
        for _ in 0..<columns {
          cells.append(chance(30) ? inline() : words(int(1...3)))
        }
        // Some rows leave out the outer pipes, as models sometimes do.
        out += chance(90) ? "| " + cells.joined(separator: " | ") + " |\n" : cells.joined(separator: " | ") + "\n"
      }
    }

    mutating func htmlBlock() {
      switch int(0...3) {
      case 0:
        out += "<details>\n<summary>" + title() + "</summary>\n\n" + sentence() + "\n\n</details>\n"
      case 1: out += "<!-- " + words(4) + " -->\n"
      case 2: out += "<div align=\"center\">\n  <img src=\"https://example.com/logo.png\" width=\"80\">\n</div>\n"
      default: out += "<table>\n  <tr><td>" + words(2) + "</td></tr>\n</table>\n"
      }
    }

    mutating func indentedCode() {
      // Indented code cannot interrupt a paragraph: a blank line first.
      out += "\n"
      for _ in 0..<int(1...5) { out += "    " + pick(Self.code.filter { !$0.isEmpty }) + "\n" }
    }

    /// Definitions in the middle of a reply: some before their first use, some after.
    mutating func definitionsMidway() {
      let label = pick(["docs", "spec", "rfc", "guide"]) + "-\(references.count)"
      if !references.contains(label) { references.append(label) }
      definedReferences.insert(label)
      out += "[\(label)]: https://example.com/\(label)" + (chance(50) ? " \"" + title() + "\"" : "") + "\n"
      if let number = citations.last, !definedCitations.contains(number) {
        definedCitations.insert(number)
        out += "[\(number)]: https://example.com/source/\(number)\n"
      }
      // A citation that is defined here and used later.
      let next = citations.count + 1
      citations.append(next)
      definedCitations.insert(next)
      out += "[\(next)]: <https://example.com/source/\(next)> 'Source \(next)'\n"
    }

    mutating func footnoteMidway() {
      let label = "\(footnotes.count + 1)"
      footnotes.append(label)
      definedFootnotes.insert(label)
      inFootnote = true
      out += "[^\(label)]: " + sentence() + "\n"
      if chance(40) { out += "\n    " + sentence() + "\n" }
      inFootnote = false
    }

    /// The definitions models put at the very end: every citation, footnote and reference used
    /// and not yet defined.
    mutating func closingDefinitions() {
      out += "\n"
      inFootnote = true
      for label in footnotes where !definedFootnotes.contains(label) {
        out += "[^\(label)]: " + sentence() + "\n"
        if chance(20) { out += "    " + words(5) + "\n" }
      }
      inFootnote = false
      if chance(50) { out += "\n" }
      for number in citations where !definedCitations.contains(number) {
        out += "[\(number)]: https://example.com/source/\(number)" + (chance(30) ? " \"Source \(number)\"" : "") + "\n"
      }
      for label in references where !definedReferences.contains(label) {
        out += "[\(label)]: https://example.com/ref/\(label)\n"
      }
    }
  }
}
