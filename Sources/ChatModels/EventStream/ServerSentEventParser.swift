/// Splits a `text/event-stream` into events, incrementally, as the HTML standard defines it.
///
/// Bytes may arrive in any chunks: a chunk may end inside a line, inside a CR LF pair or inside
/// a UTF-8 character; lines end with CR LF, LF or CR; a leading byte-order mark is skipped; lines
/// starting with `:` (keep-alive comments) are ignored; `data:` lines of one event are joined
/// with line feeds; an empty line ends the event (one with no data is dropped); `id` and `retry`
/// are ignored. Invalid UTF-8 becomes U+FFFD.
///
/// Bounded: a line longer than ``maximumLineBytes``, or an event whose `data:` lines hold more
/// than ``maximumEventBytes``, is a ``ModelError/malformedEvent(detail:)`` instead of memory that
/// grows without end. Events completed before the fault are never lost: ``feed(_:)`` returns
/// them and throws the fault on its next call (or ``finish()`` does); after a fault every call
/// throws it.
///
/// - Complexity: O(n) in the bytes fed.
public struct ServerSentEventParser: Sendable {
  /// The longest line kept (8 MiB).
  public static let maximumLineBytes = 8 << 20
  /// The most `data:` bytes one event may hold, all its lines together (8 MiB).
  public static let maximumEventBytes = 8 << 20

  private var line: [UInt8] = []
  private var afterCR = false
  private var atStart = true
  private var eventType = ""
  private var dataLines: [String] = []
  private var dataBytes = 0
  private var hasData = false
  private var failure: ModelError?

  /// Creates a parser at the start of a stream.
  public init() {}

  /// Feeds `bytes`; returns the events they completed.
  ///
  /// Throws the stream's fault (a line or an event over its limit) when it is found with no
  /// event completed before it in `bytes`; otherwise returns those events and throws the fault
  /// on the next call. Bytes after a fault are not read.
  public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(ModelError) -> [ServerSentEvent] {
    if let failure { throw failure }
    var events: [ServerSentEvent] = []
    do throws(ModelError) {
      for byte in bytes {
        if afterCR {
          afterCR = false
          if byte == lineFeed { continue }
        }
        if byte == lineFeed || byte == carriageReturn {
          afterCR = byte == carriageReturn
          if let event = try endLine() { events.append(event) }
          continue
        }
        line.append(byte)
        if line.count > Self.maximumLineBytes {
          throw .malformedEvent(detail: "a line longer than \(Self.maximumLineBytes) bytes")
        }
      }
    } catch {
      failure = error
      line = []
      dataLines = []
      if events.isEmpty { throw error }
    }
    return events
  }

  /// Ends the stream: returns the event still being read, if it has data (a last event the
  /// server did not end with an empty line: `data: [DONE]` at the very end), or throws the
  /// stream's fault. The caller decides whether such an unterminated event counts; the parser
  /// is then at the start of a new stream's events.
  public mutating func finish() throws(ModelError) -> ServerSentEvent? {
    if let failure { throw failure }
    afterCR = false
    if !line.isEmpty, let event = try endLine() { return event }
    return dispatch()
  }

  /// Whether text of an unfinished event or line is still held (the stream was cut mid-event).
  public var hasPartialEvent: Bool { !line.isEmpty || hasData }

  private mutating func endLine() throws(ModelError) -> ServerSentEvent? {
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
      dataBytes += value.count + (hasData ? 1 : 0)
      guard dataBytes <= Self.maximumEventBytes else {
        throw .malformedEvent(
          detail: "an event with more than \(Self.maximumEventBytes) bytes of data (no empty line ends it)")
      }
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
      dataBytes = 0
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
