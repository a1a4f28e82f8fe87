import ChatEngine
import ChatModels
import Foundation
import ReplyMarkdown

/// What a chat starts from: its messages, where replies come from, and the thread file.
///
/// Guarantees: a thread file that exists but fails to load yields ``loadError`` and
/// ``autosaves`` false, so nothing ever writes over it; a missing file starts an empty thread
/// that is saved there after the first reply.
struct ChatSetup {
  /// The thread to start with, every version included.
  var tree: ChatThreadTree
  /// The shown path of ``tree``.
  var messages: [ChatMessage] { tree.messages }
  /// The engine's reply closure.
  var reply: ChatThread.Reply
  /// The thread file, if any.
  var threadURL: URL?
  /// Whether the thread is saved to ``threadURL`` after every reply.
  var autosaves: Bool
  /// Why the thread file did not load, if it did not.
  var loadError: String?
  /// The top-level fields of the loaded thread file that ReplyKit does not read, saved back.
  var fields = ChatArchiveFields()
  /// What to tell the person at start (loaded, new file), if anything.
  var startNotice: String?

  /// Decides the setup from the options.
  init(options: ChatOptions, now: Date = Date()) {
    if let command = options.replyCommand {
      reply = CommandReplySource(command: command).reply
    } else if let endpoint = options.model {
      reply = ModelReplySource(endpoint: endpoint).reply
    } else {
      reply = BuiltInConversation(pace: .milliseconds(options.paceMilliseconds)).reply
    }
    autosaves = false
    guard let path = options.threadPath else {
      threadURL = nil
      // A real source starts empty: nothing is sent that the person did not type.
      let isRealSource = options.replyCommand != nil || options.model != nil
      tree = ChatThreadTree(messages: isRealSource ? [] : BuiltInConversation.messages(now: now))
      return
    }
    let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
    threadURL = url
    guard FileManager.default.fileExists(atPath: url.path) else {
      tree = ChatThreadTree()
      autosaves = true
      startNotice = "New thread: it will be saved to \(path)"
      return
    }
    do {
      let document = try ChatArchive.loadDocument(from: url)
      tree = document.tree
      fields = document.fields
      autosaves = true
      startNotice = "Loaded \(messages.count) messages from \(path)"
    } catch {
      tree = ChatThreadTree()
      loadError =
        "\(path) did not load (\(error.localizedDescription)); it will not be overwritten — /save FILE saves elsewhere"
    }
  }
}
