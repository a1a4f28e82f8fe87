import Foundation
import ReplyMarkdown

/// Everything a ``ChatThread`` takes from the outside world: time, calendar, ids, clipboard,
/// announcer, haptics and the reply formatter.
///
/// The defaults are the real ones (wall clock, current calendar, random UUIDs, no clipboard);
/// tests replace them to make every behaviour deterministic.
///
/// `Sendable`: every member is a `Sendable` value or a `@Sendable` closure, so nonisolated code
/// (a task, a factory off the main actor) can build one and hand it to the thread. The closures
/// that touch the app are `@MainActor`: the thread calls them on the main actor only.
public struct ChatEnvironment: Sendable {
  /// The time source for dates, the Copied mark and publish coalescing.
  public var clock: any ChatClock
  /// The viewer's calendar (its time zone and locale are overridden by the two below).
  public var calendar: Calendar
  /// The viewer's time zone, for day sections and saved dates.
  public var timeZone: TimeZone
  /// The viewer's locale, for formatted dates.
  public var locale: Locale
  /// Makes the id of each new message.
  public var makeID: @MainActor @Sendable () -> UUID
  /// Receives what Copy copies.
  public var clipboard: @MainActor @Sendable (ChatCopyPayload) -> Void
  /// Receives announcements for assistive technology.
  public var announce: @MainActor @Sendable (ChatAnnouncement) -> Void
  /// Receives haptic events.
  public var haptic: @MainActor @Sendable (ChatHaptic) -> Void
  /// Turns markdown into plain text and code blocks (Copy, Share, accessibility, transcript).
  public var formatter: ReplyFormatter
  /// Receives every publish of a streaming reply's text, for an incremental formatter.
  public var replyUpdates: @MainActor @Sendable (ReplyUpdate) -> Void
  /// Renders the streaming reply incrementally (see ``ChatThread/streamingReply``); `nil` keeps
  /// no rendering (a front end that draws the reply another way, such as a terminal).
  public var streamingHTML: HTMLRenderer?
  /// How long "Copied" shows, in seconds: from 0 to 3,600 (a value outside is kept as the nearest
  /// of them, NaN as 0), so no timer can overflow.
  public var copiedDuration: TimeInterval {
    get { storedCopiedDuration }
    set { storedCopiedDuration = Self.seconds(newValue, upTo: 3600) }
  }
  /// The shortest time between two publishes of a streaming reply, in seconds (about 30 per
  /// second): from 0 to 60 (a value outside is kept as the nearest of them, NaN as 0).
  public var publishInterval: TimeInterval {
    get { storedPublishInterval }
    set { storedPublishInterval = Self.seconds(newValue, upTo: 60) }
  }
  private var storedCopiedDuration: TimeInterval
  private var storedPublishInterval: TimeInterval

  /// `value` within `0...most`, NaN as 0.
  private static func seconds(_ value: TimeInterval, upTo most: TimeInterval) -> TimeInterval {
    value.isNaN ? 0 : min(max(value, 0), most)
  }

  /// Creates an environment; every argument has the production default.
  public init(
    clock: any ChatClock = SystemChatClock(),
    calendar: Calendar = .current,
    timeZone: TimeZone = .current,
    locale: Locale = .current,
    makeID: @escaping @MainActor @Sendable () -> UUID = { UUID() },
    clipboard: @escaping @MainActor @Sendable (ChatCopyPayload) -> Void = { _ in },
    announce: @escaping @MainActor @Sendable (ChatAnnouncement) -> Void = { _ in },
    haptic: @escaping @MainActor @Sendable (ChatHaptic) -> Void = { _ in },
    formatter: ReplyFormatter = .standard,
    replyUpdates: @escaping @MainActor @Sendable (ReplyUpdate) -> Void = { _ in },
    streamingHTML: HTMLRenderer? = HTMLRenderer(),
    copiedDuration: TimeInterval = 1.5,
    publishInterval: TimeInterval = 1.0 / 30
  ) {
    self.clock = clock
    self.calendar = calendar
    self.timeZone = timeZone
    self.locale = locale
    self.makeID = makeID
    self.clipboard = clipboard
    self.announce = announce
    self.haptic = haptic
    self.formatter = formatter
    self.replyUpdates = replyUpdates
    self.streamingHTML = streamingHTML
    self.storedCopiedDuration = Self.seconds(copiedDuration, upTo: 3600)
    self.storedPublishInterval = Self.seconds(publishInterval, upTo: 60)
  }
}
