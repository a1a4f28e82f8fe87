import Foundation

/// A placeholder turn drawn while the thread loads, in the thread's layout.
public struct ChatGhostTurn: Identifiable, Hashable, Sendable {
  /// The position among the ghosts.
  public var id: Int
  /// Which side the ghost sits on.
  public var role: ChatMessage.Role
  /// How many placeholder lines it has.
  public var lineCount: Int

  /// Creates a ghost turn.
  public init(id: Int, role: ChatMessage.Role, lineCount: Int) {
    self.id = id
    self.role = role
    self.lineCount = lineCount
  }

  /// The ghosts shown while loading: a short question, a longer answer, and again.
  public static let loading: [ChatGhostTurn] = [
    ChatGhostTurn(id: 0, role: .user, lineCount: 1),
    ChatGhostTurn(id: 1, role: .assistant, lineCount: 4),
    ChatGhostTurn(id: 2, role: .user, lineCount: 2),
    ChatGhostTurn(id: 3, role: .assistant, lineCount: 3),
  ]
}
