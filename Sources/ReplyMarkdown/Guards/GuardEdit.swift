/// One insertion the guard makes into the input, before the byte at `offset`.
struct GuardEdit {
  /// What is inserted.
  enum Insertion: UInt8 {
    /// A backslash: the next punctuation character becomes literal text.
    case backslash
    /// A line break: ends a paragraph or a table.
    case newline
    /// U+2060 WORD JOINER: invisible, but ends the run of letters an e-mail autolink scans.
    case wordJoiner

    var bytes: [UInt8] {
      switch self {
      case .backslash: return [ASCII.backslash]
      case .newline: return [ASCII.newline]
      case .wordJoiner: return [0xE2, 0x81, 0xA0]
      }
    }
  }

  let offset: Int
  let insertion: Insertion
}
