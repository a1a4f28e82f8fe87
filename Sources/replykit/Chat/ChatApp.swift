import ChatEngine
import Foundation
import Observation
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Forwards the engine's callbacks (clipboard, reply ends, ratings) to the app, which does not
/// exist yet when the engine's environment is made.
@MainActor
final class ChatEvents {
  weak var app: ChatApp?
}

/// The full-screen chat: reads keys, runs commands against the engine, and draws frames.
///
/// The engine (``ChatThread``) owns the thread, the streaming reply, Stop, Regenerate, Retry,
/// ratings, Copy and the follow state; this type only maps input to those calls and draws what
/// the engine says, when it changes (observed), at most about 60 frames a second. The thread
/// is saved after every reply that ends (finished, stopped or failed) when a thread file is set.
@MainActor
final class ChatApp {
  /// The app while it runs (dispatch sources keep it alive too).
  static var running: ChatApp?

  let thread: ChatThread
  let screen: ChatScreen
  private let options: ChatOptions
  private let setup: ChatSetup
  private let environment: [String: String]
  private var diff = ScreenDiff()
  private var decoder = InputDecoder()
  /// How many reads of the terminal there were: a paste timer set after one read is stale after
  /// the next.
  private var reads = 0
  private var sources: [any DispatchSourceProtocol] = []
  private var frameScheduled = false
  private var lastFrame = DispatchTime(uptimeNanoseconds: 0)
  private var noticeToken = 0
  /// The messages sent, oldest first, and which one the composer shows while recalling.
  private var sent: [String] = []
  private var historyIndex: Int?
  /// Where the thread was last written and what was written, for the line printed on quit.
  private var savedPath: String?
  private var savedTree: ChatThreadTree?
  /// Why the last automatic save failed, until one succeeds.
  private var saveFailure: String?
  /// Saves to the thread file without writing over changes others made to it.
  private var keeper: ThreadFileKeeper?
  /// The existing file a `/save` was refused for; the same `/save` next replaces it.
  private var confirmedOverwrite: String?
  /// The person's turn being edited in the composer (`/edit`), if any: Enter sends a new version.
  private(set) var editing: UUID?

  /// Makes the thread for `options` (nothing is shown until ``start()``).
  init(options: ChatOptions, environment: [String: String]) {
    self.options = options
    self.environment = environment
    let setup = ChatSetup(options: options)
    self.setup = setup
    keeper = setup.keeper
    let events = ChatEvents()
    let chatEnvironment = ChatEnvironment(
      locale: EnvironmentLocale.forDates(environment),
      clipboard: { payload in events.app?.copyToClipboard(payload.plainText) },
      // A switch says which version shows ("Version 2 of 3") in the status line.
      announce: { announcement in
        if case .versionShown = announcement { events.app?.showNotice(announcement.text, isError: false) }
      },
      replyUpdates: { update in if update.isFinal { events.app?.replyEnded() } },
      streamingHTML: nil)
    thread = ChatThread(
      tree: setup.tree, environment: chatEnvironment, reply: setup.reply,
      onFeedback: { _, _ in events.app?.autosave() })
    let size = TerminalSession.size()
    let color = ANSIOptions.resolve(color: options.color, isTerminal: true, environment: environment)
    screen = ChatScreen(
      columns: size.columns, rows: size.rows, color: color, readingWidth: options.readingWidth,
      highlighter: options.highlighter)
    events.app = self
    if setup.loadError != nil { screen.marker = "not saving" }
    if let notice = setup.loadNotice {
      showNotice(notice, isError: true, seconds: nil)
    } else if let notice = setup.startNotice {
      showNotice(notice, isError: false, seconds: 4)
    }
  }

  /// The signals that end the chat the way Ctrl-C does: the ones a person or a system sends to
  /// end a program, and the others whose default action ends it without a core dump.
  nonisolated static let endingSignals: [Int32] = [
    SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
  ]

