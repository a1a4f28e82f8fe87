import ChatEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replies from a shell command: `--reply-command CMD`.
///
/// For each reply CMD runs through `sh -c` with the thread so far as JSON (``ChatArchive``'s
/// format) on its standard input; its standard output streams into the reply as it arrives
/// (split UTF-8 sequences are joined, invalid bytes become U+FFFD). Exit status 0 completes the
/// reply; any other status fails it with the last non-empty line of standard error (or the
/// status); exit status 0 with no output, or only blank space, fails it with "The reply command
/// printed nothing.".
/// Stop sends SIGTERM to the command's process group, then SIGKILL after a second; quitting
/// ends every such group and waits for it (``ProcessGroups``).
///
/// Memory stays bounded whatever the command prints: past ``maximumReplyBytes`` of standard
/// output the command is ended as Stop ends it and the reply fails with the text so far kept
/// (as a model's reply does past the same size); of standard error only the last
/// ``keptErrorBytes`` are kept.
struct CommandReplySource: Sendable {
  /// The shell command.
  let command: String
  /// The most standard output one reply takes (32 MiB, as a model's reply; tests make it small).
  var maximumReplyBytes = 32 << 20

  /// The end of standard error kept for the failure message (64 KiB).
  static let keptErrorBytes = 65_536

  /// The engine's reply closure for this command.
  var reply: ChatThread.Reply {
    let command = self.command
    let limit = maximumReplyBytes
    return { history in CommandReplySource.stream(command: command, history: history, limit: limit) }
  }

  /// A failure of the command, shown in place of the reply.
  struct Failure: LocalizedError {
    let message: String
    var errorDescription: String? { message }
  }

  /// Runs `command` for one reply to `history`.
  static func stream(command: String, history: [ChatMessage], limit: Int = 32 << 20)
    -> AsyncThrowingStream<String, any Error>
  {
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    let input = ChatArchive.encode(history)
    let process: Subprocess
    do {
      process = try Subprocess.shell(command)
    } catch {
      continuation.finish(throwing: Failure(message: "\(error)"))
      return stream
    }
    ProcessGroups.add(process.pid)
    let exited = LockedValue(false)
    continuation.onTermination = { termination in
      if case .cancelled = termination, !exited.value {
        process.terminate(grace: 1) { exited.value }
      }
    }
    // Each blocking job has a thread of its own: on the shared dispatch pool (as wide as the
    // machine has cores, and the Swift tasks' pool too) the writer and the standard error reader
    // could take every worker, holding the reply back until the pool grew (about a second).
    Subprocess.onOwnThread { Subprocess.writeAndClose(input, to: process.input) }
    let errors = DispatchGroup()
    let lastErrorLine = LockedValue("")
    errors.enter()
    Subprocess.onOwnThread {
      let bytes = readAll(process.error, keepingLast: keptErrorBytes)
      close(process.error)
      let text = String(decoding: bytes, as: UTF8.self)
      let line = text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
      lastErrorLine.set(line.map(String.init) ?? "")
      errors.leave()
    }
    Subprocess.onOwnThread {
      var carry: [UInt8] = []
      var printed = false
      var total = 0
      var tooLong = false
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        let taken = min(count, limit - total)
        total += taken
        carry += buffer[0..<taken]
        if taken < count {
          // Past the limit: the text so far stays (up to its last whole character), the command ends.
          tooLong = true
          carry.removeLast(carry.count - completePrefixLength(carry))
          process.terminate(grace: 1) { exited.value }
          break
        }
        let complete = completePrefixLength(carry)
        if complete > 0 {
          let text = String(decoding: carry[0..<complete], as: UTF8.self)
          // Blank space alone shows nothing: it counts as printing nothing (as a model's reply of
          // only white space counts as empty).
          if !printed { printed = text.contains { !$0.isWhitespace } }
          continuation.yield(text)
          carry.removeFirst(complete)
        }
      }
      close(process.output)
      if !carry.isEmpty {
        let text = String(decoding: carry, as: UTF8.self)
        if !printed { printed = text.contains { !$0.isWhitespace } }
        continuation.yield(text)
      }
      errors.wait()
      let end = process.wait()
      exited.set(true)
      ProcessGroups.forgetIfGone(process.pid)
      if tooLong {
        continuation.finish(
          throwing: Failure(
            message:
              "The reply command printed more than \(limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"); the rest was not read."
          ))
      } else if end == Subprocess.End(status: 0), !printed {
        continuation.finish(throwing: Failure(message: "The reply command printed nothing."))
      } else if end == Subprocess.End(status: 0) {
        continuation.finish()
      } else {
        let line = Self.shortened(lastErrorLine.value)
        let ending = "The reply command \(end.phrase)"
        continuation.finish(
          throwing: Failure(
            message: line.isEmpty ? ending + "." : end.signal == nil ? line : "\(ending): \(line)"))
      }
    }
    return stream
  }

  /// The most characters of a command's error line a failure shows (as a model's error message).
  static let errorLineLimit = 300

  /// `line` cut to ``errorLineLimit`` characters, with `…` when cut; NUL bytes dropped.
  static func shortened(_ line: String) -> String {
    let clean = line.filter { $0 != "\u{0}" }
    return clean.count > errorLineLimit ? String(clean.prefix(errorLineLimit)) + "…" : clean
  }

  /// The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence.
  static func completePrefixLength(_ bytes: [UInt8]) -> Int {
    var start = bytes.count
    var continuation = 0
    while start > 0, continuation < 3, bytes[start - 1] & 0xC0 == 0x80 {
      start -= 1
      continuation += 1
    }
    guard start > 0 else { return bytes.count }
    let lead = bytes[start - 1]
    let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    return expected > continuation + 1 ? start - 1 : bytes.count
  }

  /// Reads `descriptor` to its end, keeping the last `kept` bytes (memory stays within twice that).
  static func readAll(_ descriptor: Int32, keepingLast kept: Int) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      result += buffer[0..<count]
      if result.count > 2 * kept { result.removeFirst(result.count - kept) }
    }
    return Array(result.suffix(kept))
  }
}
