import Foundation

/// Where replies come from: the protocol, the server, the model, the key and the system prompt.
///
/// A value; the key prints as `<redacted>` wherever the endpoint is printed.
public struct ModelEndpoint: Sendable, Hashable {
  /// The wire protocol.
  public var api: ModelAPI
  /// The base URL (`https://api.openai.com/v1`, `http://localhost:11434/v1`,
  /// `https://api.anthropic.com`); the protocol's path is appended to its path, its query is
  /// kept (``requestURL``). A user name or password in it is sent but never shown
  /// (``displayURL``).
  public var baseURL: URL
  /// The model name the server knows.
  public var model: String
  /// The key, if the server needs one (local servers usually do not). It is sent to ``baseURL``
  /// whatever that is, plain `http://` included (redirects are never followed): which key goes to
  /// which server is the app's choice (`replykit chat` sends `OPENAI_API_KEY` only to
  /// `https://api.openai.com`).
  public var apiKey: ModelAPIKey?
  /// Where the key came from (an environment variable's name), for error messages.
  public var apiKeySource: String?
  /// The system prompt, if any: a `system` message (OpenAI) or the `system` field (Anthropic).
  public var systemPrompt: String?
  /// The most tokens a reply may have (Anthropic requires it; OpenAI sends it only when set).
  public var maxTokens: Int?
  /// Timeouts.
  public var timeouts: ModelTimeouts

  /// Creates an endpoint.
  public init(
    api: ModelAPI, baseURL: URL, model: String, apiKey: ModelAPIKey? = nil, apiKeySource: String? = nil,
    systemPrompt: String? = nil, maxTokens: Int? = nil, timeouts: ModelTimeouts = ModelTimeouts()
  ) {
    self.api = api
    self.baseURL = baseURL
    self.model = model
    self.apiKey = apiKey
    self.apiKeySource = apiKeySource
    self.systemPrompt = systemPrompt
    self.maxTokens = maxTokens
    self.timeouts = timeouts
  }

  /// The URL requests go to: the base URL with the protocol's path appended to its path (after
  /// any trailing `/`), its query kept (`?api-version=…`) and its fragment left out (a fragment
  /// is never sent to a server).
  public var requestURL: URL {
    let path =
      switch api {
      case .openai: "chat/completions"
      case .anthropic: "v1/messages"
      }
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
      return baseURL.appendingPathComponent(path)
    }
    var basePath = components.percentEncodedPath
    while basePath.hasSuffix("/") { basePath.removeLast() }
    components.percentEncodedPath = basePath + "/" + path
    components.fragment = nil
    return components.url ?? baseURL.appendingPathComponent(path)
  }

  /// ``requestURL`` as messages show it: without a user name, password or query, which may
  /// hold secrets (`https://user:password@host/…`, `?key=…`).
  public var displayURL: String {
    guard var components = URLComponents(url: requestURL, resolvingAgainstBaseURL: true) else {
      return serverName
    }
    components.user = nil
    components.password = nil
    components.query = nil
    return components.string ?? serverName
  }

  /// `host:port` of the server, for messages.
  var serverName: String {
    let host = baseURL.host ?? "the server"
    return baseURL.port.map { "\(host):\($0)" } ?? host
  }
}