  /// Enters the full screen and starts reading keys and signals.
  func start() throws {
    try TerminalSession.enter()
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
    input.resume()
    sources.append(input)
    // Every signal whose default would end the program quits as SIGTERM does (saving, leaving
    // the terminal as it was), except those TerminalRestore handles as crashes.
    for signalNumber in [SIGWINCH] + ChatApp.endingSignals {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          if signalNumber == SIGWINCH {
            self?.resized()
          } else {
            self?.quit(status: 128 + signalNumber)
          }
        }
      }
      source.resume()
      sources.append(source)
    }
    // A resize before the handler was in place signalled no one (a CI run on a busy machine
    // resized the terminal right after the start, and the chat drew at the old size): the size
    // is read again now.
    let size = TerminalSession.size()
    screen.resize(columns: size.columns, rows: size.rows)
    // Keys typed while the terminal was asked for its background come first.
    let typedAhead = TerminalBackground.takeTypedAhead()
    if !typedAhead.isEmpty {
      for event in decoder.decode(typedAhead) { handle(event) }
      if decoder.isInsidePaste { endPasteAfterSilence() }
      if decoder.holdsLoneEscape { endLoneEscapeAfterSilence() }
    }
    draw()
  }

  // MARK: Input

  private func readInput() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    if count < 0, errno == EINTR || errno == EAGAIN { return }
    guard count > 0 else { quit(status: 0) }
    reads += 1
    for event in decoder.decode(Array(buffer[0..<count])) { handle(event) }
    if decoder.isInsidePaste { endPasteAfterSilence() }
    if decoder.holdsLoneEscape { endLoneEscapeAfterSilence() }
    requestFrame()
  }

  /// Takes a lone ESC as the Escape key once ``InputDecoder/escapeWaitSeconds`` pass without
  /// input (the rest of a key's sequence, split off by a slow link, would have come).
  private func endLoneEscapeAfterSilence() {
    afterSilence(of: InputDecoder.escapeWaitSeconds, while: { $0.decoder.holdsLoneEscape }) { app in
      for event in app.decoder.endLoneEscape() { app.handle(event) }
      app.requestFrame()
    }
  }

  /// Ends an open paste once ``InputDecoder/unfinishedPasteSeconds`` pass without input: a paste
  /// start whose end never comes (a stray `ESC [ 200 ~`) must not swallow every later key. What
  /// came of it is pasted into the composer (never sent) and the keys after it work again.
  private func endPasteAfterSilence() {
    afterSilence(of: InputDecoder.unfinishedPasteSeconds, while: { $0.decoder.isInsidePaste }) { app in
      for event in app.decoder.endUnfinishedPaste() { app.handle(event) }
      app.showNotice("The paste did not end (no end marker); what came of it is in the composer.", isError: true)
    }
  }

  /// Runs `action` after `seconds` when no input came meanwhile (no read, and none waiting to be
  /// read: the main queue may have been busy, and that read sets a new timer) and `pending`
  /// still holds.
  private func afterSilence(
    of seconds: Double, while pending: @escaping @MainActor (ChatApp) -> Bool,
    _ action: @escaping @MainActor (ChatApp) -> Void
  ) {
    let readsNow = reads
    DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.reads == readsNow, pending(self) else { return }
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) == 0 else { return }
        action(self)
      }
    }
  }

  /// Does what `event` asks.
  func handle(_ event: KeyEvent) {
    if screen.overlay != nil {
      // A help taller than the screen scrolls; any other key closes it.
      if screen.overlayScrolls {
        switch event {
        case .up, .wheelUp: return screen.scrollOverlay(by: -1)
        case .down, .wheelDown: return screen.scrollOverlay(by: 1)
        case .pageUp: return screen.scrollOverlay(by: -screen.pageSize)
        case .pageDown: return screen.scrollOverlay(by: screen.pageSize)
        default: break
        }
      }
      // The key that closes the help does nothing else, except Ctrl-C, which still quits; a
      // paste is text, not a key, and is kept.
      screen.overlay = nil
      switch event {
      case .control(0x03), .paste, .pasteTooLarge: break
      default: return
      }
    }
    switch event {
    case .text(let text), .paste(let text): screen.composer.insert(text)
    case .pasteTooLarge(let bytes):
      showNotice(
        "Paste too large (\(bytes) bytes, the most is \(InputDecoder.maximumPaste >> 20) MiB): nothing was pasted.",
        isError: true, seconds: 8)
    case .newline: screen.composer.insert("\n")
    case .enter: submit()
    case .escape:
      if thread.isStreaming {
        thread.stop()
      } else if editing != nil {
        stopEditing()
        _ = screen.composer.take()
      } else {
        clearNotice()
      }
    case .backspace: screen.composer.backspace()
    case .delete: screen.composer.deleteForward()
    case .left: screen.composer.move(by: -1)
    case .right: screen.composer.move(by: 1)
    case .home: screen.composer.moveToLineEdge(toEnd: false)
    case .end:
      screen.composer.moveToLineEdge(toEnd: true)
      thread.jumpToLatest()
    case .up: arrow(-1)
    case .down: arrow(1)
    case .altLeft: run(.previousVersion)
    case .altRight: run(.nextVersion)
    case .wheelUp: screen.scroll(by: -3, in: thread)
    case .wheelDown: screen.scroll(by: 3, in: thread)
    case .pageUp: screen.scroll(by: -screen.pageSize, in: thread)
    case .pageDown: screen.scroll(by: screen.pageSize, in: thread)
    case .control(0x03): quit(status: 0)
    case .control(0x04): if screen.composer.isEmpty { quit(status: 0) } else { screen.composer.deleteForward() }
    case .control(0x15): _ = screen.composer.take()
    case .control(0x01): screen.composer.moveToLineEdge(toEnd: false)
    case .control(0x05): screen.composer.moveToLineEdge(toEnd: true)
    case .control(0x0C): diff.invalidate()
    case .control: break
    }
  }

  /// Up or Down: moves in a message of several lines; on an empty composer (or one showing a
  /// recalled message) steps through the messages sent before, as shells do; else scrolls.
  private func arrow(_ direction: Int) {
    if screen.composer.moveVertically(by: direction, width: screen.columns) { return }
    let recalling = historyIndex.map { sent[$0] == screen.composer.text } ?? false
    if screen.composer.isEmpty || recalling {
      let current = recalling ? historyIndex ?? sent.count : sent.count
      let next = current + direction
      if direction < 0, next >= 0, !sent.isEmpty {
        historyIndex = next
        screen.composer.replace(with: sent[next])
        return
      }
      if direction > 0, recalling {
        historyIndex = next < sent.count ? next : nil
        screen.composer.replace(with: next < sent.count ? sent[next] : "")
        return
      }
    }
    screen.scroll(by: direction, in: thread)
  }

  /// Enter: runs a command or sends the message.
  private func submit() {
    let text = screen.composer.text
    if let command = SlashCommand.parse(text) {
      // A command that is not one keeps its text, to correct (or send with `//`).
      if case .invalid(let message) = command { return showNotice(message, isError: true, seconds: 8) }
      _ = screen.composer.take()
      run(command)
      return
    }
    if let id = editing {
      do {
        try thread.edit(id, text: SlashCommand.message(from: text))
      } catch {
        if error == .emptyMessage { return }
        stopEditing()
        return showNotice(error.errorDescription ?? "The message could not be edited.", isError: true)
      }
      stopEditing()
      _ = screen.composer.take()
      clearNotice()
      // The edited turn is saved as its reply starts, as a sent one is.
      autosave()
      return
    }
    guard (try? thread.send(SlashCommand.message(from: text))) != nil else { return }
    if sent.last != text { sent.append(text) }
    historyIndex = nil
    _ = screen.composer.take()
    clearNotice()
    // Saved now, not only once its reply ends: a chat killed outright (SIGKILL, out of memory)
    // mid-reply keeps the question; the reply loads back as failed.
    autosave()
  }

  /// Reply `number` (as numbered on screen), else the reply in view, else the latest.
  private func reply(_ number: Int?) -> ChatMessage? {
    let replies = thread.messages.lazy.filter { $0.role == .assistant }
    if let number {
      return replies.dropFirst(number - 1).first
    }
    if let id = screen.replyInView, let reply = replies.first(where: { $0.id == id }) { return reply }
    return replies.last
  }

  /// "Reply #N" for notices: the number asked for, else the number of the reply acted on.
  private func name(_ number: Int?, _ reply: ChatMessage? = nil) -> String {
    (number ?? reply.flatMap { screen.renderer.replyNumbers[$0.id] }).map { "Reply #\($0)" } ?? "The reply"
  }

  /// Runs a composer command.
  func run(_ command: SlashCommand) {
    switch command {
    case .copy(let number):
      guard let reply = reply(number) else { return showNotice("\(name(number)) does not exist.", isError: true) }
      if reply.state.isTerminal, !reply.text.contains(where: { !$0.isWhitespace }) {
        return showNotice("Nothing to copy: the reply is empty.", isError: true)
      }
      guard (try? thread.copy(reply.id)) != nil else {
        guard case .failed = reply.state else {
          return showNotice("\(name(number, reply)) has not finished yet.", isError: true)
        }
        let code = screen.renderer.replyNumbers[reply.id].map { "/copy \($0) code M" } ?? "/copy N code M"
        return showNotice("\(name(number, reply)) failed: only its code blocks can be copied (\(code)).", isError: true)
      }
      // Said in the status line too, so no earlier error stays there.
      showNotice("Copied \(name(number, reply).lowercased()).", isError: false)
    case .copyCode(let block, let number):
      guard let reply = reply(number) else { return showNotice("\(name(number)) does not exist.", isError: true) }
      guard (try? thread.copyCode(in: reply.id, block: block - 1)) != nil else {
        return showNotice("\(name(number, reply)) has no code block \(block).", isError: true)
      }
      showNotice("Copied code block \(block) of \(name(number, reply).lowercased()).", isError: false)
    case .regenerate:
      guard let last = thread.messages.last, (try? thread.regenerate(last.id)) != nil else {
        return showNotice("Regenerate works on the latest reply once it has finished.", isError: true)
      }
    case .retry:
      guard let last = thread.messages.last, (try? thread.retry(last.id)) != nil else {
        return showNotice("Nothing to retry: the latest reply did not fail.", isError: true)
      }
    case .good(let number), .bad(let number):
      let value: ChatMessage.Feedback = if case .good = command { .good } else { .bad }
      guard let reply = reply(number) else { return showNotice("\(name(number)) does not exist.", isError: true) }
      guard !reply.text.isEmpty, (try? thread.rate(reply.id, value)) != nil else {
        return showNotice("Only a finished reply with text can be rated.", isError: true)
      }
      let rating = thread.messages.first { $0.id == reply.id }?.feedback
      let which = screen.renderer.replyNumbers[reply.id].map { "reply #\($0)" } ?? "the reply"
      showNotice(
        rating.map { "Rated \(which) \($0 == .good ? "good ▲" : "bad ▼")" } ?? "Cleared the rating of \(which)",
        isError: false)
    case .share(let number):
      share(number)
    case .version(let number):
      switchVersion { (id: UUID) throws(ChatActionError) in try thread.showVersion(number, of: id) }
    case .previousVersion:
      switchVersion { (id: UUID) throws(ChatActionError) in try thread.showPreviousVersion(of: id) }
    case .nextVersion:
      switchVersion { (id: UUID) throws(ChatActionError) in try thread.showNextVersion(of: id) }
    case .edit(let number):
      startEditing(number)
    case .save(let path):
      save(to: path)
    case .help:
      showHelp()
    case .quit:
      quit(status: 0)
    case .invalid(let message):
      showNotice(message, isError: true)
    }
  }

  /// The turn the version commands act on: the reply in view (else the latest) when it has other
  /// versions, else your message before it when that has, else the reply itself.
  private func versionTarget() -> UUID? {
    let messages = thread.messages
    guard let reply = reply(nil), let index = messages.lastIndex(where: { $0.id == reply.id }) else {
      return messages.last?.id
    }
    if thread.versions(at: index) == nil, index > 0, messages[index - 1].role == .user,
      thread.versions(at: index - 1) != nil
    {
      return messages[index - 1].id
    }
    return reply.id
  }

  /// Runs a version switch on ``versionTarget()``; the engine's announcement shows which version
  /// shows, an error why nothing changed.
  private func switchVersion(_ action: (UUID) throws(ChatActionError) -> Void) {
    guard let id = versionTarget() else { return showNotice("Nothing to switch yet.", isError: true) }
    do {
      try action(id)
      // Which version shows is part of the thread file.
      autosave()
    } catch {
      showNotice(error.errorDescription ?? "That version does not exist.", isError: true)
    }
  }

  /// `/edit [N]`: puts your message that reply N answers (else the one before the reply in view,
  /// else your latest) into the composer; Enter sends it as a new version, Esc cancels.
  private func startEditing(_ number: Int?) {
    let messages = thread.messages
    var target: ChatMessage?
    if number != nil || screen.replyInView != nil {
      guard let reply = reply(number), let index = messages.lastIndex(where: { $0.id == reply.id }) else {
        return showNotice("\(name(number)) does not exist.", isError: true)
      }
      target = messages[..<index].last { $0.role == .user }
    } else {
      target = messages.last { $0.role == .user }
    }
    guard let target else { return showNotice("There is no message of yours to edit.", isError: true) }
    editing = target.id
    // A message starting with `/` goes back in the composer as it was typed (`//…`), so Enter
    // sends it again instead of reading it as a command.
    screen.composer.replace(with: SlashCommand.typed(target.text))
    screen.composerLabel = "editing your message · Enter sends it as a new version · Esc cancels"
    historyIndex = nil
  }

  private func stopEditing() {
    editing = nil
    screen.composerLabel = nil
  }

  private func share(_ number: Int?) {
    guard let reply = reply(number), let text = thread.shareText(for: reply.id),
      text.contains(where: { !$0.isWhitespace })
    else {
      return showNotice("No finished reply with text to share yet.", isError: true)
    }
    if let command = options.shareCommand {
      showNotice("Sharing with: \(command)…", isError: false, seconds: nil)
      Clipboard.run(text, through: command) { failure in
        MainActor.assumeIsolated {
          guard let app = ChatApp.running else { return }
          if let failure {
            app.showNotice("The share command failed: \(failure)", isError: true, seconds: 8)
          } else {
            app.showNotice("Shared with: \(command)", isError: false)
          }
        }
      }
      return
    }
    let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let name = "replykit-reply-\(reply.id.uuidString.prefix(8).lowercased())"
    // The reply's own name first; when something it may not replace stands there (another
    // user's file in a shared /tmp, a directory), a name of its own, so /share never stays blocked.
    let names = [name] + (0..<3).map { _ in name + "-" + String(UInt32.random(in: .min ... .max), radix: 36) }
    for (index, candidate) in names.enumerated() {
      let url = URL(fileURLWithPath: directory).appendingPathComponent(candidate + ".txt")
      do {
        // A reply is as private as the thread: created 0600, by the rules of every output file.
        try OutputFile.write(Array((text + "\n").utf8), to: url.path, newFileMode: 0o600)
        return showNotice("Shared to \(url.path)", isError: false, seconds: 8)
      } catch {
        var info = stat()
        if index + 1 < names.count, lstat(url.path, &info) == 0 { continue }
        return showNotice("Could not share: \(error)", isError: true)
      }
    }
  }

  private func save(to path: String?) {
    let url: URL
    if let path, !path.isEmpty {
      url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
    } else if let threadURL = setup.threadURL {
      guard setup.loadError == nil else {
        return showNotice("Not saving over a thread file that did not load; use /save FILE.", isError: true)
      }
      url = keeper?.target ?? threadURL
    } else {
      url = URL(fileURLWithPath: "replykit-thread.json")
    }
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      return showNotice("Cannot save: the directory \(directory) does not exist.", isError: true, seconds: 8)
    }
    if let keeper, url.standardizedFileURL == keeper.target.standardizedFileURL {
      // The thread file: saved as after a reply, never over changes made there by others.
      return save(withNoticeOnSuccess: true)
    }
    // A regular file this session did not write is replaced only when asked twice. Anything else
    // there is no file to replace: a directory is refused at once with its reason, a FIFO or a
    // device is written through.
    let ours = url.path == savedPath
    var info = stat()
    let isRegularFile = stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    if !ours, isRegularFile, confirmedOverwrite != url.path {
      confirmedOverwrite = url.path
      return showNotice(
        "\(path ?? url.lastPathComponent) exists: /save it again to replace it.", isError: true, seconds: 8)
    }
    confirmedOverwrite = nil
    do {
      try thread.save(to: url, fields: setup.fields)
      keeper?.wrote(to: url)
      if let keeper, keeper.target.standardizedFileURL == url.standardizedFileURL {
        // Replacing the thread file by hand makes it the thread's file again.
        saveFailure = nil
        screen.marker = nil
      }
      noteSaved(to: url)
      showNotice("Saved to \(url.path)", isError: false)
    } catch {
      showNotice(error.localizedDescription, isError: true)
    }
  }

  // MARK: Engine callbacks

  /// Copy: OSC 52 now, plus the clipboard tool when there is one.
  func copyToClipboard(_ text: String) {
    Clipboard.copy(text, environment: environment) { StandardIO.write($0) }
  }

  /// A reply ended (finished, stopped or failed): save the thread.
  func replyEnded() {
    autosave()
  }

  /// Saves the thread to its file when there is one that loaded (or is new).
  func autosave() {
    save(withNoticeOnSuccess: false)
  }

  /// Saves the thread through ``keeper``: to its file, or beside it when someone else changed it
  /// (said once, until quit); a failure stays in the status line until a save succeeds.
  private func save(withNoticeOnSuccess: Bool) {
    guard setup.autosaves, var keeper else { return }
    do {
      try keeper.save(thread, fields: setup.fields)
      self.keeper = keeper
      noteSaved(to: keeper.target)
      if let aside = keeper.movedAside {
        saveFailure = nil
        screen.marker = "saving aside"
        showNotice(
          "\(keeper.requested.path) changed on disk (another chat or an editor?) and was not written over; "
            + "this thread is saved to \(aside.path) from now on", isError: true, seconds: nil)
      } else if saveFailure != nil {
        saveFailure = nil
        screen.marker = nil
        showNotice("Saved to \(keeper.target.path) again", isError: false)
      } else if withNoticeOnSuccess {
        showNotice("Saved to \(keeper.target.path)", isError: false)
      }
    } catch {
      self.keeper = keeper
      saveFailure = error.localizedDescription
      screen.marker = "not saving"
      showNotice(error.localizedDescription, isError: true, seconds: nil)
    }
  }

  /// Records that the thread as it is now was written to `url`.
  private func noteSaved(to url: URL) {
    savedPath = url.path
    savedTree = thread.tree
  }

  // MARK: Notices and frames

  /// Shows `text` in the status line for `seconds` (for good when `nil`).
  func showNotice(_ text: String, isError: Bool, seconds: Double? = 3) {
    screen.notice = text
    screen.noticeIsError = isError
    noticeToken += 1
    let token = noticeToken
    if let seconds {
      DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
        MainActor.assumeIsolated {
          guard let self, self.noticeToken == token else { return }
          self.clearNotice()
        }
      }
    }
    requestFrame()
  }

  private func clearNotice() {
    guard screen.notice != nil else { return }
    screen.notice = nil
    noticeToken += 1
    requestFrame()
  }

  /// Opens the help over the thread, laid out for the screen's width now.
  private func showHelp() {
    let style = ChatStyle(color: screen.renderer.style.color)
    screen.overlay =
      [style.secondary(String(repeating: "─", count: screen.columns))]
      + SlashCommand.helpLines(width: screen.columns - 1)
  }

  private func resized() {
    let size = TerminalSession.size()
    screen.resize(columns: size.columns, rows: size.rows)
    // The help is laid out again for the new width (its lines were wrapped for the old one).
    if screen.overlay != nil { showHelp() }
    diff.invalidate()
    requestFrame()
  }

  /// Schedules a frame, at most one per 16 ms.
  func requestFrame() {
    guard !frameScheduled else { return }
    frameScheduled = true
    let earliest = lastFrame + .milliseconds(16)
    DispatchQueue.main.asyncAfter(deadline: max(.now(), earliest)) { [weak self] in
      MainActor.assumeIsolated { self?.draw() }
    }
  }

  /// Draws the screen now and re-arms observation of the engine.
  private func draw() {
    frameScheduled = false
    lastFrame = .now()
    let frame = withObservationTracking {
      screen.frame(thread)
    } onChange: { [weak self] in
      DispatchQueue.main.async { MainActor.assumeIsolated { self?.requestFrame() } }
    }
    let bytes = diff.update(lines: frame.lines, cursor: frame.cursor, scrollRegion: frame.threadHeight)
    if !bytes.isEmpty { StandardIO.write(bytes: bytes) }
  }

  /// Stops a streaming reply (which saves it), restores the terminal, says on the normal screen
  /// where the conversation was (or was not) written, ends every reply command's process group
  /// (SIGTERM, then SIGKILL after a second; waited for) and exits.
  func quit(status: Int32) -> Never {
    thread.stop()
    for source in sources { source.cancel() }
    TerminalSession.leave()
    StandardIO.write(farewell + "\n")
    ProcessGroups.endAll(grace: 1)
    ProgramExit.exit(status == 0 && lostToAFailure ? 1 : status)
  }

  /// Whether turns end unsaved because a save failed or the thread file did not load (status 1);
  /// not when no thread file was named (a `/save FILE` then is a copy, and more said after it is
  /// not a failure). Saved beside a changed file is saved: status 0 here, as the line says where.
  var lostToAFailure: Bool {
    if let savedTree, savedTree == thread.tree { return false }
    return saveFailure != nil || (setup.loadError != nil && !thread.messages.isEmpty)
  }

  /// The one line printed on quit: how much was said and where it was saved; "saved" only when
  /// the thread as it ends is what was last written.
  var farewell: String {
    let count = thread.messages.count
    let messages = count == 1 ? "1 message" : "\(count) messages"
    if let savedPath, let savedTree {
      var aside = ""
      if let keeper, keeper.target != keeper.requested, savedPath == keeper.target.path {
        aside = " (\(keeper.requested.path) changed on disk and was not written over)"
      }
      if savedTree == thread.tree { return "replykit: \(messages), saved to \(savedPath)\(aside)" }
      let reason = saveFailure.map { ": \($0)" } ?? ""
      return "replykit: \(messages), not all saved\(reason); \(savedPath) holds the thread as it was at the last "
        + "save (\(savedTree.messages.count) messages)"
    }
    if let saveFailure { return "replykit: \(messages), not saved: \(saveFailure)" }
    if let url = setup.threadURL, setup.loadError != nil {
      return "replykit: \(messages), not saved: \(url.path) did not load and was left as it was"
    }
    if count == 0 { return "replykit: nothing to save" }
    return "replykit: \(messages), not saved (use --thread FILE, or /save FILE before quitting)"
  }
}
