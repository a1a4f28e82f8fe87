import ChatEngine
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Replies from a model server: OpenAI-compatible Chat Completions or Anthropic Messages,
/// streamed as server-sent events.
///
/// ``reply`` is the ``ChatThread`` reply closure: for each reply it sends the conversation as
/// shown (``ModelTurn/conversation(from:)``) with the system prompt, and streams the text as it
/// arrives. Guarantees:
/// - Stop cancels the request at once: the stream's task is cancelled, which cancels the HTTP
///   task and closes its connection. A consumer whose own task is cancelled sees its loop end
///   with no error, as every `AsyncThrowingStream` ends then (`Task.isCancelled` tells it from a
///   finished reply); a cancellation that does not come from the consumer (the HTTP task
///   cancelled from elsewhere) ends the stream with `CancellationError`.
/// - Every failure is a ``ModelError`` saying what happened (the key, the model, the rate limit
///   with the server's `Retry-After`, a server error, a dropped connection — text already shown
///   stays —, a malformed event, a timeout, no connection, an answer that is not an event stream,
///   a reply the model says it cut short — its length limit, a content filter —, text kept);
///   none contains the key. A status that is not 2xx is reported as that status even when its body
///   is cut off or never finishes; an error sent as a bare JSON body in place of events shows its
///   message; a model that reached its length limit before any text says so, not "empty".
/// - A refusal (`delta.refusal`) and content sent as text parts are the reply's text; a `\u`
///   escape of a lone surrogate reads as U+FFFD.
/// - Redirects are not followed (they would carry the key elsewhere); the error names where one
///   points.
/// - Memory stays bounded whatever the server sends: at most 32 MiB of reply text
///   (``ModelError/replyTooLong(bytes:)``), 32 MiB received and not yet read
///   (``ModelError/outpaced(bytes:)``) and 8 MiB in one event
///   (``ServerSentEventParser/maximumEventBytes``).
///
/// `Sendable`; one source serves any number of replies, one request each.
public struct ModelReplySource: Sendable {
  /// Where replies come from.
  public var endpoint: ModelEndpoint
  /// How much one reply may hold in memory (tests make them small).
  package var limits = Limits()

  /// How much one reply may hold in memory, so a server that sends without end, or faster than
  /// the reply is read, cannot exhaust it: the reply fails with ``ModelError/replyTooLong(bytes:)``
  /// or ``ModelError/outpaced(bytes:)``, its text so far kept.
  package struct Limits: Sendable {
    /// The most bytes of text one reply holds: 32 MiB (replies of the largest models are well
    /// under 1 MiB); the text is cut at the last whole character that fits.
    package var replyBytes = 32 << 20
    /// The most bytes received from the server and not yet read: 32 MiB.
    package var unreadBytes = 32 << 20

    package init(replyBytes: Int = 32 << 20, unreadBytes: Int = 32 << 20) {
      self.replyBytes = replyBytes
      self.unreadBytes = unreadBytes
    }
  }

  /// The largest error body read (64 KiB); the rest is not waited for.
  static let maximumErrorBody = 64 << 10
  /// The start of a successful body kept to show if it turns out not to be an event stream.
  static let maximumSample = 4 << 10

  /// Creates a source for `endpoint`.
  public init(endpoint: ModelEndpoint) {
    self.endpoint = endpoint
  }

  /// The engine's reply closure.
  public var reply: ChatThread.Reply {
    let source = self
    return { history in source.stream(history: history) }
  }

  /// Streams the reply to `history` (every message before the reply).
  public func stream(history: [ChatMessage]) -> AsyncThrowingStream<String, any Error> {
    let conversation = ModelTurn.conversation(from: history)
    let endpoint = self.endpoint
    let limits = self.limits
    return ChatReplyStream.make { write in
      switch endpoint.api {
      case .openai:
        var decoder = OpenAIChatCompletions()
        try await Self.run(
          OpenAIChatCompletions.request(endpoint, conversation: conversation), endpoint: endpoint, limits: limits,
          decoder: &decoder, write: write)
      case .anthropic:
        var decoder = AnthropicMessages()
        try await Self.run(
          AnthropicMessages.request(endpoint, conversation: conversation), endpoint: endpoint, limits: limits,
          decoder: &decoder, write: write)
      }
    }
  }

