import ChatModels
import Testing

@testable import replykit

/// A key with a line break inside was dropped by the HTTP client without a word, and the server
/// then blamed the key (a trial): it is refused up front.
@Suite struct ModelKeyTextTests {
  private func endpoint(key: String) throws -> ModelEndpoint? {
    try ModelChoice.endpoint(
      ModelChoice.Arguments(model: "m", baseURL: "http://localhost:8080/v1", apiKeyVariable: "LOCAL_KEY"),
      config: ModelConfigFile(), environment: ["LOCAL_KEY": key])
  }

  @Test(arguments: ["sk-abc\r\nX-Injected: 1", "sk-a\u{7F}b", "sk-a\tb"])
  func aKeyWithAControlCharacterInsideIsRefused(key: String) {
    let error = #expect(throws: CLIError.self) { try endpoint(key: key) }
    #expect(error?.message.hasPrefix("$LOCAL_KEY holds a line break or another control character") == true)
  }

  /// Blanks and line breaks around the key are trimmed, as before.
  @Test func blanksAroundTheKeyAreTrimmed() throws {
    #expect(try endpoint(key: " sk-abc\n")?.apiKey == ModelAPIKey("sk-abc"))
  }

  /// A variable set but empty or blank is said to be empty, not unset (a trial: "is not set").
  @Test(arguments: ["", "  \n"])
  func anEmptyKeyIsSaidToBeEmpty(key: String) {
    let error = #expect(throws: CLIError.self) { try endpoint(key: key) }
    #expect(error?.message == "$LOCAL_KEY is empty (named by --api-key-env or api_key_env)")
    let unset = #expect(throws: CLIError.self) {
      try ModelChoice.endpoint(
        ModelChoice.Arguments(model: "m", baseURL: "http://localhost:8080/v1", apiKeyVariable: "LOCAL_KEY"),
        config: ModelConfigFile(), environment: [:])
    }
    #expect(unset?.message == "$LOCAL_KEY is not set (named by --api-key-env or api_key_env)")
  }
}
