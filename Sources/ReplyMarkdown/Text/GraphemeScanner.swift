import CUTF8Proc

/// Walks UTF-8 text one extended grapheme cluster at a time (utf8proc's stateful breaks, Unicode
/// 15), giving each cluster's byte range and display width.
///
/// Runs of ASCII skip utf8proc entirely: between two ASCII scalars other than CR LF there is always
/// a boundary.
struct GraphemeScanner {
  /// One grapheme cluster: its bytes are `start..<end`, it takes `width` columns.
  struct Cluster {
    var start: Int
    var end: Int
    var width: Int
    /// The first scalar of the cluster.
    var first: UInt32
  }

  let bytes: UnsafeBufferPointer<UInt8>
  private(set) var position: Int
  private let end: Int
  private var state: Int32 = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, to end: Int? = nil) {
    self.bytes = bytes
    self.position = start
    self.end = end ?? bytes.count
  }

  /// Decodes the scalar at `index` of valid UTF-8, giving its value and byte length.
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
    let lead = bytes[index]
    if lead < 0x80 { return (UInt32(lead), 1) }
    if lead < 0xE0 {
      guard index + 1 < bytes.count else { return (0xFFFD, 1) }
      return ((UInt32(lead & 0x1F) << 6) | UInt32(bytes[index + 1] & 0x3F), 2)
    }
    if lead < 0xF0 {
      guard index + 2 < bytes.count else { return (0xFFFD, 1) }
      return (
        (UInt32(lead & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F), 3
      )
    }
    guard index + 3 < bytes.count else { return (0xFFFD, 1) }
    return (
      (UInt32(lead & 0x07) << 18) | (UInt32(bytes[index + 1] & 0x3F) << 12)
        | (UInt32(bytes[index + 2] & 0x3F) << 6) | UInt32(bytes[index + 3] & 0x3F), 4
    )
  }

  /// Whether the byte at `index` (before `end`) is a cluster on its own: an ASCII scalar followed
  /// by ASCII or the end, other than CR (which joins a following LF).
  @inline(__always)
  static func isLoneASCII(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
    let lead = bytes[index]
    return lead < 0x80 && lead != 0x0D && (index + 1 == end || bytes[index + 1] < 0x80)
  }

  /// Moves on to `position`, past lone ASCII clusters (``isLoneASCII(_:at:end:)``) the caller
  /// took itself, leaving the scanner as ``next()`` would have after them.
  ///
  /// - Precondition: the bytes from ``position`` to `position` are lone ASCII clusters.
  @inline(__always)
  mutating func skipLoneASCII(to position: Int) {
    guard position > self.position else { return }
    self.position = position
    if position < end { state = 0 }
  }

  /// The next cluster, or nil at the end.
  @inline(__always)
  mutating func next() -> Cluster? {
    guard position < end else { return nil }
    let start = position
    // An ASCII scalar followed by ASCII (or the end) is a cluster of its own, except CR before LF.
    if Self.isLoneASCII(bytes, at: start, end: end) {
      let lead = bytes[start]
      position = start + 1
      if position < end { state = 0 }
      return Cluster(start: start, end: position, width: DisplayWidth.scalarWidth(UInt32(lead)), first: UInt32(lead))
    }
    return nextCluster()
  }

  /// The next cluster when it is not a lone ASCII scalar: utf8proc decides where it ends.
  private mutating func nextCluster() -> Cluster {
    let start = position
    let (first, firstLength) = Self.decode(bytes, at: position)
    position += firstLength
    var width = DisplayWidth.scalarWidth(first)
    var previous = first
    if first >= 0x1F1E6 && first <= 0x1F1FF { width = 2 }
    while position < end {
      let lead = bytes[position]
      if previous < 0x80 && lead < 0x80 && previous != 0x0D {
        state = 0
        break
      }
      let (scalar, length) = Self.decode(bytes, at: position)
      if utf8proc_grapheme_break_stateful(Int32(bitPattern: previous), Int32(bitPattern: scalar), &state) {
        break
      }
      // Emoji presentation, for an emoji that has a text one (`❤️`, `1️⃣`); after anything else
      // (a space, a letter) terminals ignore the selector (fuzz seed 1271: a table cell starting
      // with U+FE0F took two columns after the cell's padding space).
      if scalar == 0xFE0F, Unicode.Scalar(first)?.properties.isEmoji == true { width = 2 }
      previous = scalar
      position += length
    }
    return Cluster(start: start, end: position, width: width, first: first)
  }
}
