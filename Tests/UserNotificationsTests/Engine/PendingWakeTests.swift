import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("When an engine's pending requests next need its process (what the agent's waiter waits for)")
struct PendingWakeTests {
    static func request(_ identifier: String, trigger: UNNotificationTrigger?) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    @Test("nothing; the soonest of time-interval and calendar triggers; an accepted request no server took needs the process")
    func wakes() async throws {
        let testBus = try await TestBus()
        let clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        // No notification server on the bus: an immediate request is accepted and kept, as the agent keeps it.
        let engine = EngineCore.start(
            identity: ApplicationIdentity(id: "org.example.PendingWake", displayName: "Wake"),
            client: NotificationsClient(bus: .address(testBus.address)), clock: clock, host: EngineHostReference(), stateDirectory: nil,
            undeliveredAfterAcceptance: { _, _ in })
        defer { engine.close() }
        #expect(await engine.pendingWake() == .nothing)
        try await engine.add(Self.request("hour", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        var components = DateComponents()
        components.second = 30
        let calendar = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        try await engine.add(Self.request("minute", trigger: calendar))
        let minute = try #require(calendar.nextFireDate(after: clock.now, calendar: .current))
        #expect(minute < clock.now.addingTimeInterval(3600))
        #expect(await engine.pendingWake() == .at(minute))
        engine.removePendingRequests(withIdentifiers: ["minute"])
        #expect(await engine.pendingWake() == .at(clock.now.addingTimeInterval(3600)))
        try await engine.add(Self.request("now", trigger: nil), presentation: UNNotificationPresentationOptions?.none)
        #expect(await engine.pendingWake() == .watching)
        await testBus.stop()
    }

    @Test("combining: the sooner date; watching over any date; nothing changes nothing")
    func combining() {
        let early = Date(timeIntervalSince1970: 10)
        let late = Date(timeIntervalSince1970: 20)
        #expect(PendingWake.at(late).combined(with: .at(early)) == .at(early))
        #expect(PendingWake.nothing.combined(with: .at(late)) == .at(late))
        #expect(PendingWake.at(early).combined(with: .nothing) == .at(early))
        #expect(PendingWake.at(early).combined(with: .watching) == .watching)
        #expect(PendingWake.watching.combined(with: .nothing) == .watching)
        #expect(PendingWake.nothing.combined(with: .nothing) == .nothing)
    }
}
