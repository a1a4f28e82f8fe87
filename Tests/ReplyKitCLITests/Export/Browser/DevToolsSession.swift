import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Headless Chromium driven through the DevTools protocol over `--remote-debugging-pipe`:
/// commands go to the browser's fd 3 and answers come from its fd 4, as JSON messages ending in
/// a NUL byte. No WebSocket, no port, nothing outside the test process.
///
/// One page (a target attached in flat mode) per session; ``close()`` closes the browser and
/// waits for it, killing it after a grace period, so no Chromium outlives a test.
final class DevToolsSession {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let pid: pid_t
  private let commands: Int32
  private let answers: Int32
  private let profile: URL
  private var buffer: [UInt8] = []
  private var lastID = 0
  private var pageSession: String?
  private var closed = false

  /// Starts Chromium with `arguments` added to the shared ones.
  init(arguments: [String] = []) throws {
    let executable = try HeadlessChromium.executable()
    profile = try HeadlessChromium.temporaryProfile()
    var toBrowser: [Int32] = [0, 0]
    var fromBrowser: [Int32] = [0, 0]
    guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
      throw Failure(description: "pipe failed: \(String(cString: strerror(errno)))")
    }
    // Moved above 10 first, so that the dup2 onto 3 and 4 never meets its own source.
    let browserReads = fcntl(toBrowser[0], F_DUPFD_CLOEXEC, 10)
    let browserWrites = fcntl(fromBrowser[1], F_DUPFD_CLOEXEC, 10)
    Glibc.close(toBrowser[0])
    Glibc.close(fromBrowser[1])
    for descriptor in [toBrowser[1], fromBrowser[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, browserReads, 3)
    posix_spawn_file_actions_adddup2(&actions, browserWrites, 4)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv =
      [executable] + HeadlessChromium.baseArguments
      + ["--remote-debugging-pipe", "--user-data-dir=\(profile.path)"] + arguments + ["about:blank"]
    var env = ProcessInfo.processInfo.environment
    for (key, value) in HeadlessChromium.environment { env[key] = value }
    let envp = env.map { "\($0.key)=\($0.value)" }
    var child: pid_t = 0
    let status = Self.withCStrings(argv) { cArgv in
      Self.withCStrings(envp) { cEnvp in posix_spawn(&child, executable, &actions, nil, cArgv, cEnvp) }
    }
    Glibc.close(browserReads)
    Glibc.close(browserWrites)
    guard status == 0 else {
      Glibc.close(toBrowser[1])
      Glibc.close(fromBrowser[0])
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
    commands = toBrowser[1]
    answers = fromBrowser[0]
  }

  deinit { close() }

  /// Sends `method` and returns its `result`, skipping events; throws on a protocol error or when
  /// no answer comes within `timeout` seconds.
  @discardableResult
  func send(_ method: String, _ params: [String: Any] = [:], toPage: Bool = true, timeout: TimeInterval = 15) throws
    -> [String: Any]
  {
    lastID += 1
    var message: [String: Any] = ["id": lastID, "method": method, "params": params]
    if toPage, let pageSession { message["sessionId"] = pageSession }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    try writeAll(bytes)
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let answer = try readMessage(deadline: deadline, waitingFor: method)
      guard (answer["id"] as? Int) == lastID else { continue }
      if let error = answer["error"] as? [String: Any] {
        throw Failure(description: "\(method): \(error["message"] ?? error)")
      }
      return answer["result"] as? [String: Any] ?? [:]
    }
  }

