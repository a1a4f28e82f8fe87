import ChatModels
import Foundation
import Testing

@testable import replykit

/// Which server gets which key: the default variables go only to the providers over https on
/// the default port, no key crosses the network in plain http unless allowed, and base URLs and
/// timeouts that cannot work are refused with one line saying why.
@Suite struct ModelChoiceTests {
  private func endpoint(
    _ base: String, keyVariable: String? = nil, allowsPlainHTTPKey: Bool? = nil, api: ModelAPI = .openai
  ) throws -> ModelEndpoint? {
    try ModelChoice.endpoint(
      ModelChoice.Arguments(
        model: "m", baseURL: base, api: api, apiKeyVariable: keyVariable, allowsPlainHTTPKey: allowsPlainHTTPKey),
      config: ModelConfigFile(),
      environment: ["OPENAI_API_KEY": "sk-default", "ANTHROPIC_API_KEY": "sk-ant", "MY_KEY": "sk-mine"])
  }

  private func refusal(_ base: String, keyVariable: String? = nil, api: ModelAPI = .openai) -> String {
    let error = #expect(throws: CLIError.self) { try endpoint(base, keyVariable: keyVariable, api: api) }
    return error?.message ?? ""
  }

  @Test func theDefaultKeyGoesOnlyToTheProviderOverHTTPS() throws {
    #expect(try endpoint("https://api.openai.com/v1")?.apiKey == ModelAPIKey("sk-default"))
    #expect(try endpoint("https://API.OpenAI.com:443/v1")?.apiKey == ModelAPIKey("sk-default"))
    #expect(try endpoint("https://api.anthropic.com", api: .anthropic)?.apiKey == ModelAPIKey("sk-ant"))
    for base in ["http://api.openai.com/v1", "https://api.openai.com:8443/v1", "http://api.openai.com:443/v1"] {
      #expect(
        refusal(base).hasPrefix("$OPENAI_API_KEY is sent only to https://api.openai.com (port 443), not to "),
        "\(base)")
    }
    #expect(refusal("http://api.anthropic.com", api: .anthropic).contains("use https://api.anthropic.com"))
  }

  @Test func noKeyOverPlainHTTPToAnotherMachineUnlessAllowed() throws {
    let message = refusal("http://192.168.1.5:8000/v1", keyVariable: "MY_KEY")
    #expect(
      message
        == "the key in $MY_KEY would cross the network unencrypted to http://192.168.1.5:8000/v1 (plain http://): "
        + "use https://, or add --allow-http-key (allow_http_key in the config file) if you trust every network on the way"
    )
    #expect(refusal("http://api.openai.com.evil.example/v1", keyVariable: "OPENAI_API_KEY").contains("unencrypted"))
    let allowed = try endpoint("http://192.168.1.5:8000/v1", keyVariable: "MY_KEY", allowsPlainHTTPKey: true)
    #expect(allowed?.apiKey == ModelAPIKey("sk-mine"))
    // (`[::1]` is loopback too, ModelChoice.isLoopback, but refused on Linux as unreachable.)
    for local in ["http://localhost:8080/v1", "http://127.0.0.1:1/v1", "http://127.8.9.10/v1"] {
      #expect(try endpoint(local, keyVariable: "MY_KEY")?.apiKey == ModelAPIKey("sk-mine"), "\(local)")
    }
    #expect(try endpoint("https://10.0.0.1/v1", keyVariable: "MY_KEY")?.apiKey == ModelAPIKey("sk-mine"))
    // Without a key there is nothing to protect.
    #expect(try endpoint("http://192.168.1.5:8000/v1")?.apiKey == nil)
  }

  @Test func loopbackHosts() {
    for host in ["localhost", "127.0.0.1", "127.255.0.9", "::1", "[::1]"] { #expect(ModelChoice.isLoopback(host)) }
    for host in ["127.0.0.1.nip.io", "128.0.0.1", "127.0.0", "127.0.0.256", "localhost.example", "::2", "10.0.0.1"] {
      #expect(!ModelChoice.isLoopback(host), "\(host)")
    }
  }

  /// FoundationNetworking cannot reach `[::1]` (every request fails with URLError -1000): the
  /// address is refused up front, saying what to use instead.
  @Test(.enabled(if: isLinux, "FoundationNetworking is the HTTP client on Linux only"))
  func anIPv6AddressIsRefusedWithWhatToUseInstead() {
    #expect(
      refusal("http://[::1]:11434/v1")
        == "--base-url http://[::1]:11434/v1: this build's HTTP client cannot reach an IPv6 address in brackets; "
        + "use a host name for it (localhost for ::1) or an IPv4 address")
  }

  @Test func aFragmentIsRefusedAndAPasswordNeverShown() throws {
    #expect(
      refusal("http://localhost/v1#x")
        == "--base-url http://localhost/v1#x has a fragment ('#x'), which is never sent to a server: remove it")
    #expect(!refusal("http://user:p4ssw0rd@localhost/v1#x").contains("p4ssw0rd"))
    #expect(!refusal("ftp://user:p4ssw0rd@host/").contains("p4ssw0rd"))
    #expect(ModelChoice.shown("https://u:p@h:1/v1?q=a@b") == "https://h:1/v1?q=a@b")
    #expect(ModelChoice.shown("http://h/v1") == "http://h/v1")
    let config = #expect(throws: CLIError.self) {
      try ModelConfigFile.parse(Data(#"{"base_url": "ftp://u:p4ssw0rd@h/"}"#.utf8), name: "config.json")
    }
    #expect(config?.message == #"config.json: base_url: must be an http:// or https:// URL, not "ftp://h/""#)
  }

  @Test func timeoutsOverADayAreRefusedNamingTheSetting() throws {
    let error = #expect(throws: CLIError.self) {
      try ModelConfigFile.parse(Data(#"{"models": {"m": {"idle_timeout": 1e16}}}"#.utf8), name: "config.json")
    }
    #expect(error?.message == "config.json: models.m.idle_timeout: must be at most 86400 seconds (a day), not 1e+16")
    let connect = #expect(throws: CLIError.self) {
      try ModelConfigFile.parse(Data(#"{"connect_timeout": 86401}"#.utf8), name: "config.json")
    }
    #expect(connect?.message.hasPrefix("config.json: connect_timeout: must be at most 86400 seconds") == true)
    let day = try ModelConfigFile.parse(Data(#"{"idle_timeout": 86400, "allow_http_key": true}"#.utf8), name: "c")
    #expect(day.defaults.idleTimeout == 86_400)
    #expect(day.defaults.allowsPlainHTTPKey == true)
    let flag = #expect(throws: CLIError.self) {
      try ModelConfigFile.parse(Data(#"{"allow_http_key": "yes"}"#.utf8), name: "c")
    }
    #expect(flag?.message == "c: allow_http_key: must be true or false")
  }

  @Test func theFlagParsesAndNeedsAModel() throws {
    let environment = ["XDG_CONFIG_HOME": "/nonexistent-replykit-config", "MY_KEY": "sk-mine"]
    let options = try ChatOptions.parse(
      ["--model", "m", "--base-url", "http://10.1.2.3/v1", "--api-key-env", "MY_KEY", "--allow-http-key"],
      environment: environment)
    #expect(options?.model?.apiKey == ModelAPIKey("sk-mine"))
    let alone = #expect(throws: CLIError.self) {
      try ChatOptions.parse(["--allow-http-key"], environment: environment)
    }
    #expect(alone?.message.contains("need --model NAME") == true)
  }
}

#if os(Linux)
  private let isLinux = true
#else
  private let isLinux = false
#endif
