import ChatEngine
import ReplyMarkdown
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading inputs and writing outputs with plain POSIX calls (no Foundation on the hot path).
enum StandardIO {
  /// The first error of a write to standard output (an `errno`), 0 while every write succeeded.
  /// After a failure nothing more is written; ``checkOutput()`` turns it into the command's error.
  private static let outputFailure = Mutex<Int32>(0)

  /// How errors name an input: `standard input` for `nil` or `-`, else the path in quotes.
  static func name(of path: String?) -> String {
    guard let path, path != "-" else { return "standard input" }
    return "'\(path)'"
  }

  /// The error for an input past `limit` bytes (`count`, or `nil` when only "more than" is known).
  static func tooLarge(_ path: String?, count: Int?, limit: Int) -> CLIError {
    let size = count.map { "\($0) bytes" } ?? "more than \(limit) bytes"
    return CLIError.failure(
      "\(name(of: path)): input too large: \(size); the limit is \(limit) bytes (raise it with --max-bytes N)")
  }

  /// Throws when a write to standard output failed (a full disk, a closed pipe or descriptor).
  static func checkOutput() throws {
    let failure = outputError
    guard failure != 0 else { return }
    throw CLIError.failure("cannot write standard output: \(String(cString: strerror(failure)))")
  }

  /// The `errno` of the first failed write to standard output, 0 while every write succeeded.
  static var outputError: Int32 { outputFailure.withLock { $0 } }

