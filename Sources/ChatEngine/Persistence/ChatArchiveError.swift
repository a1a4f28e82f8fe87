import Foundation

/// Why a thread could not be saved or loaded; the thread is left unchanged in every case.
public enum ChatArchiveError: Error, Hashable, Sendable, LocalizedError {
  /// The file could not be read.
  case unreadable(String)
  /// The file could not be written; any previous file at the place is intact.
  case unwritable(String)
  /// The file is not a thread: `path` names the place (`messages[3].role`, empty for the
  /// whole file) and `problem` what is wrong there.
  case invalid(path: String, problem: String)

  /// A sentence for the person, naming the place and the problem.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let reason): return "The thread could not be read: \(reason)"
    case .unwritable(let reason): return "The thread could not be saved: \(reason)"
    case .invalid(let path, let problem): return path.isEmpty ? problem : "\(path): \(problem)"
    }
  }
}
