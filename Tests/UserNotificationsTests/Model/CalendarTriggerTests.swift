import Foundation
import Testing
@testable import UserNotifications

@Suite("UNCalendarNotificationTrigger")
struct CalendarTriggerTests {
    let gregorian = Calendar(identifier: .gregorian)

    @Test func springForwardFiresAtTheFirstMomentAfterTheGap() throws {
        let components = DateComponents(timeZone: zone("America/Los_Angeles"), hour: 2, minute: 30)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)

        let first = try #require(trigger.nextFireDate(after: date("2024-03-09T12:00:00-08:00"), calendar: gregorian))
        #expect(first == date("2024-03-10T03:00:00-07:00"))
        #expect(trigger.nextFireDate(after: first, calendar: gregorian) == date("2024-03-11T02:30:00-07:00"))
    }

    @Test func fallBackFiresOnceAtTheFirstOccurrence() throws {
        let components = DateComponents(timeZone: zone("America/Los_Angeles"), hour: 1, minute: 30)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)

        let first = try #require(trigger.nextFireDate(after: date("2024-11-02T12:00:00-07:00"), calendar: gregorian))
        #expect(first == date("2024-11-03T01:30:00-07:00"))
        #expect(trigger.nextFireDate(after: first, calendar: gregorian) == date("2024-11-04T01:30:00-08:00"))
    }

    @Test func southernHemisphereSpringForward() {
        let components = DateComponents(timeZone: zone("Australia/Sydney"), hour: 2, minute: 30)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        #expect(trigger.nextFireDate(after: date("2019-10-05T12:00:00+10:00"), calendar: gregorian) == date("2019-10-06T03:00:00+11:00"))
    }

    @Test func leapDayFiresOnlyInLeapYearsAndKeepsItsTime() throws {
        let components = DateComponents(timeZone: zone("UTC"), month: 2, day: 29, hour: 9)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)

        let next = try #require(trigger.nextFireDate(after: date("2024-03-01T00:00:00Z"), calendar: gregorian))
        #expect(next == date("2028-02-29T09:00:00Z"))
        #expect(trigger.nextFireDate(after: next, calendar: gregorian) == date("2032-02-29T09:00:00Z"))
    }

    @Test func weeklyOnWeekdayHourAndMinute() throws {
        let wednesdayNoon = DateComponents(timeZone: zone("UTC"), hour: 12, minute: 0, weekday: 4)
        let trigger = UNCalendarNotificationTrigger(dateMatching: wednesdayNoon, repeats: true)

        let first = try #require(trigger.nextFireDate(after: date("2024-01-01T00:00:00Z"), calendar: gregorian))
        #expect(first == date("2024-01-03T12:00:00Z"))
        #expect(trigger.nextFireDate(after: first, calendar: gregorian) == date("2024-01-10T12:00:00Z"))
    }

    @Test func componentsWithoutTimeZoneUseTheGivenCalendars() {
        var tokyo = gregorian
        tokyo.timeZone = zone("Asia/Tokyo")
        let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 9, minute: 0), repeats: false)
        #expect(trigger.nextFireDate(after: date("2024-06-01T05:00:00+09:00"), calendar: tokyo) == date("2024-06-01T09:00:00+09:00"))
    }

    @Test func componentsTimeZoneWinsOverTheGivenCalendars() {
        var tokyo = gregorian
        tokyo.timeZone = zone("Asia/Tokyo")
        let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: zone("Europe/Paris"), hour: 9), repeats: false)
        #expect(trigger.nextFireDate(after: date("2024-06-01T00:00:00Z"), calendar: tokyo) == date("2024-06-01T09:00:00+02:00"))
    }

    @Test func componentsCalendarWinsOverTheGivenCalendar() {
        var parisGregorian = gregorian
        parisGregorian.timeZone = zone("Europe/Paris")
        let components = DateComponents(calendar: parisGregorian, hour: 9)
        var tokyo = gregorian
        tokyo.timeZone = zone("Asia/Tokyo")
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        #expect(trigger.nextFireDate(after: date("2024-06-01T00:00:00Z"), calendar: tokyo) == date("2024-06-01T09:00:00+02:00"))
    }

    @Test func oneShotFiresOnlyAtTheFirstMatchAfterScheduling() {
        let trigger: UNNotificationTrigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: zone("UTC"), hour: 8), repeats: false)
        let scheduled = date("2024-06-01T06:00:00Z")
        #expect(trigger.nextFireDate(after: scheduled, anchor: scheduled, calendar: gregorian) == date("2024-06-01T08:00:00Z"))
        #expect(trigger.nextFireDate(after: date("2024-06-01T08:00:00Z"), anchor: scheduled, calendar: gregorian) == nil)
    }

    @Test func repeatingFiresAtEveryMatchThroughTheCommonEntryPoint() {
        let trigger: UNNotificationTrigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: zone("UTC"), hour: 8), repeats: true)
        let scheduled = date("2024-06-01T06:00:00Z")
        #expect(trigger.nextFireDate(after: date("2024-06-01T08:00:00Z"), anchor: scheduled, calendar: gregorian) == date("2024-06-02T08:00:00Z"))
    }

    @Test func impossibleComponentsNeverFire() {
        let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 25), repeats: true)
        #expect(trigger.nextFireDate(after: date("2024-06-01T00:00:00Z"), calendar: gregorian) == nil)
        #expect(trigger.nextTriggerDate() == nil)
    }

    @Test func keepsItsComponentsAndComparesByThem() {
        let components = DateComponents(hour: 12, weekday: 4)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        #expect(trigger.dateComponents == components && trigger.repeats)
        #expect(trigger == UNCalendarNotificationTrigger(dateMatching: components, repeats: true))
        #expect(trigger != UNCalendarNotificationTrigger(dateMatching: components, repeats: false))
    }

    @Test func everyNthDayKeepsTheTimeOfDayAcrossDaylightSaving() throws {
        let components = DateComponents(timeZone: zone("America/Los_Angeles"), hour: 2, minute: 30)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        let anchor = date("2024-03-06T12:00:00-08:00")
        var fires: [Date] = []
        var after = anchor
        while fires.count < 4, let next = trigger.nextFireDate(after: after, anchor: anchor, everyDays: 2, calendar: gregorian) {
            fires.append(next)
            after = next
        }
        #expect(fires == [
            date("2024-03-07T02:30:00-08:00"), date("2024-03-09T02:30:00-08:00"),
            date("2024-03-11T02:30:00-07:00"), date("2024-03-13T02:30:00-07:00"),
        ])
        #expect(trigger.nextFireDate(after: anchor, anchor: date("2024-03-09T02:00:00-08:00"), everyDays: 2, calendar: gregorian)
            == date("2024-03-09T02:30:00-08:00"), "the first match after the anchor, even before it")
        let skipped = date("2024-03-08T12:00:00-08:00")
        #expect(trigger.nextFireDate(after: skipped, anchor: skipped, everyDays: 2, calendar: gregorian) == date("2024-03-09T02:30:00-08:00"))
        #expect(trigger.nextFireDate(after: date("2024-03-09T02:30:00-08:00"), anchor: skipped, everyDays: 2, calendar: gregorian)
            == date("2024-03-11T02:30:00-07:00"))
        #expect(trigger.nextFireDate(after: date("2024-03-09T02:30:00-08:00"), anchor: skipped, everyDays: 1, calendar: gregorian)
            == date("2024-03-10T03:00:00-07:00"), "every day: the gap of the 10th resolves after it")
    }

    @Test func everyNthDayAfterALongSleepIsTheNextOnTheGridNotTheMissedOnes() {
        let components = DateComponents(timeZone: zone("UTC"), hour: 9)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        let anchor = date("2024-01-01T00:00:00Z")
        #expect(trigger.nextFireDate(after: date("2024-01-20T10:00:00Z"), anchor: anchor, everyDays: 7, calendar: gregorian)
            == date("2024-01-22T09:00:00Z"))
        #expect(trigger.nextFireDate(after: date("2024-01-22T08:59:59Z"), anchor: anchor, everyDays: 7, calendar: gregorian)
            == date("2024-01-22T09:00:00Z"))
        #expect(trigger.nextFireDate(after: date("2024-01-22T09:00:00Z"), anchor: anchor, everyDays: 7, calendar: gregorian)
            == date("2024-01-29T09:00:00Z"))
    }

    @Test func everyNthDayRefusesANonPositiveStrideAndAOneShotFiresOnce() {
        let components = DateComponents(timeZone: zone("UTC"), hour: 9)
        let repeating = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        let anchor = date("2024-01-01T00:00:00Z")
        #expect(repeating.nextFireDate(after: anchor, anchor: anchor, everyDays: 0, calendar: gregorian) == nil)
        #expect(repeating.nextFireDate(after: anchor, anchor: anchor, everyDays: -3, calendar: gregorian) == nil)
        #expect(repeating.nextFireDate(after: anchor, anchor: anchor, everyDays: .max, calendar: gregorian) == date("2024-01-01T09:00:00Z"))
        #expect(repeating.nextFireDate(after: date("2024-01-01T09:00:00Z"), anchor: anchor, everyDays: .max, calendar: gregorian) == nil)
        let once = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        #expect(once.nextFireDate(after: anchor, anchor: anchor, everyDays: 3, calendar: gregorian) == date("2024-01-01T09:00:00Z"))
        #expect(once.nextFireDate(after: date("2024-01-01T09:00:00Z"), anchor: anchor, everyDays: 3, calendar: gregorian) == nil)
    }

    private func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier)!
    }

    private func date(_ iso8601: String) -> Date {
        ISO8601DateFormatter().date(from: iso8601)!
    }
}