  /// Puts `/dev/null` on each standard descriptor the program was started without (`>&-`), so
  /// that no file, pipe or event descriptor opened later takes its number: text meant for
  /// standard output would otherwise go into whatever took descriptor 1 (a reply command's
  /// pipe, a thread file being saved). Standard output is opened read-only and standard input
  /// write-only, so using them still fails with `EBADF` as on a closed descriptor, and the
  /// failure is reported as before. Call it first, before anything is opened.
  static func reserveClosedStandardDescriptors() {
    for (descriptor, mode) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)] {
      guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
      let opened = open("/dev/null", mode)
      guard opened >= 0, opened != descriptor else { continue }
      dup2(opened, descriptor)
      close(opened)
    }
  }

  /// Reads the whole file at `path`, or standard input for `nil` or `-`, as text; invalid UTF-8
  /// becomes U+FFFD. An input of more than `limit` bytes is an error (``tooLarge(_:count:limit:)``).
  static func readText(_ path: String?, limit: Int = InputLimits.default.maxInputBytes) throws -> String {
    let descriptor = try openInput(path)
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    // A regular file is read straight into the string's storage (one copy, validated in place).
    var info = stat()
    if descriptor != STDIN_FILENO, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
      let size = Int(info.st_size)
      if size > limit { throw tooLarge(path, count: size, limit: limit) }
      var complete = true
      let text = String(unsafeUninitializedCapacity: size) { buffer in
        var filled = 0
        while filled < size {
          let count = read(descriptor, buffer.baseAddress.map { $0 + filled }, size - filled)
          if count < 0 && errno == EINTR { continue }
          if count <= 0 { break }
          filled += count
        }
        complete = filled == size
        return filled
      }
      if complete { return text }
      // The file changed size while it was read: read it again from its start, the same file.
      lseek(descriptor, 0, SEEK_SET)
    }
    // Anything else is read once from the descriptor opened above: a FIFO's writer is never
    // dropped by a second open.
    let bytes = try readAll(descriptor, path: path, limit: limit)
    return bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
  }

  /// Reads the whole file at `path`, or standard input for `nil` or `-`; more than `limit` bytes
  /// is an error, raised as soon as the limit is passed (so `/dev/zero` ends at once).
  static func readAll(_ path: String?, limit: Int = InputLimits.default.maxInputBytes) throws -> [UInt8] {
    let descriptor = try openInput(path)
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    return try readAll(descriptor, path: path, limit: limit)
  }

  /// Opens `path` for reading (standard input for `nil` or `-`), refusing a directory.
  private static func openInput(_ path: String?) throws -> Int32 {
    guard let path, path != "-" else { return STDIN_FILENO }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw CLIError.failure("cannot read \(name(of: path)): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw CLIError.failure("cannot read \(name(of: path)): it is a directory")
    }
    return descriptor
  }

  /// Reads at most `buffer.count` bytes of `descriptor` (opened from `path`) into `buffer`:
  /// the count read, 0 at the end. A read a signal interrupted is tried again, after
  /// `interrupted` (where the caller handles the signal: `errno` is taken before it runs, so
  /// calls it makes cannot change what the read failed of; a stream stopped with Ctrl-Z read
  /// the terminal's cursor there, and `fg` ended it with "Inappropriate ioctl for device": a
  /// review). A descriptor left non-blocking by the program that started this one has no
  /// bytes yet rather than none left: the read waits for them (`poll`) instead of failing with
  /// "Resource temporarily unavailable". Any other failure is an error naming the input.
  static func readSome(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String?, interrupted: () -> Void = {}
  ) throws -> Int {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      let failure = errno
      if failure == EAGAIN || failure == EWOULDBLOCK {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, -1) >= 0 { continue }
        let pollFailure = errno
        if pollFailure != EINTR {
          throw CLIError.failure("cannot read \(name(of: path)): \(String(cString: strerror(pollFailure)))")
        }
      } else if failure != EINTR {
        throw CLIError.failure("cannot read \(name(of: path)): \(String(cString: strerror(failure)))")
      }
      interrupted()
    }
  }

  /// Reads `descriptor` (opened from `path`) to its end.
  private static func readAll(_ descriptor: Int32, path: String?, limit: Int) throws -> [UInt8] {
    var info = stat()
    let sizeHint = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
    if sizeHint > limit { throw tooLarge(path, count: sizeHint, limit: limit) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(sizeHint + 1, 1 << 16))
    while true {
      if bytes.count > limit { throw tooLarge(path, count: nil, limit: limit) }
      if bytes.count == bytes.capacity {
        bytes.reserveCapacity(min(bytes.capacity * 2, limit == .max ? .max : limit + 1))
      }
      let start = bytes.count
      let room = bytes.capacity - start
      bytes.append(contentsOf: repeatElement(0, count: room))
      let readCount = try bytes.withUnsafeMutableBytes { raw in
        try readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]), path: path)
      }
      bytes.removeLast(room - readCount)
      if readCount == 0 { break }
    }
    return bytes
  }

  /// Writes `text` to standard output (a failure is kept for ``checkOutput()``).
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { writeAll(STDOUT_FILENO, $0) }
  }

  /// Writes text not made for a terminal (HTML, Copy/Share plain text, a transcript, JSON lines)
  /// to standard output: on a terminal the characters it would obey (ESC, BEL, C1, bidi
  /// overrides) show as symbols (``TerminalSafeText``); into a pipe or a file it is written byte for
  /// byte. A failure is kept for ``checkOutput()``.
  static func writeShown(_ text: String) {
    write(outputShowsControls ? TerminalSafeText.visible(text) : text)
  }

  /// ``writeShown(_:)`` for UTF-8 bytes.
  static func writeShown(_ buffer: UnsafeBufferPointer<UInt8>) {
    if outputShowsControls {
      write(TerminalSafeText.visible(String(decoding: buffer, as: UTF8.self)))
    } else {
      writeAll(STDOUT_FILENO, buffer)
    }
  }

  /// Whether ``writeShown(_:)`` replaces control characters: standard output is a terminal.
  static let outputShowsControls = isatty(STDOUT_FILENO) == 1

  /// Writes bytes to standard output (a failure is kept for ``checkOutput()``).
  static func write(bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll(STDOUT_FILENO, $0) }
  }

  /// Writes one line to standard error. Messages quote names and reasons from outside (a file
  /// name, a server's error): the control characters in them show as symbols (tab and newline
  /// kept; ``ProgramExit`` also shows those, for a message that must stay one line).
  static func writeError(_ line: String) {
    var text = TerminalSafeText.visible(line) + "\n"
    text.withUTF8 { _ = OutputFile.writeAll(STDERR_FILENO, $0) }
  }

  /// Writes all of `buffer` to `descriptor`; for standard output, a failure is kept for
  /// ``checkOutput()`` and later writes are skipped.
  static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
    guard descriptor == STDOUT_FILENO else {
      _ = OutputFile.writeAll(descriptor, buffer)
      return
    }
    guard outputFailure.withLock({ $0 }) == 0 else { return }
    let failure = OutputFile.writeAll(descriptor, buffer)
    if failure != 0 { outputFailure.withLock { if $0 == 0 { $0 = failure } } }
  }

  /// Whether standard output is a terminal.
  static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Whether `TERM` names a terminal that cannot move its cursor (`dumb`: Emacs's shell buffers,
  /// some CI log viewers): output for it is written as into a pipe, never redrawn in place.
  static var terminalIsDumb: Bool { getenv("TERM").map { String(cString: $0) } == "dumb" }
}
