import Foundation

/// Event streams as the two APIs document them, byte for byte.
package enum Wire {
  /// An OpenAI chunk carrying `content` (JSON-escaped here).
  package static func openAIChunk(_ content: String, finish: String? = nil) -> String {
    let escaped = String(
      decoding: (try? JSONSerialization.data(withJSONObject: [content], options: [])) ?? Data(), as: UTF8.self
    )
    .dropFirst().dropLast()
    let reason = finish.map { "\"\($0)\"" } ?? "null"
    return
      "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\(escaped)},\"finish_reason\":\(reason)}]}\n\n"
  }

  /// A whole OpenAI stream for `pieces`: a role chunk, the pieces, a finish chunk, `[DONE]`.
  package static func openAIStream(_ pieces: [String]) -> String {
    "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
      + ": keep-alive\n\n" + pieces.map { openAIChunk($0) }.joined()
      + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
      + "data: [DONE]\n\n"
  }

  /// An Anthropic `content_block_delta` event with `text`.
  package static func anthropicDelta(_ text: String) -> String {
    let escaped = String(
      decoding: (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data(), as: UTF8.self
    )
    .dropFirst().dropLast()
    return
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\(escaped)}}\n\n"
  }

  /// The start of an Anthropic stream, up to the first delta.
  package static let anthropicStart =
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n"
    + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
    + "event: ping\ndata: {\"type\": \"ping\"}\n\n"

  /// The end of an Anthropic stream.
  package static let anthropicEnd =
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
    + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}\n\n"
    + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

  /// A whole Anthropic stream for `pieces`.
  package static func anthropicStream(_ pieces: [String]) -> String {
    anthropicStart + pieces.map(anthropicDelta).joined() + anthropicEnd
  }

  /// `text` as body steps of `size` bytes each (so boundaries fall inside events, lines and
  /// UTF-8 characters), with a short pause between them.
  package static func pieces(_ text: String, size: Int, pause: Double = 0.002) -> [LocalModelServer.Step] {
    let bytes = Array(text.utf8)
    return stride(from: 0, to: bytes.count, by: size).flatMap { start in
      [LocalModelServer.Step.body(Array(bytes[start..<min(start + size, bytes.count)])), .pause(pause)]
    }
  }

  /// The head of an event stream.
  package static let eventStreamHead = LocalModelServer.Step.head(
    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
}
