import ChatEngine
import Foundation
import ReplyMarkdown

/// Reading a saved thread (the JSON that `ChatArchive` writes), the same way for `export` and
/// `chat`, so both give the same reasons.
enum ThreadFile {
  /// Reads and decodes the thread at `path` (standard input for `-`).
  ///
  /// Reading goes through ``StandardIO/readAll(_:limit:)``, so the reasons are the system's
  /// (`errno`), never Foundation's generic ones.
  ///
  /// - Throws: a ``CLIError`` (status 1) in one line that names the file: `cannot read 'PATH':
  ///   REASON` (`it is a directory`, `Permission denied`, …), `'PATH': input too large: …` past
  ///   `limit` bytes, `PATH: the file is empty …`, or `PATH: PLACE: PROBLEM` for a file that is
  ///   not a thread (`messages[3].role: …`, `not valid JSON: … at line 1, column 2`).
  static func read(_ path: String, limit: Int = InputLimits.default.maxInputBytes) throws(CLIError)
    -> ChatArchive.Document
  {
    let bytes: [UInt8]
    do {
      bytes = try StandardIO.readAll(path, limit: limit)
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError.failure("cannot read \(StandardIO.name(of: path)): \(error)")
    }
    let name = path == "-" ? "standard input" : path
    if bytes.isEmpty {
      throw CLIError.failure("\(name): the file is empty; a thread file is JSON with a \"messages\" list")
    }
    do {
      return try ChatArchive.decodeDocument(Data(bytes))
    } catch {
      throw CLIError.failure("\(name): \(oneLine(error.errorDescription ?? "not a thread file"))")
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
