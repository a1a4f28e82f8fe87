/// The thumbs of one reply while `onFeedback` calls run: the value the handler last confirmed,
/// and which taps still wait for an answer.
///
/// A pure value with the rollback rule in one place: once the newest tap has its answer, the
/// reply shows the last value `onFeedback` accepted, so a rejected tap never leaves a value on
/// screen that the handler did not accept (two rejected taps, good then bad, end on the value
/// from before both). Taps are numbered thread-wide, newest highest.
struct FeedbackLedger: Hashable, Sendable {
  /// What the reply should show after an answer.
  enum Shown: Hashable, Sendable {
    /// Leave the shown value: a newer tap is waiting and shows its own choice.
    case keep
    /// Show this value (the confirmed one).
    case show(ChatMessage.Feedback?)
  }

  /// The value `onFeedback` last accepted, or the reply's value before the first tap (it came
  /// from the saved thread).
  private(set) var confirmed: ChatMessage.Feedback?
  /// The number of the tap that set ``confirmed``; 0 for the value the reply started with.
  private var confirmedTap: UInt64 = 0
  private var newestTap: UInt64 = 0
  private var newestAnswered = true
  private var outstanding = 0

  /// Starts the ledger of a reply that shows `confirmed`.
  init(confirmed: ChatMessage.Feedback?) {
    self.confirmed = confirmed
  }

  /// Whether no tap waits for an answer, so the ledger can be dropped.
  var isSettled: Bool { outstanding == 0 }

  /// Records a tap: it is now the newest one waiting.
  mutating func tapped(_ tap: UInt64) {
    newestTap = tap
    newestAnswered = false
    outstanding += 1
  }

  /// `onFeedback` accepted `value` for `tap`. An answer to an older tap than the confirmed one
  /// changes nothing (the newer confirmation stands).
  mutating func accepted(_ tap: UInt64, value: ChatMessage.Feedback?) -> Shown {
    if tap > confirmedTap {
      confirmed = value
      confirmedTap = tap
    }
    return answered(tap)
  }

  /// `onFeedback` rejected `tap`.
  mutating func rejected(_ tap: UInt64) -> Shown {
    answered(tap)
  }

  private mutating func answered(_ tap: UInt64) -> Shown {
    outstanding -= 1
    if tap == newestTap { newestAnswered = true }
    return newestAnswered ? .show(confirmed) : .keep
  }
}
