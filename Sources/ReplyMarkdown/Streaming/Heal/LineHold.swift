/// The incomplete last line of the open part, read once, and the ``HealRule``s that hold it back
/// whole because the next characters could still make it a different block.
///
/// - Complexity: O(n) in the line's length.
struct LineHold {
  /// The line without its leading spaces and tabs.
  let bytes: ArraySlice<UInt8>
  /// What follows the line's block quote and list markers (and the blanks after them).
  let content: ArraySlice<UInt8>
  /// Whether at least one block quote or list marker was read.
  let hasContainerMarker: Bool
  /// Whether the line ends inside a list marker (`-`, `12`, `12.` with nothing after).
  let endsInsideMarker: Bool

  /// The line holds in the order they are tried; the first that holds decides.
  static let rules: [HealRule] = [
    .tablePipesOnly, .breakOrSetextCandidate, .markerOnlyLine, .emptyHeading, .fenceOpener, .shortFenceRun,
    .breakAfterContainerMarker, .taskMarker, .definitionLabel,
  ]

  init(_ line: ArraySlice<UInt8>) {
    bytes = line.drop(while: ASCII.isBlank)
    var rest = bytes
    var marker = false
    var insideMarker = false
    markers: while true {
      rest = rest.drop(while: ASCII.isBlank)
      guard let first = rest.first else { break }
      if first == ASCII.greaterThan {
        rest = rest.dropFirst()
        marker = true
        continue
      }
      if first == ASCII.hyphen || first == ASCII.plus || first == ASCII.star {
        let after = rest.dropFirst()
        guard let next = after.first else {
          insideMarker = true
          break
        }
        if ASCII.isBlank(next) {
          rest = after
          marker = true
          continue
        }
      }
      let digits = rest.prefix(while: ASCII.isDigit)
      if !digits.isEmpty && digits.count <= 9 {
        let after = rest.dropFirst(digits.count)
        guard let delimiter = after.first else {
          insideMarker = true
          break
        }
        if delimiter == ASCII.period || delimiter == ASCII.closeParenthesis {
          let afterDelimiter = after.dropFirst()
          guard let next = afterDelimiter.first else {
            insideMarker = true
            break
          }
          if ASCII.isBlank(next) {
            rest = afterDelimiter
            marker = true
            continue
          }
        }
      }
      break markers
    }
    content = rest.drop(while: ASCII.isBlank)
    hasContainerMarker = marker
    endsInsideMarker = insideMarker
  }

  /// The first rule that holds the line, if any.
  var rule: HealRule? {
    guard !bytes.isEmpty else { return nil }
    return Self.rules.first(where: holds)
  }

  /// Whether the incomplete last line `line` is held back whole.
  static func holds(_ line: ArraySlice<UInt8>) -> Bool { LineHold(line).rule != nil }

  /// Whether `rule` holds this line (a line hold; other rules never do).
  func holds(_ rule: HealRule) -> Bool {
    switch rule {
    case .tablePipesOnly:
      return bytes.contains(ASCII.pipe) && bytes.allSatisfy { $0 == ASCII.pipe || ASCII.isBlank($0) }
    case .breakOrSetextCandidate:
      guard let first = bytes.first, Self.isBreakCharacter(first),
        bytes.allSatisfy({ $0 == first || ASCII.isBlank($0) })
      else { return false }
      // Three or more unspaced `-` or `=` are already a setext underline (or a break): shown.
      let trimmed = bytes.reversed().drop(while: ASCII.isBlank)
      let spaced = trimmed.contains(where: ASCII.isBlank)
      let settled = (first == ASCII.hyphen || first == ASCII.equals) && trimmed.count >= 3 && !spaced
      return !settled
    case .markerOnlyLine:
      return endsInsideMarker || (content.isEmpty && hasContainerMarker)
    case .emptyHeading:
      let hashes = content.prefix { $0 == ASCII.hash }
      return !hashes.isEmpty && hashes.count <= 6 && content.dropFirst(hashes.count).allSatisfy(ASCII.isBlank)
    case .fenceOpener:
      // A backtick in the info string makes the line a paragraph (an inline code span), not a fence.
      return FenceLine(content)?.opens ?? false
    case .shortFenceRun:
      guard let fence = FenceLine(content) else { return false }
      return fence.length < 3 && fence.restIsBlank
    case .breakAfterContainerMarker:
      guard hasContainerMarker, let first = content.first, Self.isBreakCharacter(first) else { return false }
      return content.allSatisfy { $0 == first || ASCII.isBlank($0) }
    case .taskMarker:
      guard hasContainerMarker, content.first == ASCII.openBracket else { return false }
      let body = content.dropFirst()
      // A whole checkbox whose text has not begun waits too, as a line of markers alone does: it
      // showed, then vanished while the text's first character was held (`- [ ] *`), then came
      // back (a review of frames).
      if body.count >= 2, let state = body.first,
        state == ASCII.space || state == ASCII.lowercaseX || state == ASCII.uppercaseX,
        body[body.startIndex + 1] == ASCII.closeBracket, body.dropFirst(2).allSatisfy(ASCII.isBlank)
      {
        return true
      }
      return body.count <= 2
        && body.allSatisfy {
          $0 == ASCII.space || $0 == ASCII.lowercaseX || $0 == ASCII.uppercaseX || $0 == ASCII.closeBracket
        }
    case .definitionLabel:
      guard content.first == ASCII.openBracket else { return false }
      // Held until the character after its `]` says it is not a definition.
      let body = content.dropFirst()
      guard let close = body.firstIndex(of: ASCII.closeBracket) else { return true }
      let after = body[(close + 1)...]
      return after.isEmpty || after.first == ASCII.colon
    default:
      return false
    }
  }

  /// The characters of thematic breaks and setext underlines.
  static func isBreakCharacter(_ byte: UInt8) -> Bool {
    byte == ASCII.hyphen || byte == ASCII.star || byte == ASCII.underscore || byte == ASCII.equals
  }
}
