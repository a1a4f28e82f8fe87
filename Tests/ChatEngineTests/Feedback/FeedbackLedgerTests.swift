import Testing

@testable import ChatEngine

@Suite("Feedback ledger")
struct FeedbackLedgerTests {
  @Test func theNewestAnswerShowsTheConfirmedValue() {
    var ledger = FeedbackLedger(confirmed: nil)
    ledger.tapped(1)
    ledger.tapped(2)
    #expect(ledger.rejected(1) == .keep)  // tap 2 still waits
    #expect(ledger.rejected(2) == .show(nil))
    #expect(ledger.isSettled)
  }

  @Test func acceptanceMovesTheConfirmedValueForward() {
    var ledger = FeedbackLedger(confirmed: .bad)
    ledger.tapped(1)
    #expect(ledger.accepted(1, value: .good) == .show(.good))
    ledger.tapped(2)
    ledger.tapped(3)
    #expect(ledger.accepted(3, value: nil) == .show(nil))
    // An older tap accepted after a newer one keeps the newer confirmation.
    #expect(ledger.accepted(2, value: .bad) == .show(nil))
    #expect(ledger.confirmed == nil)
    #expect(ledger.isSettled)
  }

  @Test func anOlderAcceptanceAfterTheNewestWasRejectedIsShown() {
    var ledger = FeedbackLedger(confirmed: nil)
    ledger.tapped(1)
    ledger.tapped(2)
    #expect(ledger.rejected(2) == .show(nil))
    #expect(!ledger.isSettled)
    #expect(ledger.accepted(1, value: .good) == .show(.good))
    #expect(ledger.isSettled)
  }
}
