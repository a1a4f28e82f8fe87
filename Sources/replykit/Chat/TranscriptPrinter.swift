import ChatEngine
import Foundation
import Observation
import ReplyMarkdown

/// `replykit chat` without a terminal: prints the thread (the Example conversation by default)
/// laid out as on screen, then streams the reply that is under way (a thread file that ends with
/// the person's turn starts one), saves the thread to its file, and exits.
///
/// Colour follows `--color` and the `NO_COLOR`/`FORCE_COLOR` rules, so a pipe gets plain text.
/// While the reply streams, ``MarkdownStream`` commits its blocks and each committed line is
/// printed once, so nothing printed ever has to change; the rest follows when the reply ends,
/// and the whole is the reply's one-shot render. Exit status 0, or 1 when the reply failed, the
/// thread could not be saved or a write to standard output failed (``ProgramExit``); a thread
/// file that does not load is an error before anything is printed. A signal prints the reply as
/// far as it got and saves it before the exit (128 + the signal).
@MainActor
final class TranscriptPrinter {
  static var running: TranscriptPrinter?

  private let turns: TurnRenderer
  private var stream = MarkdownStream()
  private var consumer: MarkdownStreamANSIRenderer
  private var fed = 0
  private var thread: ChatThread?
  private var setup: ChatSetup?
  private var signalSources: [any DispatchSourceProtocol] = []
  /// Whether the end of the reply has been printed (by ``finish()`` or a signal).
  private var printedRest = false

  /// Prepares the printer for `options`.
  init(options: ChatOptions, environment: [String: String]) {
    let ansi = ANSIOptions.standardOutput(width: options.width, color: options.color, environment: environment)
    turns = TurnRenderer(
      width: ansi.width, color: ansi.color, showsControls: false, highlighter: options.highlighter)
    let width = max(turns.width - 2, ANSIOptions.minimumWidth)
    consumer = MarkdownStreamANSIRenderer(
      renderer: ANSIRenderer(
        options: ANSIOptions(
          width: width, color: ansi.color,
          highlighter: ChatHighlighting.chosen(options.highlighter, color: ansi.color),
          colorDepth: ansi.colorDepth)))
  }

