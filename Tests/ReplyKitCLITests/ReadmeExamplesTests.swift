import ChatEngine
import Foundation
import Testing

@testable import ReplyMarkdown

/// The Swift examples in README.md are this file's code, and they run here.
@Suite struct ReadmeExamplesTests {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The fenced `swift` blocks of README.md.
  static func readmeSwiftBlocks() throws -> [String] {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    var blocks: [String] = []
    var current: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  @Test func readmeLibraryExampleIsThisCode() throws {
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let blocks = try Self.readmeSwiftBlocks()
    #expect(!blocks.isEmpty)
    // The ChatModels example is checked by Tests/ChatModelsTests/ReadmeModelExampleTests.swift.
    for block in blocks where !block.contains("import ChatModels") {
      // Each README line (minus `import`) appears in the examples compiled below.
      for line in block.split(separator: "\n") where !line.hasPrefix("import ") && !line.isEmpty {
        #expect(source.contains(line), "README line not in the compiled example: \(line)")
      }
    }
  }

  @Test func libraryExample() {
    let reply = """
      Here is a **bold** claim and a list:

      - [x] parsed by cmark-gfm
      - [ ] rendered in Swift

      <script>alert(1)</script>
      """
    let document = MarkdownDocument(reply)  // GitHub's flavour: extensions and footnotes
    let html = HTMLRenderer().render(document)  // safe: the script tag is omitted
    assert(html.contains("<strong>bold</strong>"))
    assert(!html.contains("<script>"))
    assert(html == CmarkReference.html(reply))  // identical to the C library's own HTML

    // The tree is flat, in document order; every node knows where its subtree ends.
    for index in document.topLevelBlocks {
      if case .list(let list) = document.nodes[index].kind {
        assert(list.isTight && list.type == .bullet)
      }
    }
    #expect(html.contains("<strong>bold</strong>") && !html.contains("<script>"))
  }

  @Test func walkerExample() {
    var slack = SlackMrkdwn()
    MarkdownDocument("Read **the [docs](https://x.org)**:\n\n3. one\n4. ![logo](l.png)\n").walk(&slack)
    assert(slack.out == "Read *the <https://x.org|docs>*:\n\n3. one\n4. <l.png|logo>\n")
    #expect(slack.out == "Read *the <https://x.org|docs>*:\n\n3. one\n4. <l.png|logo>\n")
  }

  @Test func streamingExample() {
    var stream = MarkdownStream()
    var view = MarkdownStreamHTMLRenderer()
    for chunk in ["Here is **bo", "ld** text and `co", "de`."] {
      let edit = view.apply(stream.feed(chunk))  // keep `edit.keep` bytes, append `edit.appended`
      assert(!edit.appended.contains("**"))  // no raw markers flash while a construct is open
      #expect(!edit.appended.contains("**"))
    }
    _ = view.apply(stream.finish())
    assert(view.html == HTMLRenderer().render(MarkdownDocument("Here is **bold** text and `code`.")))
    #expect(view.html == "<p>Here is <strong>bold</strong> text and <code>code</code>.</p>\n")
  }

  @MainActor
  @Test func chatExampleRuns() async throws {
    let plain = PlainTextRenderer().render(MarkdownDocument("Use `sorted()` for a **new** array."))
    assert(plain == "Use sorted() for a new array.")
    #expect(plain == "Use sorted() for a new array.")
    try await chatExample()
  }
}

@MainActor
func chatExample() async throws {
  let thread = ChatThread(reply: { history in
    ChatReplyStream.make { write in
      for chunk in ["Sure, ", "here is ", "**bold** text."] { write(chunk) }
    }
  })
  try thread.send("Show me something bold")
  while thread.isStreaming { await Task.yield() }  // a view observes `messages` instead
  let reply = thread.messages[1]
  assert(reply.state == .complete && reply.text == "Sure, here is **bold** text.")
  assert(thread.shareText(for: reply.id) == "Sure, here is bold text.")
  #expect(thread.shareText(for: reply.id) == "Sure, here is bold text.")

  // A refused action throws why, and changes nothing.
  let question = thread.messages[0].id
  #expect(throws: ChatActionError.notLatest(question)) { try thread.regenerate(question) }
  do {
    try thread.regenerate(question)
  } catch {
    assert(error == .notLatest(question))  // only the latest reply can be asked again
  }

  // Regenerate keeps the old reply as an earlier version; showVersion brings it back.
  try thread.regenerate(reply.id)
  while thread.isStreaming { await Task.yield() }
  assert(thread.versions(at: 1)?.text == "Version 2 of 2")
  #expect(thread.versions(at: 1)?.text == "Version 2 of 2")
  try thread.showVersion(reply.id)
  assert(thread.messages[1].id == reply.id && thread.versions(of: reply.id)?.number == 1)
  #expect(thread.messages[1].id == reply.id && thread.versions(of: reply.id)?.number == 1)
}

/// The README's custom renderer: Slack's mrkdwn.
struct SlackMrkdwn: MarkdownWalker {
  var out = ""
  mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
    switch walk.document.nodes[index].kind {
    case .text(let text): out += text
    case .code(let code): out += "`\(code)`"
    case .strong: out += "*"
    case .emphasis: out += "_"
    case .strikethrough: out += "~"
    case .link(let link): out += "<\(link.destination)|"
    case .image(let image):  // the alt text written whole, its nodes skipped
      out += "<\(image.destination)|\(walk.document.plainText(of: index))>"
      return .skipChildren
    case .item:
      let list = walk.list  // the item's list: nesting, tightness, this item's number
      out += String(repeating: "  ", count: list?.nesting ?? 0)
      out += list?.info.type == .ordered ? "\(list?.itemNumber ?? 1). " : "• "
    case .softBreak, .lineBreak: out += "\n"
    default: break
    }
    return .visitChildren
  }
  mutating func exit(_ index: Int, in walk: MarkdownWalk) {
    switch walk.document.nodes[index].kind {
    case .strong: out += "*"
    case .emphasis: out += "_"
    case .strikethrough: out += "~"
    case .link: out += ">"
    case .paragraph, .heading, .codeBlock: out += walk.list?.isTight == true ? "\n" : "\n\n"
    default: break
    }
  }
}
