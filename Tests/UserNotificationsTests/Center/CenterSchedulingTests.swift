import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Center: pending requests in virtual time, and state across launches")
struct CenterSchedulingTests {
    func request(_ identifier: String, _ trigger: UNNotificationTrigger?) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    @Test("a time-interval request waits in the pending list, then fires once at its time")
    func interval() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(request("later", UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["later"])
        fixture.clock.advance(by: 599)
        #expect(await fixture.server.waitForNotify(timeout: .milliseconds(200)) == nil)
        fixture.clock.advance(by: 1)
        #expect(await fixture.server.waitForNotify() != nil)
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(await eventually { await fixture.center.deliveredNotifications().map(\.request.identifier) == ["later"] })
        let delivered = try #require(await fixture.center.deliveredNotifications().first)
        #expect(delivered.date == fixture.clock.now)
    }

    @Test("a repeating interval fires from its anchor without drift, and a jump forward fires once")
    func repeating() async throws {
        let fixture = try await CenterFixture()
        let start = fixture.clock.now
        try await fixture.center.add(request("tick", UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        for round in 1...3 {
            fixture.clock.advance(by: 60)
            #expect(await fixture.server.waitForNotify(count: round) != nil)
        }
        // A jump of the wall clock (set, not a steady advance): the missed repeats fire once.
        fixture.clock.set(to: fixture.clock.now.addingTimeInterval(3600))
        #expect(await fixture.server.waitForNotify(count: 4) != nil)
        #expect(await fixture.server.waitForNotify(count: 5, timeout: .milliseconds(200)) == nil)
        #expect(await fixture.center.engineCore?.pending["tick"]?.nextFire == start.addingTimeInterval(60 * 64))
    }

    @Test("a jump back in time does not fire again")
    func jumpBack() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(request("once", UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        fixture.clock.advance(by: 60)
        #expect(await fixture.server.waitForNotify(count: 1) != nil)
        fixture.clock.set(to: fixture.clock.now.addingTimeInterval(-30))
        fixture.clock.advance(by: 29)
        #expect(await fixture.server.waitForNotify(count: 2, timeout: .milliseconds(200)) == nil)
    }

    @Test("bad time intervals are typed errors from add, not traps")
    func badIntervals() async throws {
        let fixture = try await CenterFixture()
        await #expect(throws: NotificationTriggerError.self) {
            try await fixture.center.add(request("zero", UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false)))
        }
        await #expect(throws: NotificationTriggerError.self) {
            try await fixture.center.add(request("fast", UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true)))
        }
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
    }

    @Test("removing pending requests is seen by the next call, in order")
    func removePending() async throws {
        let fixture = try await CenterFixture()
        for name in ["a", "b", "c"] {
            try await fixture.center.add(request(name, UNTimeIntervalNotificationTrigger(timeInterval: 100, repeats: false)))
        }
        fixture.center.removePendingNotificationRequests(withIdentifiers: ["b"])
        #expect(Set(await fixture.center.pendingNotificationRequests().map(\.identifier)) == ["a", "c"])
        fixture.center.removeAllPendingNotificationRequests()
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        fixture.clock.advance(by: 200)
        #expect(await fixture.server.waitForNotify(timeout: .milliseconds(200)) == nil)
    }

    @Test("a weekly calendar request is pending with its next date")
    func calendar() async throws {
        let fixture = try await CenterFixture()
        var components = DateComponents()
        components.weekday = 2
        components.hour = 8
        components.minute = 0
        try await fixture.center.add(request("monday", UNCalendarNotificationTrigger(dateMatching: components, repeats: true)))
        let pending = try #require(await fixture.center.pendingNotificationRequests().first)
        let next = try #require((pending.trigger as? UNCalendarNotificationTrigger)?.nextTriggerDate())
        let calendar = Calendar.current
        #expect(calendar.component(.weekday, from: next) == 2)
        #expect(calendar.component(.hour, from: next) == 8)
    }

    @Test("pending requests and categories come back at the next launch; overdue ones fire once")
    func persistence() async throws {
        let fixture = try await CenterFixture(persistent: true)
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        try await fixture.center.add(request("kept", UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false)))
        let saved = fixture.stateHome.appendingPathComponent("notifications.json")
        #expect(await eventually {
            let text = (try? String(contentsOf: saved, encoding: .utf8)) ?? ""
            return text.contains("kept") && text.contains("saySomething")
        })

        let clock = TestNotificationClock(now: fixture.clock.now.addingTimeInterval(1000))
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: clock, persistent: true, stateHome: fixture.stateHome)
        #expect(await relaunched.notificationCategories().map(\.identifier) == ["saySomething"])
        #expect(await fixture.server.waitForNotify() != nil)
        #expect(await relaunched.pendingNotificationRequests().isEmpty)
        #expect(await fixture.server.waitForNotify(count: 2, timeout: .milliseconds(200)) == nil)
    }

    @Test("a request added by a process that exits at once is on disk when add returns (no write pending)")
    func savedWhenAddReturns() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try await fixture.center.add(request("one-shot", UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false)))
        let text = try String(contentsOf: fixture.stateHome.appendingPathComponent("notifications.json"), encoding: .utf8)
        #expect(text.contains("one-shot"))
    }

    @Test("a corrupt state file is set aside at start-up and the center starts empty")
    func corruptState() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try FileManager.default.createDirectory(at: fixture.stateHome, withIntermediateDirectories: true)
        try Data("{\"formatVersion\": 1, \"val".utf8).write(to: fixture.stateHome.appendingPathComponent("notifications.json"))
        let center = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
        #expect(await center.pendingNotificationRequests().isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.stateHome.path)
        #expect(names.contains { $0.contains("corrupt") })
    }
}
