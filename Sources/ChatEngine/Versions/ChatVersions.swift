import Foundation

/// The versions of one shown turn: the turns at the same place in the thread (after the same
/// turn, or first), oldest first, and which of them shows.
///
/// A reply gets a version from Regenerate and Retry; the person's turn from an edit. Versions are
/// numbered from 1 in the order they were made; the number never changes.
public struct ChatVersions: Hashable, Sendable {
  /// The ids of every version, oldest first (at least two).
  public var ids: [UUID]
  /// The index in ``ids`` of the version that shows.
  public var shownIndex: Int

  /// Creates the versions of a turn.
  public init(ids: [UUID], shownIndex: Int) {
    self.ids = ids
    self.shownIndex = shownIndex
  }

  /// How many versions there are.
  public var count: Int { ids.count }
  /// The number of the shown version, from 1.
  public var number: Int { shownIndex + 1 }
  /// The id of the shown version.
  public var shownID: UUID { ids[shownIndex] }

  /// "Version 2 of 3": what the switch announces and the transcript says.
  public var text: String { "Version \(number) of \(count)" }
}
