import ChatModels
import Foundation

/// The model `replykit chat` talks to, from its options, the config file and the environment.
///
/// Guarantees: the key is read from the environment variable only (never from arguments or the
/// config file) and is held as a ``ModelAPIKey``, which never prints; errors name the variable.
/// The default variables (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) hold keys for the providers' own
/// servers and go only there; a key for any other server comes from a variable named for it
/// (`--api-key-env`, `api_key_env`), so a paid key never reaches a server it was not meant for.
enum ModelChoice {
  /// The command-line options that choose a model.
  struct Arguments: Equatable {
    var model: String?
    var baseURL: String?
    var api: ModelAPI?
    var system: String?
    var apiKeyVariable: String?

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
        throw CLIError.usage("--base-url, --api, --system and --api-key-env need --model NAME")
      }
      return nil
    }
    let named = config.models[name]
    var settings = config.defaults.overridden(by: named ?? ModelConfigFile.Settings())
    settings = settings.overridden(
      by: ModelConfigFile.Settings(
        api: arguments.api, baseURL: arguments.baseURL, system: arguments.system,
        apiKeyVariable: arguments.apiKeyVariable))
    let api = settings.api ?? .openai
    let model = named?.model ?? name
    let base = settings.baseURL ?? api.defaultBaseURL
    guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
    else {
      throw CLIError.usage("--base-url must be an http:// or https:// URL, not '\(base)'")
    }
    let variable = settings.apiKeyVariable ?? api.defaultKeyVariable
    let isProvider = url.host == URL(string: api.defaultBaseURL)?.host
    let key = settings.apiKeyVariable != nil || isProvider ? environment[variable].flatMap(ModelAPIKey.init) : nil
    if key == nil {
      if settings.apiKeyVariable != nil {
        throw CLIError.usage("$\(variable) is not set (named by --api-key-env or api_key_env)")
      }
      if let host = url.host, ["api.openai.com", "api.anthropic.com"].contains(host) {
        throw CLIError.usage("\(host) needs a key: set $\(variable) (or name another variable with --api-key-env)")
      }
    }
    var timeouts = ModelTimeouts()
    if let connect = settings.connectTimeout { timeouts.connect = connect }
    if let idle = settings.idleTimeout { timeouts.idle = idle }
    return ModelEndpoint(
      api: api, baseURL: url, model: model, apiKey: key, apiKeySource: key == nil ? nil : variable,
      systemPrompt: settings.system.flatMap { $0.isEmpty ? nil : $0 }, maxTokens: settings.maxTokens,
      timeouts: timeouts)
  }
}
