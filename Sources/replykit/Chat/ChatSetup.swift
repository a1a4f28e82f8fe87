import ChatEngine
import ChatModels
import Foundation
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a chat starts from: its messages, where replies come from, and the thread file.
///
/// Guarantees: a thread file that exists but fails to load yields ``loadError`` (the same
/// one-line reason `replykit export` gives: a directory, an empty file, a permission, the place
/// in the JSON) and ``autosaves`` false, so nothing ever writes over it; a missing file starts an
/// empty thread that is saved there after the first reply.
struct ChatSetup {
  /// The thread to start with, every version included.
  var tree: ChatThreadTree
  /// The shown path of ``tree``.
  var messages: [ChatMessage] { tree.messages }
  /// The engine's reply closure.
  var reply: ChatThread.Reply
  /// The thread file, if any.
  var threadURL: URL?
  /// The thread file as the person named it (`--thread`), if any.
  var threadPath: String?
  /// Whether the thread is saved to ``threadURL`` after every reply.
  var autosaves: Bool
  /// Saves to ``threadURL`` without writing over changes made there by others, when
  /// ``autosaves``.
  var keeper: ThreadFileKeeper?
  /// Why the thread file did not load, if it did not: one line naming the file.
  var loadError: CLIError?
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
    threadPath = options.threadPath
    guard let path = options.threadPath else {
      threadURL = nil
      // A real source starts empty: nothing is sent that the person did not type.
      let isRealSource = options.replyCommand != nil || options.model != nil
      tree = ChatThreadTree(messages: isRealSource ? [] : BuiltInConversation.messages(now: now))
      return
    }
    let expanded = (path as NSString).expandingTildeInPath
    let url = URL(fileURLWithPath: expanded)
    threadURL = url
    // Only a file that is not there starts a new thread; any other failure (no permission to
    // look, a file where a directory should be) is the reason the read gives below.
    var info = stat()
    if stat(expanded, &info) != 0 && errno == ENOENT {
      tree = ChatThreadTree()
      autosaves = true
      keeper = ThreadFileKeeper(url: url)
      startNotice = "New thread: it will be saved to \(path)"
      return
    }
    // A FIFO holds the read until a program writes into it: on a terminal, say what it waits for.
    if info.st_mode & S_IFMT == S_IFIFO && isatty(STDERR_FILENO) == 1 {
      StandardIO.writeError(
        "replykit: waiting for a program to write the thread into the FIFO "
          + TerminalSafeText.visible(path, keepingTabsAndNewlines: false) + " (Ctrl-C stops)")
    }
    // Looked at before the read: a write between the two is taken for a change by someone else.
    let keeper = ThreadFileKeeper(url: url)
    do {
      // Limited as `export` limits it (`--max-bytes`): an endless file (`/dev/zero`) or a huge
      // one is refused with the reason, not read until memory runs out.
      // A file named `-` is that file, not standard input.
      let document = try ThreadFile.read(expanded == "-" ? "./-" : expanded, limit: options.maxThreadBytes)
      tree = document.tree
      fields = document.fields
      autosaves = true
      self.keeper = keeper
      startNotice = "Loaded \(messages.count) messages from \(path)"
    } catch {
      tree = ChatThreadTree()
      loadError = error
    }
  }

  /// The notice the full-screen chat opens with when the thread file did not load.
  var loadNotice: String? {
    guard let loadError, let path = threadPath else { return nil }
    return "\(path) did not load (\(loadError.message)); it will not be overwritten — /save FILE saves elsewhere"
  }
}
