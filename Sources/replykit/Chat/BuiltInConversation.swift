import ChatEngine
import Foundation

/// The built-in reply source and the spec's Example conversation.
///
/// The Example is the preview's question and answer from earlier today, then a follow-up whose
/// reply streams a template with a code block. Every other message gets a stub reply: streamed
/// markdown that quotes the question and says how to connect a real model. Chunks are words
/// (with the white space after them), one every ``pace``; a pace of zero streams as fast as the
/// engine takes them.
struct BuiltInConversation: Sendable {
  /// The time between two chunks.
  let pace: Duration

  /// The follow-up question of the Example.
  static let followUp = "Can you give me a template for a screen that loads its data like that?"

  /// The reply to ``followUp``: a template with a code block.
  static let template = """
    Here is a template you can start from. The view owns a **loading state**, starts the work in \
    `.task` (which is cancelled when the view goes away) and never blocks the main actor:

    ```swift
    struct ItemsScreen: View {
      @State private var items: [Item] = []
      @State private var isLoading = true
      let store: ItemStore

      var body: some View {
        List(items) { item in
          Text(item.title)
        }
        .overlay { if isLoading { ProgressView() } }
        .task {
          items = (try? await store.load()) ?? []
          isLoading = false
        }
      }
    }
    ```

    - `store.load()` is `async`, so the slow part runs off the main actor.
    - `@State` updates happen back on the main actor, where SwiftUI wants them.
    - Pull to refresh is one more modifier: `.refreshable { await reload() }`.

    Swap `ItemStore` for your own type and you are done.
    """

  /// The Example thread: the sample question and answer earlier today, then the follow-up now
  /// (so its reply starts streaming as soon as the thread exists).
  static func messages(now: Date, calendar: Calendar = .current) -> [ChatMessage] {
    let startOfDay = calendar.startOfDay(for: now)
    let earlier = max(startOfDay, now.addingTimeInterval(-2 * 3600))
    return ChatMessage.sample(at: earlier) + [ChatMessage(role: .user, text: followUp, date: now)]
  }

  /// The stub's reply to a real follow-up.
  static func stubReply(to question: String) -> String {
    let quoted = question.split(separator: "\n", omittingEmptySubsequences: false).prefix(6)
      .map { "> " + $0 }.joined(separator: "\n")
    return """
      You asked:

      \(quoted)

      This is ReplyKit's **built-in stub**, so here is a sketch of an answer rather than a real one:

      1. Replies stream in word by word, the way a model writes them.
      2. Press `Esc` to stop one; `/regenerate` asks again, `/copy` copies it.
      3. Use `--reply-command` to talk to a real model, for example:

      ```sh
      replykit chat --reply-command 'llm "$(jq -r .messages[-1].text)"'
      ```

      Everything you see here is rendered by *ReplyKit's* own markdown renderer.
      """
  }

  /// The engine's reply closure.
  var reply: ChatThread.Reply {
    let pace = self.pace
    return { history in
      let question = history.last { $0.role == .user }?.text ?? ""
      let text = question == Self.followUp ? Self.template : Self.stubReply(to: question)
      return Self.stream(text, pace: pace)
    }
  }

  /// Streams `text` as words at `pace`.
  static func stream(_ text: String, pace: Duration) -> AsyncThrowingStream<String, any Error> {
    let chunks = words(text)
    return ChatReplyStream.make { write in
      for chunk in chunks {
        if pace > .zero {
          try await Task.sleep(for: pace)
        } else {
          await Task.yield()
        }
        guard write(chunk) else { return }
      }
    }
  }

  /// `text` cut after each run of white space: words with the spaces and newlines after them.
  static func words(_ text: String) -> [String] {
    var chunks: [String] = []
    var current = ""
    var inSpace = false
    for character in text {
      if character.isWhitespace {
        inSpace = true
      } else if inSpace {
        chunks.append(current)
        current = ""
        inSpace = false
      }
      current.append(character)
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }
}
