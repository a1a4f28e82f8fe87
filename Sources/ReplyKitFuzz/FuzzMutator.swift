/// Makes new inputs from the corpus: byte insertions, deletions, splices, dictionary tokens, bit
/// flips, generators of deep nesting and long runs (the shapes behind cmark-gfm's worst cases),
/// and lines of block starts whose ends a stream must guess (``blockLines(using:)``).
public struct FuzzMutator: Sendable {
  /// The seeds and tokens mutations draw from.
  public let corpus: FuzzCorpus
  /// Inputs are cut to this many bytes, to keep each check short.
  public var maxLength: Int

  /// Creates a mutator.
  public init(corpus: FuzzCorpus, maxLength: Int = 1 << 16) {
    self.corpus = corpus
    self.maxLength = maxLength
  }

  /// Bytes that mean something to markdown, for random insertions.
  static let punctuation: [UInt8] = Array("*_[]()<>!`~|\\&#:-\n >\"'\t\u{1B}".utf8)

  /// Patterns that nest or repeat: the generators pick from these.
  static let nestingUnits: [String] = [
    "> ", "- ", "* ", "1. ", "[^1]: ", "  - ", ">", "[", "![", "*", "_", "~~", "(", "**a ", "_a ",
  ]
  static let runUnits: [String] = [
    "*a ", "_a*_ ", "a_ ", "[a", "a]", "![[]()", "[ (](", "<?", "<!D ", "<![CDATA[", "<!--", "'", "'x ", "\"_x", "- ",
    "www._", "(www.a.b<", "http://a.b<", ")", "a@", "a|", "-|", "x|\n", "|-|\n|-|-|\n", "a\n", "`", "\\``", "[](", "<",
    "~~a~", "[x]: u\n", "[x]\n", "\n", ">\n", "x\n\n",
  ]

  /// What starts and ends the lines of ``blockLines(using:)``: definitions (nested after other
  /// text, indented under one another, labels repeated), table rows under a sentence, setext
  /// underlines, breaks, fences, HTML blocks, container markers. Where a block ends is what a
  /// stream must guess before cmark-gfm can tell (nested footnote definitions that cmark-gfm
  /// dropped streamed as indented code).
  static let lineIndents: [String] = ["", "", "", " ", "   ", "    ", "     ", "\t", "> ", "- ", "1. ", "  "]
  static let lineStarts: [String] = [
    "[^a]: ", "[^1]:", "[^A]: [^a]: ", "[^b]:  [^1]:", "[x]: ", "[x]:", "[X]: /u ", "\"t", "'t'", "(t",
    "| a | b |", "|---|---|", "| c |", "---", "===", "- ", "* ", "> ", "```", "~~~", "<div>", "<!-- ", "# ", "Text ",
    "x", "",
  ]
  static let lineTails: [String] = [
    "", "w", " y", " see [^a]", " [x]", " *a", " `c", " <b", "\\", " [^1]: z", " [x]: /v", " \"t\"", "|",
  ]

  /// One to six lines of ``lineIndents``, ``lineStarts`` and ``lineTails``, blank lines among them.
  func blockLines(using random: inout SplitMix64) -> [UInt8] {
    func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
    var lines = ""
    for _ in 0..<(1 + Int(random.next() % 6)) {
      lines += pick(Self.lineIndents) + pick(Self.lineStarts) + pick(Self.lineTails) + "\n"
      if random.next() % 4 == 0 { lines += "\n" }
    }
    return Array(lines.utf8)
  }

  /// One new input, made by one to four mutations of a random seed.
  public func mutate(using random: inout SplitMix64) -> [UInt8] {
    var bytes = corpus.seeds[Int(random.next() % UInt64(corpus.seeds.count))]
    let steps = 1 + Int(random.next() % 4)
    for _ in 0..<steps { mutateOnce(&bytes, using: &random) }
    if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
    return bytes
  }

  func mutateOnce(_ bytes: inout [UInt8], using random: inout SplitMix64) {
    func position() -> Int { Int(random.next() % UInt64(bytes.count + 1)) }
    switch random.next() % 10 {
    case 0:  // insert random bytes, biased to ASCII punctuation and control characters
      let count = 1 + Int(random.next() % 8)
      let at = position()
      let inserted = (0..<count).map { _ -> UInt8 in
        let pick = random.next()
        return pick % 3 == 0
          ? UInt8(truncatingIfNeeded: pick >> 8) : Self.punctuation[Int((pick >> 8) % UInt64(Self.punctuation.count))]
      }
      bytes.insert(contentsOf: inserted, at: at)
    case 1:  // delete a range
      guard !bytes.isEmpty else { return }
      let start = position() % bytes.count
      let length = 1 + Int(random.next() % UInt64(min(64, bytes.count - start)))
      bytes.removeSubrange(start..<(start + length))
    case 2:  // splice in a piece of another seed
      let other = corpus.seeds[Int(random.next() % UInt64(corpus.seeds.count))]
      guard !other.isEmpty else { return }
      let start = Int(random.next() % UInt64(other.count))
      let length = 1 + Int(random.next() % UInt64(min(512, other.count - start)))
      bytes.insert(contentsOf: other[start..<(start + length)], at: position())
    case 3, 4:  // dictionary token
      let token = corpus.tokens[Int(random.next() % UInt64(corpus.tokens.count))]
      bytes.insert(contentsOf: token, at: position())
    case 5:  // bit flip
      guard !bytes.isEmpty else { return }
      let at = position() % bytes.count
      bytes[at] ^= UInt8(1) << UInt8(random.next() % 8)
    case 6:  // deep nesting: a prefix repeated many times, then text
      let unit = Self.nestingUnits[Int(random.next() % UInt64(Self.nestingUnits.count))]
      let depth = 1 + Int(random.next() % 3000)
      bytes.insert(contentsOf: Array((String(repeating: unit, count: depth) + "a").utf8), at: position())
    case 7:  // long run of a pathological unit
      let unit = Self.runUnits[Int(random.next() % UInt64(Self.runUnits.count))]
      let count = 1 + Int(random.next() % 4000)
      bytes.insert(contentsOf: Array(String(repeating: unit, count: count).utf8), at: position())
    case 9:  // lines whose ends streaming must guess, inserted at a line start
      var at = position()
      while at > 0 && bytes[at - 1] != UInt8(ascii: "\n") { at -= 1 }
      bytes.insert(contentsOf: blockLines(using: &random), at: at)
    default:  // duplicate a range
      guard !bytes.isEmpty else { return }
      let start = position() % bytes.count
      let length = 1 + Int(random.next() % UInt64(min(256, bytes.count - start)))
      let piece = Array(bytes[start..<(start + length)])
      bytes.insert(contentsOf: piece, at: position())
    }
  }
}
