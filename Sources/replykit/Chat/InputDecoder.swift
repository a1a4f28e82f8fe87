/// Turns the bytes a terminal sends in raw mode into ``KeyEvent``s.
///
/// Understands UTF-8 text, CSI and SS3 keys (arrows, Home/End in their xterm and VT forms,
/// Page Up/Down, Delete), SGR mouse reports (mode 1006; only the wheel is used), bracketed paste
/// (mode 2004) and Alt-Enter. An incomplete sequence at the end of a read is kept for the next
/// read; so is a lone ESC, which may be the start of one split across reads (a slow link): it is
/// the Escape key once ``escapeWaitSeconds`` pass with nothing after it (``endLoneEscape()``). Unknown sequences are dropped whole, so no
/// byte of them reaches the composer; so is an answer from the terminal (`ESC ] 11 ; …`, say,
/// when the start-up background query's answer comes late).
///
/// A bracketed paste is one event however many reads it takes: ``KeyEvent/paste(_:)``, or
/// ``KeyEvent/pasteTooLarge(bytes:)`` when it is longer than ``maximumPaste`` bytes; no byte
/// between its start and end markers is ever read as a key. A start marker whose end does not
/// come holds what follows as paste until ``endUnfinishedPaste()`` (the chat calls it after
/// ``unfinishedPasteSeconds`` without input).
/// - Complexity: O(n) in the bytes fed.
struct InputDecoder {
  private var pending: [UInt8] = []
  /// The paste being received, if a start marker came and its end has not.
  private var paste: BracketedPaste?
  /// The longest sequence kept while waiting for its end (protects memory).
  static let maximumPending = 1 << 22
  /// The longest paste taken, in bytes (4 MiB); a longer one is refused whole.
  static let maximumPaste = 1 << 22
  /// The longest terminal answer (`ESC ] …`) waited for before the bytes after it are keys again.
  static let maximumAnswer = 256
  /// How long a paste whose end marker has not come waits for more input before it ends.
  static let unfinishedPasteSeconds = 1.0

  /// How long a lone ESC at the end of a read waits for the rest of a sequence before it is the
  /// Escape key (50 ms, as a person pressing Esc does not notice).
  static let escapeWaitSeconds = 0.05

  /// Whether a paste has started and not ended: the bytes fed next are paste, whatever they are.
  var isInsidePaste: Bool { paste != nil }

  /// Whether the last read ended with a lone ESC, kept in case the rest of a sequence follows.
  var holdsLoneEscape: Bool { paste == nil && pending == [0x1B] }

  /// The Escape key for a lone ESC that nothing followed (see ``escapeWaitSeconds``); nothing
  /// when no lone ESC is held.
  mutating func endLoneEscape() -> [KeyEvent] {
    guard holdsLoneEscape else { return [] }
    pending = []
    return [.escape]
  }

  /// Decodes `bytes` (appended to what an earlier call left incomplete).
  mutating func decode(_ bytes: [UInt8]) -> [KeyEvent] {
    var events: [KeyEvent] = []
    var index = 0
    let input = pending + bytes
    pending = []
    while index < input.count {
      if paste != nil {
        guard let end = paste?.consume(input, from: index) else { return events }
        if let event = paste?.event { events.append(event) }
        paste = nil
        index = end
        continue
      }
      let byte = input[index]
      switch byte {
      case 0x1B:
        if input[index...].starts(with: BracketedPaste.startMarker) {
          paste = BracketedPaste(limit: Self.maximumPaste)
          index += BracketedPaste.startMarker.count
          continue
        }
        guard let (event, length) = escapeSequence(input, at: index) else {
          if input.count - index > Self.maximumPending {
            index = input.count
            continue
          }
          pending = Array(input[index...])
          return events
        }
        if let event { events.append(event) }
        index += length
      case 0x0D:
        events.append(.enter)
        index += 1
      case 0x0A:
        events.append(.newline)
        index += 1
      case 0x7F, 0x08:
        events.append(.backspace)
        index += 1
      case 0x09:
        events.append(.text("    "))
        index += 1
      case 0x00..<0x20:
        events.append(.control(byte))
        index += 1
      default:
        var end = index
        while end < input.count, input[end] >= 0x20, input[end] != 0x7F { end += 1 }
        // Keep an incomplete UTF-8 sequence at the end for the next read.
        var complete = end
        if end == input.count {
          var back = end - 1
          while back > index, input[back] & 0xC0 == 0x80, end - back < 4 { back -= 1 }
          let lead = input[back]
          let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
          if end - back < expected { complete = back }
        }
        if complete > index {
          events.append(.text(String(decoding: input[index..<complete], as: UTF8.self)))
        }
        if complete < end {
          pending = Array(input[complete...])
          return events
        }
        index = end
      }
    }
    return events
  }

