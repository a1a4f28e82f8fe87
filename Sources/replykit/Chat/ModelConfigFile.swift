import ChatModels
import Foundation

/// `$XDG_CONFIG_HOME/replykit/config.json` (else `~/.config/replykit/config.json`): defaults
/// for `replykit chat --model` and named models.
///
/// ```json
/// {
///   "default_model": "local",
///   "system": "Answer briefly.",
///   "models": {
///     "local": { "api": "openai", "base_url": "http://localhost:11434/v1", "model": "llama3.2" },
///     "claude": { "api": "anthropic", "model": "claude-sonnet-4-5" }
///   }
/// }
/// ```
///
/// Top-level settings (`api`, `base_url`, `system`, `api_key_env`, `max_tokens`,
/// `connect_timeout`, `idle_timeout`, `allow_http_key`) apply to every model; a named model's
/// settings override them, and command-line options override both. Guarantees: a file that is
/// not JSON, has an unknown key or a value of the wrong type (a timeout over a day included) is a
/// ``CLIError`` of one line naming the file and the key (`config.json: models.local.api: …`); a
/// missing file is no error.
struct ModelConfigFile: Equatable {
  /// Settings of one model, or the defaults.
  struct Settings: Equatable {
    var api: ModelAPI?
    var baseURL: String?
    var model: String?
    var system: String?
    var apiKeyVariable: String?
    var maxTokens: Int?
    var connectTimeout: Double?
    var idleTimeout: Double?
    var allowsPlainHTTPKey: Bool?

    /// `self` with `other`'s settings on top.
    func overridden(by other: Settings) -> Settings {
      Settings(
        api: other.api ?? api, baseURL: other.baseURL ?? baseURL, model: other.model ?? model,
        system: other.system ?? system, apiKeyVariable: other.apiKeyVariable ?? apiKeyVariable,
        maxTokens: other.maxTokens ?? maxTokens, connectTimeout: other.connectTimeout ?? connectTimeout,
        idleTimeout: other.idleTimeout ?? idleTimeout,
        allowsPlainHTTPKey: other.allowsPlainHTTPKey ?? allowsPlainHTTPKey)
    }
  }

  /// The model used when `--model` is not given, if any.
  var defaultModel: String?
  /// Settings for every model.
  var defaults = Settings()
  /// Named models.
  var models: [String: Settings] = [:]

  /// Where the file is for `environment`.
  static func path(environment: [String: String]) -> String? {
    if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/replykit/config.json" }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.config/replykit/config.json"
  }

  /// Loads the file at `path`; an empty configuration when there is none.
  static func load(path: String?) throws -> ModelConfigFile {
    guard let path, FileManager.default.fileExists(atPath: path) else { return ModelConfigFile() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError.failure("\(path): cannot be read")
    }
    return try parse(data, name: path)
  }

  /// Parses the JSON `data` of the file called `name` (in messages).
  static func parse(_ data: Data, name: String) throws -> ModelConfigFile {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      throw CLIError.failure("\(name): not valid JSON\(detail.map { ": \($0)" } ?? "")")
    }
    guard let object = root as? [String: Any] else { throw CLIError.failure("\(name): must be a JSON object") }
    var file = ModelConfigFile()
    for (key, value) in object where !settingKeys.contains(key) {
      switch key {
      case "default_model": file.defaultModel = try string(value, at: "default_model", in: name)
      case "models":
        guard let models = value as? [String: Any] else {
          throw CLIError.failure("\(name): models: must be an object of named models")
        }
        for (model, settings) in models {
          guard let settings = settings as? [String: Any] else {
            throw CLIError.failure("\(name): models.\(model): must be an object")
          }
          file.models[model] = try parseSettings(settings, at: "models.\(model).", in: name, allowsModel: true)
        }
      default:
        throw CLIError.failure(
          "\(name): \(key): unknown setting (known: \((settingKeys + ["default_model", "models"]).sorted().joined(separator: ", ")))"
        )
      }
    }
    file.defaults = try parseSettings(
      object.filter { settingKeys.contains($0.key) }, at: "", in: name, allowsModel: false)
    if let model = file.defaultModel, model.isEmpty {
      throw CLIError.failure("\(name): default_model: must not be empty")
    }
    return file
  }

  private static let settingKeys = [
    "api", "base_url", "system", "api_key_env", "max_tokens", "connect_timeout", "idle_timeout",
    "allow_http_key",
  ]

  private static func parseSettings(
    _ object: [String: Any], at prefix: String, in name: String, allowsModel: Bool
  ) throws -> Settings {
    var settings = Settings()
    for (key, value) in object {
      let place = prefix + key
      switch key {
      case "api":
        let text = try string(value, at: place, in: name)
        guard let api = ModelAPI(rawValue: text) else {
          throw CLIError.failure("\(name): \(place): must be \"openai\" or \"anthropic\", not \"\(text)\"")
        }
        settings.api = api
      case "base_url":
        let text = try string(value, at: place, in: name)
        guard URL(string: text)?.scheme.map({ ["http", "https"].contains($0) }) == true else {
          throw CLIError.failure(
            "\(name): \(place): must be an http:// or https:// URL, not \"\(ModelChoice.shown(text))\"")
        }
        settings.baseURL = text
      case "model" where allowsModel: settings.model = try string(value, at: place, in: name)
      case "system": settings.system = try string(value, at: place, in: name)
      case "api_key_env": settings.apiKeyVariable = try string(value, at: place, in: name)
      case "max_tokens":
        guard let number = value as? Int, number > 0, !(value is Bool) else {
          throw CLIError.failure("\(name): \(place): must be a positive whole number")
        }
        settings.maxTokens = number
      case "connect_timeout", "idle_timeout":
        guard let number = (value as? NSNumber)?.doubleValue, number > 0, !(value is Bool) else {
          throw CLIError.failure("\(name): \(place): must be a positive number of seconds")
        }
        guard number <= ModelTimeouts.maximumSeconds else {
          throw CLIError.failure(
            "\(name): \(place): must be at most \(Int(ModelTimeouts.maximumSeconds)) seconds (a day), not \(number)")
        }
        if key == "connect_timeout" { settings.connectTimeout = number } else { settings.idleTimeout = number }
      case "allow_http_key":
        guard let flag = value as? Bool else {
          throw CLIError.failure("\(name): \(place): must be true or false")
        }
        settings.allowsPlainHTTPKey = flag
      default:
        throw CLIError.failure("\(name): \(place): unknown setting")
      }
    }
    return settings
  }

  private static func string(_ value: Any, at place: String, in name: String) throws -> String {
    guard let text = value as? String else { throw CLIError.failure("\(name): \(place): must be a string") }
    return text
  }
}
