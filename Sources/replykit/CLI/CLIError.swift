/// An error the command line reports as one line on stderr, with a non-zero exit status.
struct CLIError: Error, CustomStringConvertible {
  /// What went wrong and, where it helps, what to do.
  let message: String
  /// The exit status: 2 for usage errors, 1 for everything else.
  let status: Int32

  static func usage(_ message: String) -> CLIError { CLIError(message: message, status: 2) }
  static func failure(_ message: String) -> CLIError { CLIError(message: message, status: 1) }

  var description: String { message }
}