  /// Ends a paste whose end marker has not come: what came of it as one paste event (or
  /// ``KeyEvent/pasteTooLarge(bytes:)``); nothing when no paste is open. Bytes fed afterwards are
  /// keys again.
  mutating func endUnfinishedPaste() -> [KeyEvent] {
    guard let paste else { return [] }
    self.paste = nil
    return [paste.event]
  }

  /// The event and length of the sequence starting with ESC at `start`, or `nil` if incomplete.
  private func escapeSequence(_ input: [UInt8], at start: Int) -> (KeyEvent?, Int)? {
    let next = start + 1
    // A lone ESC may be the start of a sequence whose rest comes with the next read.
    guard next < input.count else { return nil }
    switch input[next] {
    case UInt8(ascii: "["):
      return csi(input, at: start)
    case UInt8(ascii: "]"):
      return operatingSystemCommand(input, at: start)
    case UInt8(ascii: "O"):
      guard next + 1 < input.count else { return nil }
      let keys: [UInt8: KeyEvent] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
      ]
      return (keys[input[next + 1]], 3)
    case 0x0D, 0x0A:
      return (.newline, 2)
    case 0x1B:
      return (.escape, 1)
    default:
      // Alt with a key (Alt-b, Alt-Backspace …): one key the chat does not use. It is not
      // Escape, which would stop a streaming reply.
      let key = input[next]
      if key < 0x80 { return (nil, 2) }
      return (.escape, 1)
    }
  }

  /// An answer the terminal sends (`ESC ] digits ; text`, ended by BEL or `ESC \`), such as a
  /// late answer to the start-up background query: dropped whole, so none of it is typed. Only
  /// `ESC ]` with digits and `;` is one (else it is Alt-], dropped alone); one without its end by
  /// ``maximumAnswer`` bytes, or broken by a control byte (a key: Enter, say), is dropped up to
  /// there and the rest read as keys, so it never holds keys back for long.
  private func operatingSystemCommand(_ input: [UInt8], at start: Int) -> (KeyEvent?, Int)? {
    var index = start + 2
    while index < input.count, index - start < Self.maximumAnswer, (0x30...0x39).contains(input[index]) { index += 1 }
    guard index < input.count else { return nil }
    guard index > start + 2, input[index] == UInt8(ascii: ";") else { return (nil, 2) }
    index += 1
    while index < input.count, index - start < Self.maximumAnswer {
      switch input[index] {
      case 0x07:
        return (nil, index + 1 - start)
      case 0x1B:
        guard index + 1 < input.count else { return nil }
        return (nil, index + (input[index + 1] == UInt8(ascii: "\\") ? 2 : 0) - start)
      case 0x00..<0x20:
        return (nil, index - start)
      default:
        index += 1
      }
    }
    return index - start < Self.maximumAnswer ? nil : (nil, index - start)
  }

  /// Parses `ESC [ params final` (a paste start is taken before this).
  private func csi(_ input: [UInt8], at start: Int) -> (KeyEvent?, Int)? {
    var index = start + 2
    while index < input.count, (0x20...0x3F).contains(input[index]) { index += 1 }
    guard index < input.count else { return nil }
    let final = input[index]
    let length = index - start + 1
    let parameters = String(decoding: input[(start + 2)..<index], as: UTF8.self)
    if parameters.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
      let fields = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
      guard let button = fields.first, button & 64 != 0, final == UInt8(ascii: "M") else { return (nil, length) }
      return (button & 1 == 0 ? .wheelUp : .wheelDown, length)
    }
    let fields = parameters.split(separator: ";")
    let number = fields.first.flatMap { Int($0) }
    // xterm's modifier parameter: 3 is Alt.
    if fields.count == 2, fields[1] == "3" {
      if final == UInt8(ascii: "D") { return (.altLeft, length) }
      if final == UInt8(ascii: "C") { return (.altRight, length) }
    }
    switch final {
    case UInt8(ascii: "A"): return (.up, length)
    case UInt8(ascii: "B"): return (.down, length)
    case UInt8(ascii: "C"): return (.right, length)
    case UInt8(ascii: "D"): return (.left, length)
    case UInt8(ascii: "H"): return (.home, length)
    case UInt8(ascii: "F"): return (.end, length)
    case UInt8(ascii: "~"):
      switch number {
      case 1, 7: return (.home, length)
      case 4, 8: return (.end, length)
      case 3: return (.delete, length)
      case 5: return (.pageUp, length)
      case 6: return (.pageDown, length)
      default: return (nil, length)
      }
    default:
      return (nil, length)
    }
  }
}
