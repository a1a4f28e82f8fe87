import Foundation

/// The day sections of one structure version of a thread, valid while "today" stays the same day.
struct SectionCache {
  var version: Int
  var today: DateInterval
  var sections: [ChatDaySection]
}

extension ChatThread {
  /// The day sections of the thread, in thread order (see
  /// ``ChatDaySection/sections(for:now:calendar:timeZone:locale:)``).
  ///
  /// Cached until a message is added or replaced or the day changes, so publishing streamed
  /// text never recomputes them. Empty for an empty thread.
  public var daySections: [ChatDaySection] {
    let messages = self.messages
    let now = environment.clock.now()
    if let cache = sectionCache, cache.version == structureVersion, now >= cache.today.start, now < cache.today.end {
      return cache.sections
    }
    var calendar = environment.calendar
    calendar.timeZone = environment.timeZone
    let sections = ChatDaySection.sections(
      for: messages, now: now, calendar: calendar, timeZone: environment.timeZone, locale: environment.locale)
    if let today = calendar.dateInterval(of: .day, for: now) {
      sectionCache = SectionCache(version: structureVersion, today: today, sections: sections)
    }
    return sections
  }

  /// The view state of the turn at `index` of ``messages``.
  ///
  /// - Complexity: O(1); no markdown is parsed.
  public func turn(at index: Int) -> ChatTurn {
    ChatTurn(
      message: messages[index], isLatest: index == messages.count - 1, copied: copied,
      showsThumbs: onFeedback != nil)
  }

  /// Every row a view lays out: ghost turns while ``isLoading``; otherwise each day separator
  /// followed by its turns; nothing at all for an empty thread.
  ///
  /// - Complexity: O(n) in the messages; no markdown is parsed.
  public var rows: [ChatRow] {
    if isLoading { return ChatGhostTurn.loading.map(ChatRow.ghost) }
    let sections = daySections
    // One observed read of the thread, not one per row.
    let messages = self.messages
    let copied = self.copied
    let showsThumbs = onFeedback != nil
    var rows: [ChatRow] = []
    rows.reserveCapacity(messages.count + sections.count)
    for section in sections {
      rows.append(.daySeparator(section))
      for index in section.range {
        rows.append(
          .turn(
            ChatTurn(
              message: messages[index], isLatest: index == messages.count - 1, copied: copied,
              showsThumbs: showsThumbs)))
      }
    }
    return rows
  }

  /// How assistive technology reads the turn with `id`, or `nil` if there is none.
  public func accessibility(for id: UUID) -> ChatTurnAccessibility? {
    guard let index = index(of: id) else { return nil }
    return ChatTurnAccessibility(message: messages[index], plainText: environment.formatter.plainText)
  }

  /// The thread as text for accessibility and export (see ``ChatTranscript``).
  public var transcript: String {
    ChatTranscript.text(messages: messages, sections: daySections, plainText: environment.formatter.plainText)
  }
}
