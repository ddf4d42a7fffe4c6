import DBus
import Foundation
import Logging
@testable import NotificationAgent
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("The agent and requests it cannot honour: refused at Add, skipped in a saved state, far dates that never trap")
struct AgentFarDateTests {
    static let appID = "org.example.FarDates"
    static let invalid = "org.desktopnotifications.Agent1.Error.InvalidArgument"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "far-dates")
    }

    /// The record of a request due in an hour, with its trigger's `interval` set to `interval`
    /// (what `encode` would refuse to write).
    static func record(_ identifier: String, interval: Double) throws -> DBusValue {
        var record = try AgentPayload.encode(AgentTestClient.request(identifier, after: 3600))
        var trigger = try [String: DBusValue].reading(try #require(record["trigger"]))
        try #require(trigger["interval"] == .double(3600))
        trigger["interval"] = .double(interval)
        record["trigger"] = trigger.dbusValue
        return record.dbusValue
    }

    @Test("Add with an interval of 1e300, 1e19 or infinite seconds: InvalidArgument; the agent keeps answering")
    func refusedAtAdd() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        for interval in [1e300, 1e19, .infinity, 3_155_760_001] {
            let record = try Self.record("far-\(interval)", interval: interval)
            #expect(await app.errorName(of: "Add", [.string(Self.appID), record]) == Self.invalid, "\(interval)")
        }
        let batch = try [Self.record("far", interval: 1e300), Self.record("near", interval: 120)]
        let results = try await app.call("AddRequests", [.string(Self.appID), .array(element: AgentPayload.Record.dbusType, batch)])
        #expect("\(results)".contains(Self.invalid))
        try await app.add(AgentTestClient.request("good", after: 60), for: Self.appID)
        #expect(try await app.pending(of: Self.appID).sorted() == ["good", "near"])
        await agent.stop()
    }

    @Test("a center through the agent gets the in-process error for such an interval, before anything is sent")
    func refusedBeforeSending() throws {
        for interval in [1e300, 1e19, .infinity, .nan] {
            let request = AgentTestClient.request("far", after: interval)
            #expect(throws: NotificationTriggerError.self) { try AgentPayload.encode(request) }
        }
        let calendar = UNNotificationRequest(
            identifier: "year", content: UNMutableNotificationContent(),
            trigger: UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 100_001), repeats: false))
        #expect((#expect(throws: UNError.self) { try AgentPayload.encode(calendar) })?.code == .notificationInvalidNoDate)
    }

    @Test("an app's saved state holding requests that cannot be honoured: the agent starts, skips them and logs each, and answers")
    func savedStateSkipped() async throws {
        let now = Date()
        let state = try Self.unhonourableState(now: now)
        let log = LogRecorder()
        let kept = state.leavingOutWhatCannotBeHonoured(logger: log.logger(label: "test"))
        #expect(kept.pending.map(\.request.identifier) == ["good"])
        for identifier in ["interval-1e300", "next-fire-far", "calendar-ordinal-6"] {
            #expect(log.messages(about: identifier) == ["a saved pending request cannot be honoured; it was skipped"], "\(identifier)")
        }
        #expect(log.messages(about: "good").isEmpty)

        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        try EngineState.file(in: fixture.stateRoot.appendingPathComponent(Self.appID, isDirectory: true)).save(state)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        #expect(try await app.pending(of: Self.appID) == ["good"])
        try await app.add(AgentTestClient.request("after", after: 60), for: Self.appID)
        #expect(try await app.pending(of: Self.appID).sorted() == ["after", "good"])
        await agent.stop()
    }

    static func unhonourableState(now: Date) throws -> EngineState {
        func pending(_ identifier: String, _ trigger: UNNotificationTrigger, nextFire: Date) throws -> EngineState.Pending {
            let request = UNNotificationRequest(identifier: identifier, content: UNMutableNotificationContent(), trigger: trigger)
            return EngineState.Pending(request: try NotificationRequestSnapshot(request), anchor: now, nextFire: nextFire)
        }
        var state = EngineState()
        state.pending = [
            try pending("good", UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false), nextFire: now.addingTimeInterval(3600)),
            try pending("interval-1e300", UNTimeIntervalNotificationTrigger(timeInterval: 1e300, repeats: false), nextFire: now.addingTimeInterval(1e300)),
            try pending("next-fire-far", UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true),
                        nextFire: Date(timeIntervalSinceReferenceDate: 1e19)),
            try pending("calendar-ordinal-6", UNCalendarNotificationTrigger(dateMatching: DateComponents(weekdayOrdinal: 6), repeats: true),
                        nextFire: now.addingTimeInterval(60)),
        ]
        return state
    }

    @Test("the idle check compares far dates without trapping")
    func idleCheck() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let hour = Duration.seconds(3600)
        for seconds in [1e300, 1e19, 1e21, Double.greatestFiniteMagnitude, .infinity] {
            #expect(AgentService.isDue(now.addingTimeInterval(seconds), laterThan: hour, from: now), "\(seconds)")
        }
        for seconds in [-1e300, -.infinity, .nan, 0, 3600] {
            #expect(!AgentService.isDue(now.addingTimeInterval(seconds), laterThan: hour, from: now), "\(seconds)")
        }
        #expect(AgentService.isDue(now.addingTimeInterval(3600.5), laterThan: .milliseconds(3_600_400), from: now))
        #expect(!AgentService.isDue(now.addingTimeInterval(3600.3), laterThan: .milliseconds(3_600_400), from: now))
    }

    @Test("the systemd timer's calendar event for far dates: within systemd's years 1970 to 2199, no trap")
    func wakeTimerFarDates() throws {
        let latest = "2199-12-31 23:59:59 UTC"
        for seconds in [1e19, 1e300, .infinity, Double.greatestFiniteMagnitude, 7_258_118_399.5, 1e10] {
            #expect(SystemdWakeTimer.calendarEvent(for: Date(timeIntervalSince1970: seconds)) == latest, "\(seconds)")
        }
        #expect(SystemdWakeTimer.calendarEvent(for: Date(timeIntervalSince1970: 7_258_118_398.2)) == latest)
        for seconds in [-1e19, -1e300, -.infinity, .nan, -1, 0] {
            #expect(SystemdWakeTimer.calendarEvent(for: Date(timeIntervalSince1970: seconds)) == "1970-01-01 00:00:00 UTC", "\(seconds)")
        }
        let timer = try #require(SystemdWakeTimer(unit: "x.service"))
        #expect(timer.arguments(for: .distantFuture).contains("--on-calendar=\(latest)"))
    }
}
