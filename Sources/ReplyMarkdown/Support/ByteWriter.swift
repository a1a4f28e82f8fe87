/// An append-only UTF-8 output buffer with the escapers the renderers share.
///
/// Manages its own memory (no array growth checks or exclusivity bookkeeping per byte); escaping
/// copies runs of bytes that need no escaping in one `memcpy`-like step.
struct ByteWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The mapping behind `base` when the buffer is large (see ``HugePages``); `nil` for `malloc`.
  private var region: HugePages.Region?
  private(set) var count = 0

  init(capacity: Int = 256) {
    (base, self.capacity, region) = Self.allocate(max(capacity, 64))
  }

  deinit { Self.release(base, region) }

  var isEmpty: Bool { count == 0 }
  var last: UInt8? { count == 0 ? nil : base[count - 1] }

  /// Storage for at least `capacity` bytes: large buffers are mapped with huge pages.
  private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<UInt8>, Int, HugePages.Region?) {
    if capacity >= HugePages.threshold, let region = HugePages.map(capacity) {
      return (region.start.bindMemory(to: UInt8.self, capacity: region.byteCount), region.byteCount, region)
    }
    return (UnsafeMutablePointer<UInt8>.allocate(capacity: capacity), capacity, nil)
  }

  private static func release(_ base: UnsafeMutablePointer<UInt8>, _ region: HugePages.Region?) {
    if let region { region.unmap() } else { base.deallocate() }
  }

  private mutating func reserve(_ extra: Int) {
    let needed = count + extra
    guard needed > capacity else { return }
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let (fresh, freshCapacity, freshRegion) = Self.allocate(newCapacity)
    fresh.update(from: base, count: count)
    Self.release(base, region)
    base = fresh
    capacity = freshCapacity
    region = freshRegion
  }

  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func write(_ string: StaticString) {
    string.withUTF8Buffer { write($0) }
  }

  mutating func write(string: String) {
    var string = string
    string.withUTF8 { write($0) }
  }

  mutating func write(byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  mutating func write(_ number: Int) { write(string: String(number)) }

  /// Writes a newline unless the output is empty or already ends with one (cmark's `cr`).
  mutating func newlineIfNeeded() {
    if count > 0 && base[count - 1] != UInt8(ascii: "\n") { write(byte: UInt8(ascii: "\n")) }
  }

  /// Escapes `&`, `<`, `>` and `"` as cmark-gfm's HTML renderer does (`'` and `/` pass through).
  mutating func writeHTMLEscaped(_ string: String) {
    var string = string
    string.withUTF8 { writeHTMLEscaped($0) }
  }

  mutating func writeHTMLEscaped(_ source: UnsafeBufferPointer<UInt8>) {
    Self.forEachHTMLEscapedPiece(source) { write($0) }
  }

  /// Calls `body` with `source` escaped for HTML as cmark-gfm escapes text, piece by piece in
  /// order: runs that need no escape, and the entities of `&`, `<`, `>` and `"`. One scan for the
  /// writer and for the stream's HTML output, which escapes into its own buffer.
  @inline(__always)
  static func forEachHTMLEscapedPiece(
    _ source: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard let bytes = source.baseAddress else { return }
    // The four bytes to escape are all below 64: one shift and test per byte finds them.
    let special: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E  // " & < >
    let count = source.count
    var runStart = 0
    var index = 0
    while index < count {
      let byte = bytes[index]
      if byte >= 64 || (special >> UInt64(byte)) & 1 == 0 {
        index += 1
        continue
      }
      if runStart < index { body(UnsafeBufferPointer(start: bytes + runStart, count: index - runStart)) }
      let entity: StaticString
      switch byte {
      case 0x26: entity = "&amp;"
      case 0x3C: entity = "&lt;"
      case 0x3E: entity = "&gt;"
      default: entity = "&quot;"
      }
      body(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
      index += 1
      runStart = index
    }
    if runStart < count { body(UnsafeBufferPointer(start: bytes + runStart, count: count - runStart)) }
  }

  /// Escapes a URL for an `href`/`src` attribute as cmark-gfm does: bytes outside its safe set are
  /// percent-encoded, `&` and `'` become entities.
  mutating func writeHrefEscaped(_ string: String) {
    var string = string
    string.withUTF8 { source in
      ByteWriter.hrefSafe.withUnsafeBufferPointer { safe in
        var runStart = 0
        for index in 0..<source.count {
          let byte = source[index]
          if safe[Int(byte)] { continue }
          if runStart < index { write(UnsafeBufferPointer(rebasing: source[runStart..<index])) }
          switch byte {
          case UInt8(ascii: "&"): write("&amp;")
          case UInt8(ascii: "'"): write("&#x27;")
          default:
            reserve(3)
            base[count] = UInt8(ascii: "%")
            base[count + 1] = ByteWriter.hexDigit(byte >> 4)
            base[count + 2] = ByteWriter.hexDigit(byte & 0xF)
            count += 3
          }
          runStart = index + 1
        }
        if runStart < source.count { write(UnsafeBufferPointer(rebasing: source[runStart...])) }
      }
    }
  }

  /// The bytes that pass through URL escaping unchanged: letters, digits and `-_.+!*(),%#@?=;:/$~`.
  static let hrefSafe: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
    for byte in "-_.+!*(),%#@?=;:/$~".utf8 { table[Int(byte)] = true }
    return table
  }()

  static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 48 + value : 55 + value }

  /// `0123456789ABCDEF` as bytes.
  static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// Calls `body` with the bytes written so far.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// A copy of the bytes written so far, from `start`.
  func bytes(from start: Int = 0) -> [UInt8] {
    Array(UnsafeBufferPointer(start: base + start, count: count - start))
  }

  /// The output as a string (validated once as UTF-8).
  func string() -> String {
    String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
  }
}
