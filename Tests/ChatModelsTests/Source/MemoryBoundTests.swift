import ChatEngine
import Foundation
import ReplyKitTestSupport
import Testing

@testable import ChatModels

/// Whatever a server sends, a reply holds a bounded amount of memory, and ends with an error that
/// says why, its text so far kept (the bounds are made small here; the defaults are 32 MiB).
@Suite(.serialized, .timeLimit(.minutes(1))) struct MemoryBoundTests {
  /// A reply that goes on past the most text a reply holds fails there, keeping what came.
  @Test(arguments: [ModelAPI.openai, .anthropic])
  func aReplyPastTheMostTextFailsKeepingItsText(api: ModelAPI) async throws {
    let piece = String(repeating: "word ", count: 200)
    let pieces = Array(repeating: piece, count: 300)
    let wire = api == .openai ? Wire.openAIStream(pieces) : Wire.anthropicStream(pieces)
    let server = try LocalModelServer([[Wire.eventStreamHead, .text(wire), .end]])
    var source = ModelReplySource(endpoint: endpoint(api, server))
    source.limits = ModelReplySource.Limits(replyBytes: 100 << 10)
    let result = await collect(source.stream(history: history()))
    #expect(result.error as? ModelError == .replyTooLong(bytes: 100 << 10))
    #expect(result.message == "The reply passed 100 KiB of text; the rest was not read.")
    #expect(result.text.utf8.count == 100 << 10)
    #expect(pieces.joined().hasPrefix(result.text))
  }

  /// A body that arrives while nobody reads it is held only up to the bound: then the response
  /// ends with an error and its connection closes, and what was held is still read before it.
  @Test func bodyNobodyReadsIsHeldOnlyUpToTheBound() async throws {
    let server = try LocalModelServer([
      [Wire.eventStreamHead] + Array(repeating: .body(Array(repeating: UInt8(ascii: "x"), count: 64 << 10)), count: 64)
        + [.end]
    ])
    let source = ModelReplySource(endpoint: endpoint(.openai, server))
    let bound = 256 << 10
    let parts = _StreamingHTTPClient.stream(
      source.request(for: history()), timeouts: ModelTimeouts(), server: "test", mostUnreadBytes: bound)
    // Nothing is read until the response has ended: the 4 MiB body cannot have fitted.
    let deadline = Date().addingTimeInterval(30)
    while !parts.hasEnded && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(parts.hasEnded)
    var bodyBytes = 0
    var status: Int?
    var failure: (any Error)?
    do {
      for try await part in parts {
        switch part {
        case .head(let code, _): status = code
        case .body(let data): bodyBytes += data.count
        }
      }
    } catch {
      failure = error
    }
    #expect(status == 200)
    #expect(failure as? ModelError == .outpaced(bytes: bound))
    #expect(bodyBytes > 0 && bodyBytes <= bound)
    #expect(
      (failure as? ModelError)?.errorDescription
        == "The server sent more than 256 KiB ahead of what the reply could read, so the reply was stopped there.")
  }
}
