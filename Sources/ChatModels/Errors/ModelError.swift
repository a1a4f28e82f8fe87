import Foundation

/// Why a reply from a model failed, in words the person can act on.
///
/// Guarantees: no case holds the API key; text that came from the server is stored with the key
/// removed (``ModelAPIKey/redact(_:)``) and cut to 300 characters (only the first 1,200 Unicode
/// scalars of it are read, so the cost does not grow with the text). `errorDescription` is what the
/// thread shows in place of the reply, with Retry.
public enum ModelError: Error, Sendable, Hashable, LocalizedError {
  /// The server refused the key (401, or 403 for a key without access); `keySource` names the
  /// variable the key came from (empty when the key came from elsewhere), `nil` when no key was sent.
  case unauthorized(status: Int, keySource: String?, message: String?)
  /// The model or the address was not found (404).
  case notFound(model: String, url: String, message: String?)
  /// Too many requests (429); `retryAfter` is the server's `Retry-After`, in seconds, when given.
  case rateLimited(retryAfter: Int?, message: String?)
  /// The server failed (5xx, or Anthropic's 529 overloaded).
  case serverError(status: Int, message: String?)
  /// Any other refusal (400, 413, 422 …), with the server's message.
  case rejected(status: Int, message: String?)
  /// The stream reported an error part-way (an `error` event or an error object in `data:`).
  case streamError(message: String)
  /// The connection closed before the reply said it was done; the text so far stays.
  case connectionDropped
  /// The server sent something that is not the protocol's event stream.
  case malformedEvent(detail: String)
  /// No response within `seconds` of sending the request.
  case connectTimeout(server: String, seconds: Double)
  /// The server went quiet for `seconds` in the middle of the reply.
  case idleTimeout(seconds: Double)
  /// The server could not be reached (no network, refused, unknown host).
  case cannotConnect(server: String, reason: String)
  /// The server answered with no text at all.
  case emptyReply
  /// A successful answer that is not an event stream (JSON, a web page): usually a wrong base
  /// URL, or a server that does not stream; `message` is the start of what it sent.
  case notEventStream(contentType: String, message: String?)
  /// The model ended the reply early and said why; the text so far stays.
  case cutShort(reason: CutShortReason)
  /// The server sent `bytes` more than the reply had read yet (it sends faster than the reply can
  /// be taken in); the reply was stopped there, and the text so far stays.
  case outpaced(bytes: Int)
  /// The reply passed `bytes` of text; the rest was not read, and the text so far stays.
  case replyTooLong(bytes: Int)
  /// The server redirects (3xx) to `location` (without user name, password or query), which is
  /// not followed: it would carry the key elsewhere.
  case redirected(status: Int, location: String?)

  /// Why a model ended a reply early.
  public enum CutShortReason: String, Sendable, Hashable {
    /// It reached its length limit (`finish_reason: length`, `stop_reason: max_tokens`).
    case lengthLimit
    /// Its content filter stopped it (`finish_reason: content_filter`, `stop_reason: refusal`).
    case contentFilter
  }

  /// What the person reads in place of the reply.
  public var errorDescription: String? {
    switch self {
    case .unauthorized(let status, let source, let message):
      guard let source else {
        return "The server asks for an API key (\(status)) and none was sent." + Self.detail(message)
      }
      let check = source.isEmpty ? "" : ": check the key in $\(source)"
      return "The server refused the API key (\(status))\(check)." + Self.detail(message)
    case .notFound(let model, let url, let message):
      return "Not found (404): is the model '\(model)' available at \(url)?" + Self.detail(message)
    case .rateLimited(let retryAfter, let message):
      let wait = retryAfter.map { " The server asks to wait \($0) s before retrying." } ?? " Wait, then retry."
      return "Rate limited (429)." + wait + Self.detail(message)
    case .serverError(let status, let message):
      return "The server failed (\(status)); try again." + Self.detail(message)
    case .rejected(let status, let message):
      return "The server rejected the request (\(status))." + Self.detail(message)
    case .streamError(let message):
      return "The server reported an error mid-reply: \(message)"
    case .connectionDropped:
      return "The connection closed before the reply finished."
    case .malformedEvent(let detail):
      return "The server sent an event that could not be read: \(detail)"
    case .connectTimeout(let server, let seconds):
      return "No response from \(server) within \(Self.seconds(seconds))."
    case .idleTimeout(let seconds):
      return "The server sent nothing for \(Self.seconds(seconds)) in the middle of the reply."
    case .cannotConnect(let server, let reason):
      // A reason that asks a question ends the sentence itself.
      return "Cannot connect to \(server): \(reason)" + (reason.hasSuffix("?") ? "" : ".")
    case .emptyReply:
      return "The model sent an empty reply."
    case .notEventStream(let contentType, let message):
      return "The server answered with \(contentType), not an event stream: is the base URL right?"
        + Self.detail(message)
    case .cutShort(.lengthLimit):
      return "The model stopped at its length limit: the reply is cut short."
    case .cutShort(.contentFilter):
      return "The model's content filter stopped the reply: it is cut short."
    case .outpaced(let bytes):
      return "The server sent more than \(Self.size(bytes)) ahead of what the reply could read, so the reply was "
        + "stopped there."
    case .replyTooLong(let bytes):
      return "The reply passed \(Self.size(bytes)) of text; the rest was not read."
    case .redirected(let status, let location):
      guard let location else {
        return "The server redirects (\(status)) without saying where; redirects are not followed."
      }
      return "The server redirects (\(status)) to \(location), which is not followed (it would carry the key there): "
        + "if that is the server, use it as the base URL."
    }
  }

  private static func detail(_ message: String?) -> String {
    guard let message, !message.isEmpty else { return "" }
    return " Server: \(message)"
  }

  /// `bytes` in the largest binary unit it is a whole number of (`32 MiB`, `100 KiB`, `17 bytes`).
  private static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  /// The most Unicode scalars of a server's text that are read (the message keeps at most
  /// 300 characters of them), so an error text of any size costs the same.
  package static let maximumServerTextScalars = 1200

  /// Server text made safe to keep: the key removed, control characters dropped, cut short.
  static func clean(_ text: String, key: ModelAPIKey?) -> String {
    var lookups = 0
    return clean(text, key: key, lookups: &lookups)
  }

  /// ``clean(_:key:)``, counting in `lookups` the pieces of the key looked up in the text.
  ///
  /// - Complexity: O(1) in the length of `text`: only its first ``maximumServerTextScalars``
  ///   scalars (and as many more as a piece of the key that starts among them needs) are read.
  package static func clean(_ text: String, key: ModelAPIKey?, lookups: inout Int) -> String {
    let limit = maximumServerTextScalars
    let scalars = text.unicodeScalars
    let cut = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex)
    let isLonger = cut.map { $0 != scalars.endIndex } ?? false
    let redacted = key?.redact(text, prefix: limit, lookups: &lookups) ?? String(scalars.prefix(limit))
    var visible = String.UnicodeScalarView()
    for scalar in redacted.unicodeScalars {
      visible.append(scalar.properties.generalCategory == .control ? " " : scalar)
    }
    let trimmed = String(visible).trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return "" }
    return trimmed.count > 300 || isLonger ? String(trimmed.prefix(300)) + "…" : trimmed
  }
}
