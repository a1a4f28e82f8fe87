import Foundation

/// The day sections of one version of a thread, valid while "today" stays the same day.
struct SectionCache {
  var structureVersion: Int
  var threadVersion: Int
  var today: DateInterval
  var sections: [ChatDaySection]
}
