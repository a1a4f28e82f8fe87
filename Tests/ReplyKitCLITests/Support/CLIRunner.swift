import Foundation

/// Runs the built `replykit` executable and captures what it prints.
enum CLIRunner {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// The `replykit` binary next to the test bundle (`swift build --build-tests` builds it).
  static var executable: URL {
    var url = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("replykit").path) {
      url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("replykit")
  }

  /// Runs `replykit` with `arguments`, feeding `input` on standard input. Standard output goes
  /// to `output` when given (a device such as `/dev/full`; ``Result/stdout`` is then empty).
  static func run(
    _ arguments: [String], input: String = "", environment: [String: String] = [:], output: FileHandle? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = output ?? stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = output == nil ? stdout.fileHandleForReading.readDataToEndOfFile() : Data()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}
