import ChatEngine
import Foundation
import Testing

@Suite("Follow state (pure)")
struct FollowStateTests {
  @Test func onlyTheUsersScrollingDetaches() throws {
    var state = ChatFollowState()
    state.scrolled(isAtBottom: false, isUserDriven: false)
    #expect(state.isFollowing)
    state.contentGrew()
    #expect(!state.hasNewMessages)
    state.scrolled(isAtBottom: false, isUserDriven: true)
    #expect(!state.isFollowing)
    #expect(state.showsJumpToLatest)
    #expect(state.jumpLabel == "Latest")
    state.contentGrew()
    #expect(state.hasNewMessages)
    #expect(state.jumpLabel == "New messages")
    state.scrolled(isAtBottom: true, isUserDriven: true)
    #expect(state.isFollowing)
    #expect(!state.hasNewMessages)
  }
}

@MainActor
@Suite("Follow state in the thread")
struct ThreadFollowTests {
  @Test func growthWhileDetachedSetsNewMessagesAndSendingResumes() async throws {
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    h.source.yield("a")
    #expect(await until { h.last?.text == "a" })
    #expect(h.thread.follow.isFollowing)
    // An animated scroll or growth moving the bottom away is not the user's doing.
    h.thread.scrolled(isAtBottom: false, isUserDriven: false)
    #expect(h.thread.follow.isFollowing)
    h.thread.scrolled(isAtBottom: false, isUserDriven: true)
    #expect(!h.thread.follow.isFollowing)
    #expect(!h.thread.follow.hasNewMessages)
    h.source.yield("b")
    #expect(await until { h.thread.follow.hasNewMessages })
    #expect(!h.thread.follow.isFollowing)
    try h.thread.send("Next")
    #expect(h.thread.follow.isFollowing)
    #expect(!h.thread.follow.hasNewMessages)
  }

  @Test func jumpingAndRegeneratingResume() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.yield("a")
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    h.thread.scrolled(isAtBottom: false, isUserDriven: true)
    h.thread.jumpToLatest()
    #expect(h.thread.follow.isFollowing)
    h.thread.scrolled(isAtBottom: false, isUserDriven: true)
    try h.thread.regenerate(h.last?.id ?? UUID())
    #expect(h.thread.follow.isFollowing)
    #expect(ChatThread.latestID == "ChatThread.latest")
  }
}
