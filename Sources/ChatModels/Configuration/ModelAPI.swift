/// The wire protocol a model server speaks.
public enum ModelAPI: String, Hashable, Sendable, CaseIterable {
  /// OpenAI-compatible Chat Completions (`POST {base}/chat/completions`, `stream: true`): OpenAI,
  /// Ollama, llama.cpp's server, vLLM, LM Studio, OpenRouter and others.
  case openai
  /// Anthropic Messages (`POST {base}/v1/messages`, `stream: true`).
  case anthropic

  /// The base URL used when none is given.
  public var defaultBaseURL: String {
    switch self {
    case .openai: "https://api.openai.com/v1"
    case .anthropic: "https://api.anthropic.com"
    }
  }

  /// The environment variable the key is read from when none is named.
  public var defaultKeyVariable: String {
    switch self {
    case .openai: "OPENAI_API_KEY"
    case .anthropic: "ANTHROPIC_API_KEY"
    }
  }
}
