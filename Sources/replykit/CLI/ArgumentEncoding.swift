#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command line's arguments as bytes: every one must be UTF-8.
///
/// Linux file names are bytes, and Swift decodes `CommandLine.arguments` by replacing invalid
/// bytes with U+FFFD, so a Latin-1 name such as `caf\xE9.json` would silently name another file
/// (`caf\u{FFFD}.json`): an export written beside the one asked for, a thread file taken for a new
/// one. Such an argument is refused before anything runs.
enum ArgumentEncoding {
  /// Throws a usage error naming the first argument (1-based, after the program) that is not
  /// UTF-8, its bytes shown with everything outside printable ASCII as `\xNN`.
  static func requireUTF8(_ arguments: [[UInt8]]) throws(CLIError) {
    for (index, bytes) in arguments.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
      throw CLIError.usage(
        "argument \(index + 1) is not UTF-8 ('\(escaped(bytes))'); replykit reads file names and text as UTF-8: "
          + "write a value (a title, a language) in UTF-8, and rename a file or pass it on standard input with '-'")
    }
  }

  /// The raw arguments after the program name.
  static var raw: [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { index in
      guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
      return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
    }
  }

  /// `bytes` with every byte outside printable ASCII (and the backslash) as `\xNN`.
  static func escaped(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
      if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
        text.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return text
  }
}