  /// Opens a new page, attaches to it and loads `url`; returns once the page's script marked the
  /// document ready (`data-ready` on `<html>`) or `ready` is false and the load finished.
  ///
  /// `beforeLoad` runs in the page before any of its own scripts (DevTools scripts bypass the
  /// page's CSP), for test hooks that only observe.
  /// `emulation` is a list of page commands (time zone, locale) sent before the page loads.
  func open(
    _ url: URL, width: Int = 1280, height: Int = 900, beforeLoad: String? = nil,
    emulation: [(String, [String: Any])] = [], waitForReady ready: Bool = true
  ) throws {
    let target = try send("Target.createTarget", ["url": "about:blank"], toPage: false)
    guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target id") }
    let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], toPage: false)
    pageSession = attached["sessionId"] as? String
    try send("Page.enable")
    try send("Emulation.setFocusEmulationEnabled", ["enabled": true])
    try resize(width: width, height: height)
    if let beforeLoad { try send("Page.addScriptToEvaluateOnNewDocument", ["source": beforeLoad]) }
    for (method, params) in emulation { try send(method, params) }
    try send("Page.navigate", ["url": url.absoluteString])
    try waitUntil(ready ? "document.documentElement.hasAttribute('data-ready')" : "document.readyState === 'complete'")
  }

  /// Sets the viewport's CSS size.
  func resize(width: Int, height: Int) throws {
    try send(
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
  }

  /// Polls `expression` until it is true.
  func waitUntil(_ expression: String, timeout: TimeInterval = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      // Errors while the document is replaced (no documentElement yet) only mean "not yet".
      if ((try? evaluate(expression)) as? Bool) == true { return }
      usleep(50_000)
    }
    throw Failure(description: "timed out waiting for \(expression)")
  }

  /// The value of `expression` in the page (promises awaited), as JSON values.
  func evaluate(_ expression: String) throws -> Any? {
    let result = try send(
      "Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true])
    if let exception = result["exceptionDetails"] as? [String: Any] {
      let detail = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? "exception"
      throw Failure(description: "\(expression): \(detail)")
    }
    let value = (result["result"] as? [String: Any])?["value"]
    return value is NSNull ? nil : value
  }

  /// Clicks the centre of the first element matching `selector` with real mouse events, after
  /// scrolling it into view.
  func click(_ selector: String) throws {
    let script = """
      (() => { const e = document.querySelector(\(Self.jsString(selector))); if (!e) return null;
        e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; })()
      """
    guard let point = try evaluate(script) as? [Double], point.count == 2 else {
      throw Failure(description: "nothing to click at \(selector)")
    }
    for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
      try send(
        "Input.dispatchMouseEvent",
        ["type": type, "x": point[0], "y": point[1], "button": type == "mouseMoved" ? "none" : "left", "clickCount": 1])
    }
  }

  /// The system clipboard's text, through the page (permission granted first).
  func clipboardText() throws -> String? {
    try send(
      "Browser.grantPermissions", ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]], toPage: false)
    return try evaluate("navigator.clipboard.readText()") as? String
  }

  /// A PNG of the whole page at the current width, once running animations have finished.
  func screenshot() throws -> Data {
    // An animation cancelled while it is waited for (a change of the emulated media restarts the
    // turns' fade) rejects its `finished` with an AbortError: it no longer runs, so it is waited
    // for no more (a full test run on a loaded machine failed so).
    _ = try evaluate(
      "Promise.all(document.getAnimations().filter(a => isFinite(a.effect.getComputedTiming().endTime))"
        + ".map(a => a.finished.catch(() => null)))"
        + ".then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")
    let height = (try evaluate("Math.ceil(document.documentElement.scrollHeight)") as? Double) ?? 1200
    let width = (try evaluate("document.documentElement.clientWidth") as? Double) ?? 1280
    let result = try send(
      "Page.captureScreenshot",
      [
        "format": "png", "captureBeyondViewport": true,
        "clip": ["x": 0, "y": 0, "width": width, "height": min(height, 6000), "scale": 1],
      ], timeout: 30)
    guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
      throw Failure(description: "no screenshot data")
    }
    return data
  }

  /// Closes the browser and waits for it to exit (SIGKILL after 5 seconds).
  func close() {
    guard !closed else { return }
    closed = true
    if let message = try? JSONSerialization.data(withJSONObject: ["id": lastID + 1, "method": "Browser.close"]) {
      try? writeAll([UInt8](message) + [0])
    }
    Glibc.close(commands)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(5)
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Date() > deadline {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        break
      }
      usleep(20_000)
    }
    Glibc.close(answers)
    try? FileManager.default.removeItem(at: profile)
  }

  /// `text` as a JavaScript string literal.
  static func jsString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  private func writeAll(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "the browser closed its pipe: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  private func readMessage(deadline: Date, waitingFor method: String) throws -> [String: Any] {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = Array(buffer[..<end])
        buffer.removeSubrange(...end)
        return (try JSONSerialization.jsonObject(with: Data(message))) as? [String: Any] ?? [:]
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Failure(description: "no answer to \(method) in time") }
      var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
      if ready < 0 && errno != EINTR { throw Failure(description: "poll failed") }
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
      if count == 0 { throw Failure(description: "the browser exited while waiting for \(method)") }
      if count > 0 { buffer.append(contentsOf: chunk[..<count]) }
    }
  }

  /// Calls `body` with `strings` as a NULL-terminated C array (`char *const argv[]`).
  private static func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32)
    -> Int32
  {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return EINVAL }
      return body(base)
    }
  }
}
