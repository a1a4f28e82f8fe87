import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that plays one script per
/// connection, byte for byte, and records what the client sent and when it hung up.
///
/// Bounded: it accepts at most as many connections as it has scripts, stops by itself after
/// `lifetime` seconds, and every wait in a script has its own limit.
package final class LocalModelServer: @unchecked Sendable {
  /// One step of a connection's script.
  package enum Step: Sendable {
    /// The status line and headers; `chunked` sends the body with chunked transfer coding.
    case head(status: Int, headers: [(String, String)] = [], chunked: Bool = true)
    /// Body bytes (one HTTP chunk when chunked).
    case body([UInt8])
    /// The last chunk (`0` CRLF CRLF) when chunked; nothing otherwise.
    case end
    /// Waits this many seconds.
    case pause(Double)
    /// Waits up to this many seconds for the client to close the connection, then goes on.
    case waitForClose(Double)
    /// Waits up to this many seconds for the test to open the gate, then goes on.
    case waitForGate(Gate, Double)

    /// Body text.
    package static func text(_ text: String) -> Step { .body(Array(text.utf8)) }
  }

  /// A gate a script waits at until the test opens it (say, once the client has shown what came
  /// before), so an order is checked by events instead of by time.
  package final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var timedOut = false

    package init() {}

    /// Lets the waiting script go on.
    package func open() { semaphore.signal() }

    /// Whether the script's wait ran out before the gate opened.
    package var didTimeOut: Bool { lock.withLock { timedOut } }

    func wait(seconds: Double) {
      let result = semaphore.wait(timeout: .now() + seconds)
      lock.withLock { timedOut = result == .timedOut }
    }
  }

  /// A request as the server read it.
  package struct Request: Sendable {
    package var method: String
    package var path: String
    package var headers: [String: String]
    package var body: Data
    /// The body as a JSON object.
    package var json: [String: Any]? {
      (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
  }

  private let lock = NSLock()
  private var scripts: [[Step]]
  private var recorded: [Request] = []
  private var closes: [Date] = []
  private var stopped = false
  private let readsRequests: Bool
  private let listener: Int32
  /// The port it listens on.
  package let port: UInt16
  /// When it started.
  package let started = Date()

  /// The base URL of an OpenAI-compatible server here.
  package var openAIBaseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1") ?? URL(fileURLWithPath: "/") }
  /// The base URL of an Anthropic server here.
  package var anthropicBaseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

  /// Starts listening; each accepted connection plays the next script.
  /// The lifetime is long: on a busy 2-core machine the whole test run's tasks share two threads,
  /// and a test that made its server can wait minutes before its client connects (a CI run saw a
  /// server stop after 120 s, unused, and the reply come back empty). Half an hour is past any
  /// run's end; a server whose scripts have all been played stops at once.
  /// `readsRequests`: false for a server that plays its script as soon as a client connects,
  /// without reading an HTTP request first (a client that does not send one: TLS, say).
  package init(_ scripts: [[Step]], lifetime: Double = 1_800, readsRequests: Bool = true) throws {
    self.scripts = scripts
    self.readsRequests = readsRequests
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let deadline = Date().addingTimeInterval(lifetime)
    Thread.detachNewThread { [self] in acceptLoop(until: deadline) }
  }

  /// A port on 127.0.0.1 that nothing listens on (bound, then closed).
  package static func closedPort() -> UInt16 {
    guard let server = try? LocalModelServer([], lifetime: 0.01) else { return 9 }
    let port = server.port
    server.stop()
    Thread.sleep(forTimeInterval: 0.05)
    return port
  }

  /// The requests read so far.
  package var requests: [Request] { lock.withLock { recorded } }

  /// When clients closed connections during a `waitForClose`.
  package var clientCloses: [Date] { lock.withLock { closes } }

  /// Waits up to `seconds` for `count` requests to have been read.
  package func waitForRequests(_ count: Int, seconds: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if requests.count >= count { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return requests.count >= count
  }

  /// Stops accepting.
  package func stop() {
    lock.withLock { stopped = true }
  }

  private func acceptLoop(until deadline: Date) {
    defer { close(listener) }
    while Date() < deadline {
      let done = lock.withLock { stopped || scripts.isEmpty }
      if done { return }
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      // A quarter of a second: a server left unused polls its half-hour lifetime away cheaply.
      guard poll(&poller, 1, 250) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      let script = lock.withLock { scripts.isEmpty ? [] : scripts.removeFirst() }
      Thread.detachNewThread { [self] in serve(connection, script: script) }
    }
  }

  private func serve(_ connection: Int32, script: [Step]) {
    defer { close(connection) }
    if readsRequests {
      guard let request = readRequest(connection) else { return }
      lock.withLock { recorded.append(request) }
    }
    var chunked = false
    for step in script {
      switch step {
      case .head(let status, let headers, let isChunked):
        chunked = isChunked
        var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += isChunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n"
        text += "\r\n"
        guard send(connection, Array(text.utf8)) else { return }
      case .body(let bytes):
        let framed = chunked ? Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10] : bytes
        guard send(connection, framed) else { return }
      case .end:
        if chunked { guard send(connection, Array("0\r\n\r\n".utf8)) else { return } }
      case .pause(let seconds):
        Thread.sleep(forTimeInterval: seconds)
      case .waitForGate(let gate, let seconds):
        gate.wait(seconds: seconds)
      case .waitForClose(let seconds):
        if waitForPeerClose(connection, seconds: seconds) {
          lock.withLock { closes.append(Date()) }
          return
        }
      }
    }
  }

  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      if sent <= 0 { return false }
      offset += sent
    }
    return true
  }

  private func waitForPeerClose(_ connection: Int32, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 10) > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return true }
    }
    return false
  }

  private func readRequest(_ connection: Int32) -> Request? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let deadline = Date().addingTimeInterval(5)
    var headEnd: Int?
    var contentLength = 0
    while Date() < deadline {
      if let end = headEnd, data.count >= end + contentLength { break }
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return nil }
      data += buffer[0..<count]
      if headEnd == nil, let range = findHeadEnd(data) {
        headEnd = range
        let head = String(decoding: data[0..<range], as: UTF8.self)
        for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-length:") {
          contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
    }
    guard let end = headEnd else { return nil }
    let lines = String(decoding: data[0..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Request(
      method: parts.first.map(String.init) ?? "", path: parts.dropFirst().first.map(String.init) ?? "",
      headers: headers, body: Data(data[end..<min(data.count, end + contentLength)]))
  }

  private func findHeadEnd(_ data: [UInt8]) -> Int? {
    guard data.count >= 4 else { return nil }
    for index in 0...(data.count - 4)
    where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
      return index + 4
    }
    return nil
  }
}
