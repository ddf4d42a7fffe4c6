import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Triggers that cannot be honoured: refused at add, skipped when read back from a state file")
struct FarTriggerTests {
    static let maximum = NotificationTriggerError.maximumTimeInterval

    static let refusedIntervals: [(TimeInterval, NotificationTriggerError)] = [
        (1e300, .timeIntervalAboveMaximum(1e300)),
        (1e19, .timeIntervalAboveMaximum(1e19)),
        (maximum.nextUp, .timeIntervalAboveMaximum(maximum.nextUp)),
        (.infinity, .timeIntervalNotFinite(.infinity)),
        (-.infinity, .timeIntervalNotFinite(-.infinity)),
    ]

    @Test("an interval over 100 years, or not finite, is a typed error from add; nothing is scheduled and the center goes on",
          arguments: refusedIntervals.indices)
    func refusedAtAdd(_ index: Int) async throws {
        let (interval, expected) = Self.refusedIntervals[index]
        let fixture = try await CenterFixture()
        let request = BadInputBatteryTests.request("far", trigger: UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: false))
        let error = await BadInputBatteryTests.outcome(of: request, on: fixture.center)
        #expect(error as? NotificationTriggerError == expected, "\(String(describing: error))")
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: false).nextTriggerDate() == nil)
        await BadInputBatteryTests.expectStillWorks(fixture, after: "an interval of \(interval) s")
    }

    @Test("NaN is a typed error from add")
    func notANumber() async throws {
        let fixture = try await CenterFixture()
        let request = BadInputBatteryTests.request("nan", trigger: UNTimeIntervalNotificationTrigger(timeInterval: .nan, repeats: true))
        let error = await BadInputBatteryTests.outcome(of: request, on: fixture.center)
        guard case .timeIntervalNotFinite? = error as? NotificationTriggerError else {
            Issue.record("expected timeIntervalNotFinite, got \(String(describing: error))")
            return
        }
        await BadInputBatteryTests.expectStillWorks(fixture, after: "NaN")
    }

    @Test("exactly 100 years is taken, once or repeating, and fires then")
    func maximumTaken() async throws {
        let fixture = try await CenterFixture()
        for repeats in [false, true] {
            let request = BadInputBatteryTests.request(
                "century-\(repeats)", trigger: UNTimeIntervalNotificationTrigger(timeInterval: Self.maximum, repeats: repeats))
            try await fixture.center.add(request)
        }
        let pending = await fixture.center.pendingNotificationRequests()
        #expect(pending.map(\.identifier).sorted() == ["century-false", "century-true"])
        for request in pending {
            let next = try #require((request.trigger as? UNTimeIntervalNotificationTrigger)?.nextTriggerDate())
            #expect(next == fixture.clock.now.addingTimeInterval(Self.maximum))
        }
    }

    static let outOfRangeComponents: [(String, DateComponents)] = [
        // Foundation matches this one, in the year 100,001.
        ("year 100,001", DateComponents(year: 100_001, month: 1, day: 1)),
        // Foundation never returns from this one (a month has at most five of a weekday).
        ("weekday ordinal 6", DateComponents(weekday: 2, weekdayOrdinal: 6)),
        ("year Int.min", DateComponents(year: Int.min)),
        ("hour 10,000", DateComponents(hour: 10_000)),
        ("nanosecond -1", DateComponents(nanosecond: -1)),
        ("week of month 0", DateComponents(weekOfMonth: 0)),
    ]

    @Test("calendar components out of range match no date: notificationInvalidNoDate from add", arguments: outOfRangeComponents.indices)
    func calendarOutOfRange(_ index: Int) async throws {
        let (label, components) = Self.outOfRangeComponents[index]
        let fixture = try await CenterFixture()
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        #expect(!trigger.hasComponentsInRange)
        #expect(trigger.nextTriggerDate() == nil, "\(label)")
        let error = await BadInputBatteryTests.outcome(of: BadInputBatteryTests.request(label, trigger: trigger), on: fixture.center)
        #expect((error as? UNError)?.code == .notificationInvalidNoDate, "\(label): \(String(describing: error))")
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 100_000, month: 1, day: 1), repeats: false).hasComponentsInRange)
    }

    // MARK: - Saved state

    /// A state with one good pending request and one of each kind that cannot be honoured.
    static func stateWithUnhonourableEntries(now: Date) throws -> EngineState {
        func pending(_ identifier: String, _ trigger: UNNotificationTrigger, nextFire: Date, anchor: Date = now) throws -> EngineState.Pending {
            let request = BadInputBatteryTests.request(identifier, trigger: trigger)
            return EngineState.Pending(request: try NotificationRequestSnapshot(request), anchor: anchor, nextFire: nextFire)
        }
        var state = EngineState()
        state.pending = [
            try pending("good", UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false), nextFire: now.addingTimeInterval(3600)),
            try pending("interval-1e300", UNTimeIntervalNotificationTrigger(timeInterval: 1e300, repeats: false), nextFire: now.addingTimeInterval(1e300)),
            try pending("interval-1e19", UNTimeIntervalNotificationTrigger(timeInterval: 1e19, repeats: true), nextFire: now.addingTimeInterval(1e19)),
            try pending("next-fire-1e19", UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true),
                        nextFire: Date(timeIntervalSinceReferenceDate: 1e19)),
            try pending("anchor-far", UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true),
                        nextFire: now.addingTimeInterval(60), anchor: Date(timeIntervalSinceReferenceDate: -1e300)),
            try pending("calendar-ordinal-6", UNCalendarNotificationTrigger(dateMatching: DateComponents(weekdayOrdinal: 6), repeats: true),
                        nextFire: now.addingTimeInterval(60)),
        ]
        return state
    }

    @Test("a state file holding requests that cannot be honoured: the center starts, skips them, and goes on")
    func savedInProcess() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try EngineState.file(in: fixture.stateHome).save(try Self.stateWithUnhonourableEntries(now: fixture.clock.now))
        let center = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["good"])
        try await center.add(BadInputBatteryTests.request("after", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["after", "good"])
        // The next save leaves them out of the file as well.
        #expect(await eventually { GnomeStateTests.savedPending(in: fixture.stateHome).sorted() == ["after", "good"] })
    }

    @Test("the portal engine, which keeps its own lists, skips them too")
    func savedPortal() async throws {
        let folder = try ScratchFolder()
        let clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        try EngineState.file(in: folder.url).save(try Self.stateWithUnhonourableEntries(now: clock.now))
        let fixture = try await PortalFixture(stateDirectory: folder.url)
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["good"])
        await fixture.stop()
    }

    @Test("a delivered notification whose date is out of range is left out; one in range is kept")
    func savedDelivered() throws {
        var state = EngineState()
        for (identifier, seconds) in [("kept", 1e9), ("far", 1e300), ("past", -1e19)] {
            let notification = UNNotification(date: Date(timeIntervalSinceReferenceDate: seconds), request: BadInputBatteryTests.request(identifier))
            state.delivered.append(EngineState.Delivered(notification: try NotificationSnapshot(notification), server: ":1.1", id: 1))
        }
        #expect(state.leavingOutWhatCannotBeHonoured().delivered.map(\.notification.request.identifier) == ["kept"])
    }
}
