import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one request and streams its response as it arrives, through a `URLSession` data task
/// with a delegate (on Linux, FoundationNetworking's; its `didReceive data` calls come as the
/// bytes arrive, which the tests check against a server that sends slowly).
///
/// Guarantees: one ephemeral session per request (no pooled connection outlives it), so ending
/// the stream early — the consumer stops, its task is cancelled — cancels the task and closes
/// the connection at once. The connect timeout runs until the response head, the idle timeout
/// between any two pieces after it; either ends the stream with a ``ModelError``. The body
/// pieces received but not yet taken by the consumer never pass `mostUnreadBytes`: a server that
/// sends faster than the reply is read ends the stream with ``ModelError/outpaced(bytes:)``
/// (FoundationNetworking cannot pause a transfer: a suspended task's request starts again when
/// resumed, sending the conversation twice, so the bound ends the reply instead of waiting).
final class _StreamingHTTPClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation
  private let timeouts: ModelTimeouts
  private let server: String
  private var task: URLSessionDataTask?
  private var lastActivity = DispatchTime.now()
  private var receivedHead = false
  private var finished = false
  /// Body bytes yielded and not yet taken by the consumer.
  private var unread = 0
  private let mostUnreadBytes: Int
  private let timerQueue = DispatchQueue(label: "ChatModels.timeouts")

  private init(
    continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation, timeouts: ModelTimeouts, server: String,
    mostUnreadBytes: Int
  ) {
    self.continuation = continuation
    self.mostUnreadBytes = mostUnreadBytes
    self.timeouts = timeouts
    self.server = server
  }

  /// Starts `request`; the stream yields the head, then body pieces, and ends with the body.
  static func stream(
    _ request: URLRequest, timeouts: ModelTimeouts, server: String, mostUnreadBytes: Int
  ) -> Parts {
    let (stream, continuation) = AsyncThrowingStream<HTTPStreamPart, any Error>.makeStream()
    let client = _StreamingHTTPClient(
      continuation: continuation, timeouts: timeouts, server: server, mostUnreadBytes: mostUnreadBytes)
    let configuration = URLSessionConfiguration.ephemeral
    // Our own timers decide; URLSession's only backs them up.
    configuration.timeoutIntervalForRequest = max(timeouts.connect, timeouts.idle) + 5
    configuration.timeoutIntervalForResource = 7 * 24 * 3600
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let session = URLSession(configuration: configuration, delegate: client, delegateQueue: nil)
    let task = session.dataTask(with: request)
    client.lock.withLock { client.task = task }
    continuation.onTermination = { [weak client] _ in client?.cancel() }
    client.armTimer(after: timeouts.connect)
    task.resume()
    session.finishTasksAndInvalidate()
    return Parts(base: stream, client: client)
  }

  /// The parts of one response, each body piece counted as taken when the consumer gets it.
  struct Parts: AsyncSequence, Sendable {
    typealias Element = HTTPStreamPart
    let base: AsyncThrowingStream<HTTPStreamPart, any Error>
    let client: _StreamingHTTPClient

    /// Whether the response has ended (whole, failed or cancelled), whatever is still unread.
    var hasEnded: Bool { client.lock.withLock { client.finished } }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), client: client) }

    struct Iterator: AsyncIteratorProtocol {
      var base: AsyncThrowingStream<HTTPStreamPart, any Error>.Iterator
      let client: _StreamingHTTPClient

      mutating func next() async throws -> HTTPStreamPart? {
        let part = try await base.next()
        if case .body(let data)? = part { client.lock.withLock { client.unread -= data.count } }
        return part
      }
    }
  }

  private func cancel() {
    let task = lock.withLock { () -> URLSessionDataTask? in
      finished = true
      return self.task
    }
    task?.cancel()
  }

  private func finish(throwing error: (any Error)?) {
    let task = lock.withLock { () -> URLSessionDataTask? in
      guard !finished else { return nil }
      finished = true
      return self.task
    }
    guard let task else { return }
    if error != nil { task.cancel() }
    continuation.finish(throwing: error)
  }

  private func touch() {
    lock.withLock { lastActivity = .now() }
  }

  private func armTimer(after seconds: Double) {
    timerQueue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.checkTimeout() }
  }

  private func checkTimeout() {
    let (done, head, last) = lock.withLock { (finished, receivedHead, lastActivity) }
    guard !done else { return }
    let limit = head ? timeouts.idle : timeouts.connect
    let deadline = last + limit
    if DispatchTime.now() >= deadline {
      finish(throwing: head ? ModelError.idleTimeout(seconds: limit) : .connectTimeout(server: server, seconds: limit))
    } else {
      timerQueue.asyncAfter(deadline: deadline) { [weak self] in self?.checkTimeout() }
    }
  }

  // MARK: URLSessionDataDelegate

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let http = response as? HTTPURLResponse else {
      finish(throwing: ModelError.malformedEvent(detail: "the response is not HTTP"))
      completionHandler(.cancel)
      return
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    lock.withLock {
      receivedHead = true
      lastActivity = .now()
    }
    continuation.yield(.head(status: http.statusCode, headers: headers))
    completionHandler(.allow)
    armTimer(after: timeouts.idle)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let outpaced = lock.withLock { () -> Bool in
      lastActivity = .now()
      guard unread + data.count <= mostUnreadBytes else { return true }
      unread += data.count
      return false
    }
    guard !outpaced else { return finish(throwing: ModelError.outpaced(bytes: mostUnreadBytes)) }
    continuation.yield(.body(data))
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let error else { return finish(throwing: nil) }
    finish(throwing: modelError(for: error, afterHead: lock.withLock { receivedHead }))
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // A redirect would resend the key to wherever it points: refuse it and show the 3xx.
    completionHandler(nil)
  }

  /// The ``ModelError`` (or cancellation) for a failure of the task.
  func modelError(for error: any Error, afterHead: Bool) -> any Error {
    guard let urlError = error as? URLError else {
      return ModelError.cannotConnect(server: server, reason: error.localizedDescription)
    }
    switch urlError.code {
    case .cancelled: return CancellationError()
    case .timedOut:
      return afterHead
        ? ModelError.idleTimeout(seconds: timeouts.idle) : .connectTimeout(server: server, seconds: timeouts.connect)
    case .networkConnectionLost where afterHead: return ModelError.connectionDropped
    case .cannotConnectToHost: return ModelError.cannotConnect(server: server, reason: "the connection was refused")
    case .cannotFindHost, .dnsLookupFailed:
      return ModelError.cannotConnect(server: server, reason: "the host name is not known")
    case .notConnectedToInternet: return ModelError.cannotConnect(server: server, reason: "no network")
    case .badURL:
      return ModelError.cannotConnect(
        server: server,
        reason: "the HTTP client cannot use this address: check its host (an IPv4 address without leading zeros; "
          + "a host name, not an IPv6 address in brackets)")
    case .networkConnectionLost:
      return ModelError.cannotConnect(
        server: server, reason: "it closed the connection without answering (is the port a model server's?)")
    case .unknown where !afterHead && Self.secureConnectionReason(urlError.localizedDescription) != nil:
      // The client reports TLS failures as unknown errors, with the TLS library's words.
      return ModelError.cannotConnect(
        server: server, reason: Self.secureConnectionReason(urlError.localizedDescription) ?? "")
    case .unsupportedURL where !afterHead, .badServerResponse where !afterHead, .cannotParseResponse where !afterHead,
      .unknown where !afterHead:
      return ModelError.cannotConnect(
        server: server,
        reason: "its answer is not HTTP that the client can read (URLError \(urlError.code.rawValue)): "
          + "is the base URL a model server?")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      return ModelError.cannotConnect(
        server: server,
        reason: Self.secureConnectionReason(urlError.localizedDescription) ?? "the secure connection failed")
    default:
      if afterHead { return ModelError.connectionDropped }
      return ModelError.cannotConnect(
        server: server, reason: "the HTTP client failed (URLError \(urlError.code.rawValue)): is the base URL right?")
    }
  }

  /// What a TLS failure the HTTP client described as `description` (the TLS library's words, as
  /// curl passes them on) means for the user; nil when it does not read as one.
  static func secureConnectionReason(_ description: String) -> String? {
    let lowered = description.lowercased()
    let words = String(description.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200))
    if lowered.contains("expired") {
      return "its TLS certificate has expired (\(words))"
    }
    if lowered.contains("subject name") || lowered.contains("does not match") || lowered.contains("hostname") {
      return "its TLS certificate is for another host name (\(words)): use the name the certificate was made for"
    }
    if lowered.contains("self-signed") || lowered.contains("self signed") || lowered.contains("local issuer")
      || lowered.contains("unknown ca")
    {
      return "its TLS certificate is not trusted (\(words)): a self-signed or private certificate authority's "
        + "certificate must be installed in the system's trust store"
    }
    if lowered.contains("certificate") {
      return "its TLS certificate was refused (\(words))"
    }
    if lowered.contains("wrong version number") || lowered.contains("packet length too long")
      || lowered.contains("record layer failure")
    {
      return "the secure connection failed (\(words)): does the server speak https:// on this port, or only http://?"
    }
    if lowered.contains("ssl") || lowered.contains("tls") {
      return "the secure connection failed (\(words))"
    }
    return nil
  }
}
