/// Splits a `text/event-stream` into events, incrementally, as the HTML standard defines it.
///
/// Bytes may arrive in any chunks: a chunk may end inside a line, inside a CR LF pair or inside
/// a UTF-8 character; lines end with CR LF, LF or CR; a leading byte-order mark is skipped; lines
/// starting with `:` (keep-alive comments) are ignored; `data:` lines of one event are joined
/// with line feeds; an empty line ends the event (one with no data is dropped); `id` and `retry`
/// are ignored. Invalid UTF-8 becomes U+FFFD.
///
/// - Complexity: O(n) in the bytes fed. A line longer than ``maximumLineBytes`` throws
///   ``ModelError/malformedEvent(detail:)`` instead of growing without bound.
public struct ServerSentEventParser: Sendable {
  /// The longest line kept (8 MiB).
  public static let maximumLineBytes = 8 << 20

  private var line: [UInt8] = []
  private var afterCR = false
  private var atStart = true
  private var eventType = ""
  private var dataLines: [String] = []
  private var hasData = false

  /// Creates a parser at the start of a stream.
  public init() {}

  /// Feeds `bytes`; returns the events they completed.
  public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(ModelError) -> [ServerSentEvent] {
    var events: [ServerSentEvent] = []
    for byte in bytes {
      if afterCR {
        afterCR = false
        if byte == lineFeed { continue }
      }
      if byte == lineFeed || byte == carriageReturn {
        afterCR = byte == carriageReturn
        if let event = endLine() { events.append(event) }
        continue
      }
      line.append(byte)
      if line.count > Self.maximumLineBytes {
        throw .malformedEvent(detail: "a line longer than \(Self.maximumLineBytes) bytes")
      }
    }
    return events
  }

  /// Whether text of an unfinished event or line is still held (the stream was cut mid-event).
  public var hasPartialEvent: Bool { !line.isEmpty || hasData }

  private mutating func endLine() -> ServerSentEvent? {
    var bytes = line[...]
    line.removeAll(keepingCapacity: true)
    if atStart {
      atStart = false
      if bytes.starts(with: byteOrderMark) { bytes = bytes.dropFirst(byteOrderMark.count) }
    }
    guard !bytes.isEmpty else { return dispatch() }
    if bytes.first == colon { return nil }
    let field: String
    var value: ArraySlice<UInt8>
    if let separator = bytes.firstIndex(of: colon) {
      field = String(decoding: bytes[..<separator], as: UTF8.self)
      value = bytes[(separator + 1)...]
      if value.first == space { value = value.dropFirst() }
    } else {
      field = String(decoding: bytes, as: UTF8.self)
      value = []
    }
    switch field {
    case "event": eventType = String(decoding: value, as: UTF8.self)
    case "data":
      dataLines.append(String(decoding: value, as: UTF8.self))
      hasData = true
    default: break
    }
    return nil
  }

  private mutating func dispatch() -> ServerSentEvent? {
    defer {
      eventType = ""
      dataLines.removeAll()
      hasData = false
    }
    guard hasData else { return nil }
    return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: dataLines.joined(separator: "\n"))
  }
}

private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
private let colon = UInt8(ascii: ":")
private let space = UInt8(ascii: " ")
private let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
