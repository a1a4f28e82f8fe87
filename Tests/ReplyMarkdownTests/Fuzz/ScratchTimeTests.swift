import Foundation
import Testing
@testable import ReplyKitFuzz
@testable import ReplyMarkdown

@Suite struct ScratchTimeTests {
  @Test func scratchFoot() throws {
    let text = "\n[^a]:[^a]\n\n[^a]:  [^a]\n\n    # f"
    var stream = MarkdownStream()
    let bytes = Array(text.utf8)
    var update = stream.feed(bytes: bytes[0..<4])
    for start in stride(from: 4, to: bytes.count, by: 4) { update = stream.feed(bytes: bytes[start..<min(bytes.count, start + 4)]) }
    print("SCRATCH closedEnd", stream.closedEnd, "committedEnd", stream.committedEnd, "held", stream.held.count)
    let open = stream.source[stream.closedEnd...]
    print("SCRATCH open", String(decoding: open, as: UTF8.self).debugDescription)
    let pre = stream.definitions.preamble(for: open)
    print("SCRATCH preamble", String(decoding: pre.bytes, as: UTF8.self).debugDescription)
    print("SCRATCH tail", HTMLRenderer().render(update.tail.remainder).debugDescription)
    print("SCRATCH held", update.held.map { HTMLRenderer().render($0.document) })
  }
}