  /// The HTTP request one reply to `history` sends (for logs and tests; it holds the key in a
  /// header, so never print its headers).
  public func request(for history: [ChatMessage]) -> URLRequest {
    let conversation = ModelTurn.conversation(from: history)
    switch endpoint.api {
    case .openai: return OpenAIChatCompletions.request(endpoint, conversation: conversation)
    case .anthropic: return AnthropicMessages.request(endpoint, conversation: conversation)
    }
  }

  private static func run<Decoder: ModelStreamDecoder>(
    _ request: URLRequest, endpoint: ModelEndpoint, limits: Limits, decoder: inout Decoder,
    write: ChatReplyStream.Writer
  ) async throws {
    let key = endpoint.apiKey
    let parts = _StreamingHTTPClient.stream(
      request, timeouts: endpoint.timeouts, server: endpoint.serverName, mostUnreadBytes: limits.unreadBytes)
    var replyBytes = 0
    var parser = ServerSentEventParser()
    var status = 0
    var headers: [String: String] = [:]
    var errorBody = Data()
    var sample = Data()
    var wroteText = false
    var sawEvent = false
    /// Reads one event; `true` when it ends the reply.
    func handle(_ event: ServerSentEvent) throws -> Bool {
      sawEvent = true
      switch try decoder.decode(event) {
      case .text(let text):
        // Blank space alone shows nothing: a reply of only that is empty.
        if !wroteText { wroteText = text.contains { !$0.isWhitespace } }
        // The text that fits the limit is written; then the reply ends there.
        let room = limits.replyBytes - replyBytes
        let fits = text.utf8.count <= room
        let part =
          fits
          ? text
          : String(
            text.prefix { character in
              replyBytes += character.utf8.count
              return replyBytes <= limits.replyBytes
            })
        if !part.isEmpty { guard write(part) else { throw CancellationError() } }
        guard fits else { throw ModelError.replyTooLong(bytes: limits.replyBytes) }
        replyBytes += text.utf8.count
      case .done:
        // A model that spent its whole length limit before any text (on reasoning) says so.
        if let cut = decoder.cutShort { throw cut }
        guard wroteText else { throw ModelError.emptyReply }
        return true
      case .nothing:
        break
      }
      return false
    }
    do {
      do {
        for try await part in parts {
          switch part {
          case .head(let code, let fields):
            status = code
            headers = fields
          case .body(let data) where !(200..<300).contains(status):
            errorBody.append(data.prefix(maximumErrorBody - errorBody.count))
            if errorBody.count >= maximumErrorBody {
              throw failure(status: status, headers: headers, body: errorBody, endpoint: endpoint)
            }
          case .body(let data):
            if sample.count < maximumSample { sample.append(data.prefix(maximumSample - sample.count)) }
            for event in try parser.feed(data) {
              if try handle(event) { return }
            }
          }
        }
      } catch ModelError.connectionDropped where status != 0 && !(200..<300).contains(status) {
        // The status came, its body did not finish: the status is the news (a 429 and its
        // Retry-After), with what of the body came.
        throw failure(status: status, headers: headers, body: errorBody, endpoint: endpoint)
      } catch ModelError.idleTimeout where status != 0 && !(200..<300).contains(status) {
        throw failure(status: status, headers: headers, body: errorBody, endpoint: endpoint)
      }
      try Task.checkCancellation()
      guard (200..<300).contains(status) else {
        throw failure(status: status, headers: headers, body: errorBody, endpoint: endpoint)
      }
      // A last event the server did not end with an empty line (`data: [DONE]` at the very
      // end) counts when it is whole; one cut short means the connection dropped.
      if let last = try parser.finish() {
        do {
          if try handle(last) { return }
        } catch ModelError.malformedEvent {
          throw ModelError.connectionDropped
        }
      }
      // An error sent as a bare JSON body, without the `data:` of an event.
      if !sawEvent, let object = _JSON.object(String(decoding: sample, as: UTF8.self)),
        let message = _JSON.errorMessage(object)
      {
        throw ModelError.streamError(message: message)
      }
      if !sawEvent, let type = headers["content-type"], !type.lowercased().hasPrefix("text/event-stream") {
        let text = String(decoding: sample, as: UTF8.self)
        throw ModelError.notEventStream(
          contentType: ModelError.clean(type, key: key), message: text.isEmpty ? nil : ModelError.clean(text, key: key))
      }
      guard decoder.endedCleanly else { throw ModelError.connectionDropped }
      if let cut = decoder.cutShort { throw cut }
      guard wroteText else { throw ModelError.emptyReply }
    } catch let error as ModelError {
      throw redacted(error, key: key)
    }
  }

