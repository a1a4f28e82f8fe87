#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading inputs and writing outputs with plain POSIX calls (no Foundation on the hot path).
enum StandardIO {
  /// Reads the whole file at `path`, or standard input for `nil` or `-`.
  static func readAll(_ path: String?) throws -> [UInt8] {
    let descriptor: Int32
    if let path, path != "-" {
      descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else {
        throw CLIError.failure("cannot read '\(path)': \(String(cString: strerror(errno)))")
      }
      var info = stat()
      if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        close(descriptor)
        throw CLIError.failure("cannot read '\(path)': it is a directory")
      }
    } else {
      descriptor = STDIN_FILENO
    }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw CLIError.failure("cannot read '\(path ?? "standard input")': \(String(cString: strerror(errno)))")
      }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
  }

  /// Writes `text` to standard output.
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { writeAll(STDOUT_FILENO, $0) }
  }

  /// Writes bytes to standard output.
  static func write(bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll(STDOUT_FILENO, $0) }
  }

  /// Writes one line to standard error.
  static func writeError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { writeAll(STDERR_FILENO, $0) }
  }

  static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }

  /// Whether standard output is a terminal.
  static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
