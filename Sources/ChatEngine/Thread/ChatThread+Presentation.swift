import Foundation

extension ChatThread {
  /// The day sections of the thread, in thread order (see
  /// ``ChatDaySection/sections(for:now:calendar:timeZone:locale:)``).
  ///
  /// Cached until a message is added or replaced or the day changes, so publishing streamed
  /// text never recomputes them; after a send, a reply or a regenerate only the last section is
  /// recomputed, after a version switch or an edit the sections from the changed turn on.
  /// Empty for an empty thread.
  public var daySections: [ChatDaySection] {
    let messages = self.messages
    let now = environment.clock.now()
    var calendar = environment.calendar
    calendar.timeZone = environment.timeZone
    func compute(_ slice: ArraySlice<ChatMessage>) -> [ChatDaySection] {
      ChatDaySection.sections(
        for: slice, now: now, calendar: calendar, timeZone: environment.timeZone, locale: environment.locale)
    }
    var sections: [ChatDaySection]
    if let cache = sectionCache, now >= cache.today.start, now < cache.today.end,
      cache.threadVersion == threadVersion
    {
      if cache.structureVersion == structureVersion { return cache.sections }
      // Only the end of the thread changed (appends, the last reply replaced), or the path from
      // `pathChangedFrom` (a version switched or added): sections from there are recomputed.
      sections = cache.sections
      var start = sections.popLast()?.range.lowerBound ?? 0
      while start > pathChangedFrom, let last = sections.popLast() { start = last.range.lowerBound }
      for section in compute(messages[min(start, messages.count)...]) {
        if let last = sections.last, last.day == section.day {
          sections[sections.count - 1].range = last.range.lowerBound..<section.range.upperBound
        } else {
          sections.append(section)
        }
      }
    } else {
      sections = compute(messages[...])
    }
    pathChangedFrom = Int.max
    if let today = calendar.dateInterval(of: .day, for: now) {
      sectionCache = SectionCache(
        structureVersion: structureVersion, threadVersion: threadVersion, today: today, sections: sections)
    }
    return sections
  }

  /// The view state of the turn at `index` of ``messages``.
  ///
  /// - Complexity: O(1); no markdown is parsed.
  public func turn(at index: Int) -> ChatTurn {
    ChatTurn(
      message: messages[index], isLatest: index == messages.count - 1, copied: copied,
      showsThumbs: onFeedback != nil, versions: branches.versions(at: index, in: messages))
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
    let branches = self.branches
    var rows: [ChatRow] = []
    rows.reserveCapacity(messages.count + sections.count)
    for section in sections {
      rows.append(.daySeparator(section))
      for index in section.range {
        rows.append(
          .turn(
            ChatTurn(
              message: messages[index], isLatest: index == messages.count - 1, copied: copied,
              showsThumbs: showsThumbs, versions: branches.versions(at: index, in: messages))))
      }
    }
    return rows
  }

  /// How assistive technology reads the turn with `id`, or `nil` if there is none.
  public func accessibility(for id: UUID) -> ChatTurnAccessibility? {
    guard let index = index(of: id) else { return nil }
    return ChatTurnAccessibility(
      message: messages[index], plainText: environment.formatter.plainText,
      versions: branches.versions(at: index, in: messages))
  }

  /// The thread as text for accessibility and export (see ``ChatTranscript``): the shown path,
  /// saying "Version N of M" under each turn that has other versions.
  public var transcript: String {
    let messages = self.messages
    let branches = self.branches
    return ChatTranscript.text(
      messages: messages, sections: daySections, plainText: environment.formatter.plainText,
      versions: { branches.versions(at: $0, in: messages) })
  }
}
