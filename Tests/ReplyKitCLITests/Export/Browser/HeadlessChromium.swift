import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds and runs headless Chromium for the browser tests.
///
/// The tests never skip: without Chromium they fail with ``Failure/notInstalled`` and say how to
/// install it (`make test` does).
enum HeadlessChromium {
  struct Failure: Error, CustomStringConvertible {
    let description: String
    static let notInstalled = Failure(
      description:
        "Chromium is not installed, so the browser tests cannot run: 'make test' installs it (Debian package 'chromium'), or set REPLYKIT_CHROMIUM to its path"
    )
  }

  /// The flags every run shares: no sandbox (root in CI), no GPU, a fixed language and no
  /// scrollbars in screenshots.
  static let baseArguments = [
    "--headless", "--no-sandbox", "--disable-gpu", "--lang=en-US", "--hide-scrollbars", "--no-first-run",
    "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--mute-audio",
  ]

  /// The environment of every run: UTC, so day separators are predictable.
  static let environment = ["TZ": "UTC", "LANG": "en_US.UTF-8"]

  /// The Chromium executable: `$REPLYKIT_CHROMIUM`, else the first of the usual names on `PATH`.
  static func executable() throws -> String {
    if let path = ProcessInfo.processInfo.environment["REPLYKIT_CHROMIUM"], !path.isEmpty { return path }
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
      for directory in directories + ["/usr/bin", "/snap/bin"] {
        let path = "\(directory)/\(name)"
        if access(path, X_OK) == 0 { return path }
      }
    }
    throw Failure.notInstalled
  }

  /// Whether a Chromium executable is there, for tests gated with `.enabled(if:)`.
  static var isAvailable: Bool { (try? executable()) != nil }

  /// A fresh profile directory, so runs never share state.
  static func temporaryProfile() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The DOM of `page` after its script ran (`--dump-dom` with a virtual time budget).
  static func dumpDOM(_ page: URL, timeout: TimeInterval = 30) throws -> String {
    let profile = try temporaryProfile()
    defer { try? FileManager.default.removeItem(at: profile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable())
    process.arguments =
      baseArguments + [
        "--user-data-dir=\(profile.path)", "--virtual-time-budget=2000", "--dump-dom", page.absoluteString,
      ]
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(description: "chromium --dump-dom failed (status \(process.terminationStatus))")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
