/// Everything a stream has received, decoded: the UTF-8 bytes of complete characters, and where
/// its last complete line ends.
///
/// A character split across chunks waits in the decoder until it completes; at the end it
/// becomes U+FFFD, as one-shot decoding would make it. A byte order mark that starts the reply is
/// dropped, as cmark-gfm drops it before it reads the first line; one anywhere else is text.
struct ReceivedText: Sendable {
  private var decoder = UTF8StreamDecoder()
  /// The decoded bytes so far.
  private(set) var bytes: [UInt8] = []
  /// Bytes received, an incomplete character included.
  private(set) var receivedCount = 0
  /// The end of the last complete line of `bytes` (0: none), kept as bytes arrive so that finding
  /// it costs the new bytes, not the last line: a line of 100 KB would cost its length per update.
  private var lastCompleteEnd = 0
  /// Where the last line starts: just past the last `\n` or `\r` (0: none), kept as bytes arrive
  /// for the same reason.
  private var lastLineOffset = 0
  /// Whether the first character has arrived (and a byte order mark in its place was dropped).
  private var started = false
  /// Whether a byte order mark started the reply (and was dropped).
  private(set) var droppedByteOrderMark = false

  var count: Int { bytes.count }

  /// Appends a chunk of text; returns whether any character was added.
  mutating func append(_ chunk: String) -> Bool {
    receivedCount += chunk.utf8.count
    // Bytes of a character still waiting can no longer complete: text starts with a whole one.
    let flushed = decoder.pending.isEmpty ? false : appendDecoded(decoder.flush().utf8)
    return appendDecoded(chunk.utf8) || flushed
  }

  /// Appends a chunk of UTF-8 bytes; returns whether any character was completed.
  mutating func append<Bytes: Collection<UInt8>>(bytes chunk: Bytes) -> Bool {
    receivedCount += chunk.count
    // ASCII with nothing pending is already whole characters: no decoding, no copies.
    // (The chunk's own `isEmpty` is a call through its protocol: the buffer answers.)
    if decoder.pending.isEmpty,
      let ascii = chunk.withContiguousStorageIfAvailable({ buffer -> Bool? in
        guard !buffer.contains(where: { $0 >= 0x80 }) else { return nil }
        let before = bytes.count
        bytes.append(contentsOf: buffer)
        noteLines(from: before)
        started = started || !buffer.isEmpty
        return !buffer.isEmpty
      }), let added = ascii
    {
      return added
    }
    return appendDecoded(decoder.decode(chunk).utf8)
  }

  /// Appends complete characters, without a byte order mark that starts the reply; returns
  /// whether any character was added.
  private mutating func appendDecoded(_ utf8: String.UTF8View) -> Bool {
    guard !utf8.isEmpty else { return false }
    var characters = utf8[...]
    if !started {
      started = true
      if characters.starts(with: InputGuard.byteOrderMark) {
        characters = characters.dropFirst(InputGuard.byteOrderMark.count)
        droppedByteOrderMark = true
      }
    }
    let before = bytes.count
    bytes.append(contentsOf: characters)
    noteLines(from: before)
    return bytes.count > before
  }

  /// Ends the input: an incomplete character becomes U+FFFD.
  mutating func flush() {
    _ = appendDecoded(decoder.flush().utf8)
  }

  /// Moves ``lastCompleteEnd`` past the terminators among the bytes from `start` on (and a `\r`
  /// just before them, which the first of them completes).
  private mutating func noteLines(from start: Int) {
    // One pass back from the end: the last terminator among the new bytes starts the last line;
    // the last one that completes a line (not a final `\r`, which a `\n` may follow; a `\r`
    // just before the new bytes now complete) ends the complete lines. As
    // `SourceLines.completeEnd(bytes, from: max(0, start - 1), to: count)` finds it.
    let (lineOffset, completeEnd) = bytes.withUnsafeBufferPointer { buffer -> (Int?, Int?) in
      let count = buffer.count
      var lineOffset: Int?
      var index = count
      while index > max(0, start - 1) {
        let byte = buffer[index - 1]
        if byte == ASCII.newline || byte == ASCII.carriageReturn {
          if lineOffset == nil && index > start { lineOffset = index }
          if byte == ASCII.newline || index < count { return (lineOffset, index) }
        }
        index -= 1
      }
      return (lineOffset, nil)
    }
    if let lineOffset { lastLineOffset = lineOffset }
    if let completeEnd { lastCompleteEnd = completeEnd }
  }

  /// The end of the last complete line at or after `start`: just past its terminator, or `start`.
  /// A final `\r` is not complete (a `\n` may follow), unless the input has ended.
  ///
  /// - Complexity: O(1).
  func completeEnd(from start: Int) -> Int {
    max(start, lastCompleteEnd)
  }

  /// Where the line holding the end of the text starts, or `floor` when that is later: what
  /// `SourceLines.lineStart(bytes, before: count, floor: floor)` finds, without reading the line.
  ///
  /// - Complexity: O(1).
  func lastLineStart(floor: Int) -> Int {
    max(floor, lastLineOffset)
  }

  /// How many line terminators `bytes[range]` holds (`\r\n` counts once).
  ///
  /// - Complexity: O(n) in the range, eight bytes at a time (a long fence that closes counts its
  ///   lines), and byte by byte only where carriage returns are.
  func lineBreaks(in range: Range<Int>) -> Int {
    guard !range.isEmpty else { return 0 }
    return bytes.withUnsafeBufferPointer { buffer in
      let newlines = buffer.count(of: ASCII.newline, from: range.lowerBound, to: range.upperBound)
      let returns = buffer.count(of: ASCII.carriageReturn, from: range.lowerBound, to: range.upperBound)
      guard returns > 0 else { return newlines }
      // A carriage return before a line feed in the range ends the same line.
      var pairs = 0
      for index in range.lowerBound..<(range.upperBound - 1)
      where buffer[index] == ASCII.carriageReturn && buffer[index + 1] == ASCII.newline {
        pairs += 1
      }
      return newlines + returns - pairs
    }
  }
}
