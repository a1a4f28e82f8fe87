import Foundation

/// One row of the thread as a view lays it out: a day separator, a turn, or a ghost.
public enum ChatRow: Identifiable, Hashable, Sendable {
  /// A stable identity for lazy lists.
  public enum ID: Hashable, Sendable {
    /// The separator of the section starting with this message.
    case day(UUID)
    /// The turn of this message.
    case turn(UUID)
    /// A ghost, by position.
    case ghost(Int)
  }

  /// A day separator ("Today", "Yesterday", a date).
  case daySeparator(ChatDaySection)
  /// A turn.
  case turn(ChatTurn)
  /// A ghost turn while loading.
  case ghost(ChatGhostTurn)

  /// The row's identity.
  public var id: ID {
    switch self {
    case .daySeparator(let section): return .day(section.id)
    case .turn(let turn): return .turn(turn.id)
    case .ghost(let ghost): return .ghost(ghost.id)
    }
  }
}
