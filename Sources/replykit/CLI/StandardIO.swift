#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading inputs and writing outputs with plain POSIX calls (no Foundation on the hot path).
enum StandardIO {
  /// Reads the whole file at `path`, or standard input for `nil` or `-`, as text; invalid UTF-8
  /// becomes U+FFFD.
  static func readText(_ path: String?) throws -> String {
    // A regular file is read straight into the string's storage (one copy, validated in place).
    if let path, path != "-" {
      let descriptor = open(path, O_RDONLY)
      if descriptor >= 0 {
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0 {
          let size = Int(info.st_size)
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
        }
      }
    }
    let bytes = try readAll(path)
    return bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
  }

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
    var info = stat()
    let sizeHint = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(sizeHint + 1, 1 << 16))
    while true {
      if bytes.count == bytes.capacity { bytes.reserveCapacity(bytes.capacity * 2) }
      let start = bytes.count
      let room = bytes.capacity - start
      var failure: Int32 = 0
      var readCount = 0
      bytes.append(contentsOf: repeatElement(0, count: room))
      bytes.withUnsafeMutableBytes { raw in
        readCount = read(descriptor, raw.baseAddress.map { $0 + start }, room)
        if readCount < 0 { failure = errno }
      }
      bytes.removeLast(room - max(readCount, 0))
      if readCount < 0 {
        if failure == EINTR { continue }
        throw CLIError.failure("cannot read '\(path ?? "standard input")': \(String(cString: strerror(failure)))")
      }
      if readCount == 0 { break }
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