  /// Prints the thread and starts streaming; exits when the reply has ended.
  ///
  /// - Throws: when the thread file did not load, its reason (the one `export` gives) and what
  ///   to do, before anything is printed or started; the file is left as it was. Likewise when a
  ///   new thread file's folder does not exist, so it could never be saved.
  func start(options: ChatOptions) throws {
    let setup = ChatSetup(options: options)
    if let error = setup.loadError {
      throw CLIError.failure("\(error.message) (--thread takes a thread file, or a new name to start a thread)")
    }
    if setup.autosaves, let url = setup.threadURL {
      let folder = url.deletingLastPathComponent().path
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
        throw CLIError.failure(
          "cannot save the thread to '\(url.path)': the folder \(folder) does not exist (create it, or name another file)"
        )
      }
    }
    self.setup = setup
    let environment = ChatEnvironment(locale: EnvironmentLocale.forDates())
    let thread = ChatThread(tree: setup.tree, environment: environment, reply: setup.reply)
    self.thread = thread
    handleSignals()
    for row in thread.rows {
      if case .turn(let turn) = row, turn.message.state == .streaming { continue }
      print(turns.lines(for: row))
    }
    guard thread.isStreaming else { ProgramExit.exit(0) }
    Task { @MainActor in
      while thread.isStreaming {
        self.printClosedBlocks()
        await Self.nextChange(of: thread)
      }
      self.finish()
    }
  }

  /// SIGINT, SIGTERM and SIGHUP stop the reply, end the reply command's process group (waiting
  /// for it), print the reply as far as it got, save the thread, say on standard error where it
  /// was saved (or that it was not) and exit with 128 + the signal.
  ///
  /// The signals are taken on a queue of their own: a save written through a FIFO waits in
  /// `open` until something reads it, holding the main queue, and a signal then ends the process
  /// at once, saying the thread was not saved (a FIFO has no old content to keep whole).
  private func handleSignals() {
    let queue = DispatchQueue(label: "replykit.chat.signals")
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      source.setEventHandler { [weak self] in
        if let target = Self.writingThrough.value {
          let shown = TerminalSafeText.visible(target, keepingTabsAndNewlines: false)
          StandardIO.writeError(
            "replykit: the thread was not saved: nothing read \(shown) (a FIFO or device) before the signal")
          ProgramExit.exit(128 + signalNumber)
        }
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            guard let self else { return }
            self.stop(status: 128 + signalNumber)
          }
        }
      }
      source.resume()
      signalSources.append(source)
    }
  }

  /// The thread file being written through (a FIFO or character device), while a save writes it.
  nonisolated static let writingThrough = LockedValue<String?>(nil)

  /// Ends the chat early (a signal): the reply stops and is printed as far as it got.
  private func stop(status: Int32) -> Never {
    thread?.stop()
    ProcessGroups.endAll(grace: 1)
    printRest()
    let count = thread?.messages.count ?? 0
    let messages = count == 1 ? "1 message" : "\(count) messages"
    do {
      if let saved = try save() {
        if let aside = saved.aside {
          StandardIO.writeError("replykit: \(messages), saved to \(aside): " + Self.asideLine(saved.path, aside: aside))
        } else {
          StandardIO.writeError("replykit: \(messages), saved to \(saved.path)")
        }
      } else {
        StandardIO.writeError("replykit: \(messages), not saved (use --thread FILE to keep the thread)")
      }
    } catch {
      StandardIO.writeError("replykit: \(messages), not saved: \(error.message)")
    }
    ProgramExit.exit(status)
  }

  /// Saves the thread to its file when it loaded (or is new) and returns the file's path and,
  /// when that file changed on disk while this chat ran, the file it was saved to instead
  /// (``ThreadFileKeeper``); `nil` when there is no thread file.
  ///
  /// - Throws: `cannot write 'PATH': REASON`; a file that was there is left whole.
  private func save() throws(CLIError) -> (path: String, aside: String?)? {
    guard var keeper = setup?.keeper, let setup, setup.autosaves, let thread else { return nil }
    if keeper.writesThrough { Self.writingThrough.set(keeper.target.path) }
    defer { Self.writingThrough.set(nil) }
    do {
      try keeper.save(thread, fields: setup.fields)
    } catch {
      var reason = error.errorDescription ?? "\(error)"
      if case .unwritable(let why) = error { reason = why }
      throw CLIError.failure("cannot write '\(keeper.target.path)': \(reason)")
    }
    self.setup?.keeper = keeper
    return (keeper.requested.path, keeper.movedAside?.path)
  }

  /// The line saying a thread file was not written over because it changed while the chat ran.
  private static func asideLine(_ path: String, aside: String) -> String {
    "\(path) changed on disk while this chat ran (another chat or an editor?) and was not written over; "
      + "this thread was saved to \(aside)"
  }

  /// Waits until the thread's published text or state changes.
  private static func nextChange(of thread: ChatThread) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      withObservationTracking {
        _ = thread.replyRevision
        _ = thread.messages.last?.state
      } onChange: {
        continuation.resume()
      }
    }
  }

  /// Feeds the reply's new text to the stream and prints the lines it committed.
  private func printClosedBlocks() {
    guard let text = thread?.messages.last?.text else { return }
    let length = text.utf8.count
    guard length > fed else { return }
    let update = stream.feed(bytes: text.utf8.dropFirst(fed))
    fed = length
    printBody(consumer.apply(update))
  }

  private func printBody(_ lines: [String]) {
    print(lines.map { $0.isEmpty ? $0 : " " + $0 })
  }

  /// Prints the rest of the reply and its end mark, saves the thread, then exits: 1 when the
  /// reply failed (its error also one line on standard error), the thread could not be saved, or its file changed meanwhile and it was saved
  /// beside it (one line on standard error), else 0.
  private func finish() -> Never {
    printRest()
    var status: Int32 = 0
    if case .failed(let reason) = thread?.messages.last?.state {
      // The transcript shows it in place; a script reads standard error.
      StandardIO.writeError("replykit: the reply failed: \(reason)")
      status = 1
    }
    do {
      if let saved = try save(), let aside = saved.aside {
        StandardIO.writeError("replykit: " + Self.asideLine(saved.path, aside: aside))
        status = 1
      }
    } catch {
      StandardIO.writeError("replykit: \(error.message); the thread was not saved")
      status = 1
    }
    ProcessGroups.endAll(grace: 1)
    ProgramExit.exit(status)
  }

  /// Prints what is left of the reply (the open blocks, as the one-shot render would) and its
  /// end marks (`Stopped`, the error), once.
  private func printRest() {
    guard !printedRest, let thread, !thread.messages.isEmpty else { return }
    printedRest = true
    printClosedBlocks()
    printBody(consumer.apply(stream.finish()))
    let marks = turns.marks(thread.turn(at: thread.messages.count - 1))
    if !marks.isEmpty { print([""] + marks) }
  }

  private func print(_ lines: [String]) {
    StandardIO.write(lines.map { $0 + "\n" }.joined())
  }
}
