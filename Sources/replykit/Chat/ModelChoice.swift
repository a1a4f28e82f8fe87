import ChatModels
import Foundation

/// The model `replykit chat` talks to, from its options, the config file and the environment.
///
/// Guarantees: the key is read from the environment variable only (never from arguments or the
/// config file) and is held as a ``ModelAPIKey``, which never prints; errors name the variable.
/// The default variables (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) hold keys for the providers' own
/// servers and go only there; a key for any other server comes from a variable named for it
/// (`--api-key-env`, `api_key_env`), so a paid key never reaches a server it was not meant for.
/// The default variables go only to `https://` on the default port. No key is sent over plain
/// `http://` to a host other than this machine (`localhost`, `127.x.x.x`, `::1`) unless
/// `--allow-http-key` (`allow_http_key`) says the network is trusted; a server on this machine is
/// reached without the proxy of `http_proxy` or `all_proxy` (``proxyBypass(for:environment:)``),
/// so its key never reaches the proxy either. A base URL with a
/// `#fragment` is refused; a user name or password in it is never shown in messages.
enum ModelChoice {
  /// The command-line options that choose a model.
  struct Arguments: Equatable {
    var model: String?
    var baseURL: String?
    var api: ModelAPI?
    var system: String?
    var apiKeyVariable: String?
    /// `--allow-http-key`: a key may go over plain `http://` to another machine.
    var allowsPlainHTTPKey: Bool?

    /// Whether any model option was given.
    var isEmpty: Bool { self == Arguments() }
  }

  /// The endpoint for `arguments`, or `nil` when no model is chosen (no `--model` and no
  /// `default_model`).
  static func endpoint(
    _ arguments: Arguments, config: ModelConfigFile, environment: [String: String]
  ) throws -> ModelEndpoint? {
    guard let name = arguments.model ?? config.defaultModel else {
      if !arguments.isEmpty {
        throw CLIError.usage("--base-url, --api, --system, --api-key-env and --allow-http-key need --model NAME")
      }
      return nil
    }
    let named = config.models[name]
    var settings = config.defaults.overridden(by: named ?? ModelConfigFile.Settings())
    settings = settings.overridden(
      by: ModelConfigFile.Settings(
        api: arguments.api, baseURL: arguments.baseURL, system: arguments.system,
        apiKeyVariable: arguments.apiKeyVariable, allowsPlainHTTPKey: arguments.allowsPlainHTTPKey))
    let api = settings.api ?? .openai
    let model = named?.model ?? name
    let base = settings.baseURL ?? api.defaultBaseURL
    guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      let host = url.host?.lowercased(), !host.isEmpty
    else {
      throw CLIError.usage("--base-url must be an http:// or https:// URL, not '\(shown(base))'")
    }
    if let fragment = url.fragment {
      throw CLIError.usage(
        "--base-url \(shown(base)) has a fragment ('#\(fragment)'), which is never sent to a server: remove it")
    }
    #if canImport(FoundationNetworking)
      // FoundationNetworking fails every request to an IPv6 address in brackets (URLError -1000).
      if host.contains(":") {
        throw CLIError.usage(
          "--base-url \(shown(base)): this build's HTTP client cannot reach an IPv6 address in brackets; "
            + "use a host name for it (localhost for ::1) or an IPv4 address")
      }
    #endif
    let variable = settings.apiKeyVariable ?? api.defaultKeyVariable
    let provider = URL(string: api.defaultBaseURL)?.host ?? ""
    let isProvider = scheme == "https" && host == provider && (url.port ?? 443) == 443
    if settings.apiKeyVariable == nil, !isProvider, host == provider {
      throw CLIError.usage(
        "$\(variable) is sent only to https://\(provider) (port 443), not to \(shown(base)): use https://\(provider)"
      )
    }
    let key = settings.apiKeyVariable != nil || isProvider ? environment[variable].flatMap(ModelAPIKey.init) : nil
    // A header cannot carry a line break or another control character: the HTTP client would drop
    // the header, and the server would then blame the key.
    if let key, key.value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw CLIError.usage(
        "$\(variable) holds a line break or another control character inside the key, which no HTTP header can "
          + "carry: set it to the key alone")
    }
    if key == nil {
      if settings.apiKeyVariable != nil {
        // Set but empty (or blank) is said so: the fix differs (a key copied wrong, not a name).
        let state = environment[variable] == nil ? "is not set" : "is empty"
        throw CLIError.usage("$\(variable) \(state) (named by --api-key-env or api_key_env)")
      }
      if isProvider {
        throw CLIError.usage("\(host) needs a key: set $\(variable) (or name another variable with --api-key-env)")
      }
    }
    if key != nil, scheme == "http", !isLoopback(host), settings.allowsPlainHTTPKey != true {
      throw CLIError.usage(
        "the key in $\(variable) would cross the network unencrypted to \(shown(base)) (plain http://): use https://, "
          + "or add --allow-http-key (allow_http_key in the config file) if you trust every network on the way")
    }
    var timeouts = ModelTimeouts()
    if let connect = settings.connectTimeout { timeouts.connect = connect }
    if let idle = settings.idleTimeout { timeouts.idle = idle }
    return ModelEndpoint(
      api: api, baseURL: url, model: model, apiKey: key, apiKeySource: key == nil ? nil : variable,
      systemPrompt: settings.system.flatMap { $0.isEmpty ? nil : $0 }, maxTokens: settings.maxTokens,
      timeouts: timeouts)
  }

  /// The proxy variables libcurl (FoundationNetworking's HTTP client on Linux) reads for an
  /// `http://` or `https://` request; upper-case `HTTP_PROXY` it ignores.
  static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

  /// The `no_proxy` value that keeps requests to `url` off every proxy, when `url` is on this
  /// machine and a proxy variable is set (nil otherwise): the variable's value (`no_proxy`, else
  /// `NO_PROXY`) with the host added. A proxy cannot reach this machine's own servers, and a key
  /// sent to one over plain `http://` would cross the network unencrypted to the proxy (a trial:
  /// `http_proxy` set, the key for a local server went to the proxy's host).
  static func proxyBypass(for url: URL, environment: [String: String]) -> String? {
    guard let host = url.host?.lowercased(), isLoopback(host),
      proxyVariables.contains(where: { environment[$0]?.isEmpty == false })
    else { return nil }
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    let existing = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    return existing.isEmpty ? bare : existing + "," + bare
  }

  /// Whether `host` (lowercased) is this machine: `localhost`, `127.0.0.0/8` or `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
    let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
    let isNumber = { (octet: Substring) in octet.allSatisfy { ("0"..."9").contains($0) } && UInt8(octet) != nil }
    return octets.count == 4 && octets.first == "127" && octets.allSatisfy(isNumber)
  }

  /// `text` (a URL) as messages show it: without a user name or password.
  static func shown(_ text: String) -> String {
    guard let schemeEnd = text.range(of: "://") else { return text }
    let authorityEnd = text[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? text.endIndex
    guard let at = text[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else { return text }
    return String(text[..<schemeEnd.upperBound]) + String(text[text.index(after: at)...])
  }
}
