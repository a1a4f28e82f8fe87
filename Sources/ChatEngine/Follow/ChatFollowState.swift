/// Whether the view follows the latest turn, and whether new content came while it did not.
///
/// Only the person's own scrolling stops following: content growing, or an animated scroll on
/// its way down, never counts as leaving the bottom. Reaching the bottom, sending, regenerating,
/// retrying or jumping resumes following. A pure value; ``ChatThread`` owns one.
public struct ChatFollowState: Hashable, Sendable {
  /// Whether the view keeps the latest turn on screen (`atLatest`).
  public private(set) var isFollowing = true
  /// Whether content arrived while not following.
  public private(set) var hasNewMessages = false

  /// Creates the initial state: following, nothing new.
  public init() {}

  /// Whether to float "jump to latest" over the thread.
  public var showsJumpToLatest: Bool { !isFollowing }

  /// The jump button's label: "New messages" when content came, else "Latest".
  public var jumpLabel: String { hasNewMessages ? "New messages" : "Latest" }

  /// Content grew (a message or published text): marks "new messages" when not following.
  public mutating func contentGrew() {
    if !isFollowing { hasNewMessages = true }
  }

  /// The scroll position changed; `isUserDriven` when the person is dragging or flinging.
  public mutating func scrolled(isAtBottom: Bool, isUserDriven: Bool) {
    if isAtBottom {
      jumpedToLatest()
    } else if isUserDriven {
      isFollowing = false
    }
  }

  /// Follows again and clears "new messages".
  public mutating func jumpedToLatest() {
    isFollowing = true
    hasNewMessages = false
  }
}
