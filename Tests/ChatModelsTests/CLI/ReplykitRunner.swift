import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `replykit` (without a terminal) in a scratch directory with a clean config home.
struct ReplykitRunner {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// A fresh directory for files, also `$XDG_CONFIG_HOME`.
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-models-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The `replykit` binary next to the test bundle.
  static var executable: URL {
    var url = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("replykit").path) {
      url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("replykit")
  }

  /// A path in the scratch directory.
  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Writes `text` to `name` in the scratch directory; returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// A thread file that ends with the person's turn `text`, so a reply starts at once.
  @discardableResult
  func threadFile(_ name: String = "thread.json", asking text: String) throws -> String {
    try write(
      name,
      "{\"messages\": [{\"id\": \"\(UUID().uuidString)\", \"role\": \"user\", \"text\": \"\(text)\", \"date\": \"2025-01-01T10:00:00Z\", \"state\": \"complete\"}]}"
    )
  }

  /// The process, started: `replykit` with `arguments`, the environment without model keys
  /// plus `environment`.
  func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["OPENAI_API_KEY"] = nil
    env["ANTHROPIC_API_KEY"] = nil
    env["XDG_CONFIG_HOME"] = directory.path
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.currentDirectoryURL = directory
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    return (process, stdout, stderr)
  }

  /// Runs `replykit` to its end.
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
    let (process, stdout, stderr) = try start(arguments, environment: environment)
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// The contents of `name`, or "".
  func read(_ name: String) -> String {
    (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
  }
}