  /// The error for a response with a status that is not 2xx.
  static func failure(status: Int, headers: [String: String], body: Data, endpoint: ModelEndpoint) -> ModelError {
    let text = String(decoding: body, as: UTF8.self)
    let serverMessage = _JSON.object(text).flatMap(_JSON.errorMessage) ?? (text.isEmpty ? nil : text)
    let message = serverMessage.map { ModelError.clean($0, key: endpoint.apiKey) }
    switch status {
    case 401, 403:
      return .unauthorized(
        status: status, keySource: endpoint.apiKey == nil ? nil : endpoint.apiKeySource ?? "",
        message: message)
    case 404:
      return .notFound(model: endpoint.model, url: endpoint.displayURL, message: message)
    case 300..<400:
      return .redirected(
        status: status, location: headers["location"].flatMap { shownLocation($0, endpoint: endpoint) })
    case 429:
      return .rateLimited(retryAfter: headers["retry-after"].flatMap { retryAfterSeconds($0) }, message: message)
    case 500..<600:
      return .serverError(status: status, message: message)
    default:
      return .rejected(status: status, message: message)
    }
  }

  /// The longest `Retry-After` taken at its word (a day); a longer wait, an infinite or a
  /// negative one is treated as absent.
  package static let maximumRetryAfter = 86_400

  /// Seconds from a `Retry-After` value: a number of seconds or an HTTP date; `nil` when it is
  /// neither, or when the wait is negative or over ``maximumRetryAfter`` (never a crash, whatever
  /// the number).
  package static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Int? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(trimmed) {
      return seconds >= 0 && seconds <= Double(maximumRetryAfter) ? Int(seconds.rounded(.up)) : nil
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    let seconds = date.timeIntervalSince(now)
    guard seconds <= Double(maximumRetryAfter) else { return nil }
    return max(0, Int(max(0, seconds).rounded(.up)))
  }

  /// A redirect's `Location` as messages show it: resolved against the request URL, without user
  /// name, password, query or fragment, the key removed.
  static func shownLocation(_ location: String, endpoint: ModelEndpoint) -> String? {
    guard let url = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: endpoint.requestURL),
      var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    else { return nil }
    components.user = nil
    components.password = nil
    components.query = nil
    components.fragment = nil
    return components.string.map { ModelError.clean($0, key: endpoint.apiKey) }
  }

  /// `error` with any server text cleaned of the key.
  static func redacted(_ error: ModelError, key: ModelAPIKey?) -> ModelError {
    switch error {
    case .streamError(let message): return .streamError(message: ModelError.clean(message, key: key))
    case .malformedEvent(let detail): return .malformedEvent(detail: ModelError.clean(detail, key: key))
    default: return error
    }
  }
}
