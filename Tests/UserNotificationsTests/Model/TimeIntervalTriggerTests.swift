import Foundation
import Testing
@testable import UserNotifications

@Suite("UNTimeIntervalNotificationTrigger")
struct TimeIntervalTriggerTests {
    let anchor = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [(5.0, false), (0.001, false), (60, true), (3600, true)])
    func validIntervalsPassValidation(interval: TimeInterval, repeats: Bool) throws {
        try UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats).validate()
    }

    @Test func badIntervalsAreStoredNotTrapped() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: -5, repeats: true)
        #expect(trigger.timeInterval == -5 && trigger.repeats)
    }

    @Test(arguments: [
        (0.0, false, NotificationTriggerError.timeIntervalNotPositive(0)),
        (-1, false, .timeIntervalNotPositive(-1)),
        (59.9, true, .repeatingTimeIntervalBelowMinimum(59.9)),
        (.infinity, false, .timeIntervalNotFinite(.infinity)),
    ])
    func badIntervalsFailValidationWithTheReason(interval: TimeInterval, repeats: Bool, expected: NotificationTriggerError) {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats)
        #expect(throws: expected) { try trigger.validate() }
        #expect(trigger.nextFireDate(after: anchor, anchor: anchor) == nil)
    }

    @Test func notANumberFailsValidation() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: .nan, repeats: false)
        let error = #expect(throws: NotificationTriggerError.self) { try trigger.validate() }
        guard case .timeIntervalNotFinite? = error else {
            Issue.record("expected timeIntervalNotFinite, got \(String(describing: error))")
            return
        }
    }

    @Test func oneShotFiresOnceAtAnchorPlusInterval() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        #expect(trigger.nextFireDate(after: anchor, anchor: anchor) == anchor + 5)
        #expect(trigger.nextFireDate(after: anchor + 4.9, anchor: anchor) == anchor + 5)
        #expect(trigger.nextFireDate(after: anchor + 5, anchor: anchor) == nil)
    }

    @Test func repeatingFiresAtWholeMultiplesOfTheIntervalAfterTheAnchor() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)
        #expect(trigger.nextFireDate(after: anchor, anchor: anchor) == anchor + 60)
        #expect(trigger.nextFireDate(after: anchor + 60, anchor: anchor) == anchor + 120)
        #expect(trigger.nextFireDate(after: anchor + 3.5 * 60, anchor: anchor) == anchor + 240)
    }

    @Test func repeatsDoNotDriftOverAThousandDeliveries() throws {
        let interval: TimeInterval = 61.3
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: true)
        var delivery = anchor
        for _ in 1...1000 {
            delivery = try #require(trigger.nextFireDate(after: delivery, anchor: anchor))
        }
        #expect(delivery == anchor.addingTimeInterval(1000 * interval))
    }

    @Test func lateDeliveriesDoNotShiftLaterOnes() throws {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)
        let deliveredLate = anchor + 60 + 17
        #expect(trigger.nextFireDate(after: deliveredLate, anchor: anchor) == anchor + 120)
    }

    @Test func aToolThatDeliversItselfMayRepeatUnderAMinute() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 1, repeats: true)
        #expect(trigger.nextFireDate(after: anchor, anchor: anchor) == nil, "the center's 60-second minimum")
        #expect(trigger.nextFireDate(after: anchor, anchor: anchor, minimumRepeatingInterval: 1) == anchor + 1)
        #expect(trigger.nextFireDate(after: anchor + 2.5, anchor: anchor, minimumRepeatingInterval: 1) == anchor + 3)
        #expect(trigger.nextFireDate(after: anchor - 7, anchor: anchor, minimumRepeatingInterval: 1) == anchor + 1)
    }

    @Test func anIntervalTooSmallToMoveTheDateEndsInsteadOfLooping() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 1e-300, repeats: true)
        #expect(trigger.nextFireDate(after: anchor + 100, anchor: anchor, minimumRepeatingInterval: 0) == nil)
    }

    @Test func centerAsksThroughTheCommonEntryPoint() {
        let trigger: UNNotificationTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)
        #expect(trigger.nextFireDate(after: anchor + 61, anchor: anchor, calendar: Calendar(identifier: .gregorian)) == anchor + 120)
    }

    @Test func unscheduledTriggerReportsIntervalFromNow() throws {
        let before = Date()
        let next = try #require(UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false).nextTriggerDate())
        #expect(next >= before + 300 && next <= Date() + 300)
    }

    @Test func scheduledTriggerReportsItsRealNextDate() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)
        let scheduledLongAgo = trigger.anchored(at: anchor)
        let next = scheduledLongAgo.nextTriggerDate()
        #expect(next.map { $0.timeIntervalSince(anchor).truncatingRemainder(dividingBy: 60) } == 0)
        #expect(scheduledLongAgo == trigger)
        #expect(UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false).anchored(at: anchor).nextTriggerDate() == nil)
    }
}
