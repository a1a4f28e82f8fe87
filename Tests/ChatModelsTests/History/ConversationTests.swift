import ChatEngine
import ChatModels
import Foundation
import Testing

@Suite struct ConversationTests {
  @Test func theThreadAsShown() {
    let date = Date(timeIntervalSince1970: 0)
    let messages = [
      ChatMessage(role: .user, text: "one", date: date),
      ChatMessage(role: .assistant, text: "partial", date: date, state: .stopped),
      ChatMessage(role: .user, text: "two", date: date),
      ChatMessage(role: .assistant, text: "half", date: date, state: .failed("dropped")),
      ChatMessage(role: .assistant, text: "", date: date, state: .stopped),
      ChatMessage(role: .user, text: "  \n", date: date),
      ChatMessage(role: .user, text: "three", date: date),
    ]
    #expect(
      ModelTurn.conversation(from: messages) == [
        ModelTurn(role: .user, text: "one"), ModelTurn(role: .assistant, text: "partial"),
        ModelTurn(role: .user, text: "two"), ModelTurn(role: .user, text: "three"),
      ])
  }

  @Test func keyNeverPrints() throws {
    let key = try #require(ModelAPIKey(testKey))
    let endpoint = ModelEndpoint(
      api: .openai, baseURL: try #require(URL(string: "http://127.0.0.1:1/v1")), model: "m", apiKey: key)
    var dumped = ""
    dump(endpoint, to: &dumped)
    for text in ["\(key)", String(describing: endpoint), String(reflecting: endpoint), dumped] {
      #expect(!text.contains(testKey))
      #expect(!text.contains("ABCDEFGH"))
    }
    #expect(
      key.redact("Incorrect API key provided: \(testKey.prefix(10))****")
        == "Incorrect API key provided: <redacted>****")
  }
}
