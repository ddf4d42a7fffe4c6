import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: pending and delivered kept in the app's state across a restart")
struct PortalStateTests {
    @Test("a pending request survives a new center and fires from it")
    func pendingSurvives() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url)
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        #expect(fixture.portal.added.isEmpty)
        // The categories were the burst's first change, written at once; the request is
        // written at the end of the burst, without a flush.
        #expect(await eventually { GnomeStateTests.savedPending(in: folder.url) == ["later"] })

        let clock = TestNotificationClock(now: fixture.clock.now)
        let relaunched = fixture.relaunchedCenter(clock: clock)
        #expect(await relaunched.engineKind == .portal)
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier) == ["later"])
        #expect(await relaunched.notificationCategories().map(\.identifier) == ["message"])
        clock.advance(by: 61)
        #expect(await eventually { fixture.portal.added.last?.id == "later" })
        #expect(await relaunched.pendingNotificationRequests().isEmpty)
        // The engine records the delivery once the portal's reply is in, just after the portal saw it.
        #expect(await eventually { await relaunched.deliveredNotifications().map(\.request.identifier) == ["later"] })
        await fixture.stop()
    }

    @Test("the delivered list of a new center holds what the app posted and did not withdraw or see answered")
    func deliveredSurvives() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url)
        for identifier in ["a", "b", "c"] { try await fixture.post(identifier) }
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["b"])
        let app = try #require(fixture.appConnection)
        try fixture.portal.invokeAction(id: "c", action: "default", to: app)
        #expect(try #require(await fixture.delegate.responses.next()).notification.request.identifier == "c")
        // What an app that exits now does: the end of the burst is written at once.
        try await fixture.center.writeStateNow()

        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        let delivered = await relaunched.deliveredNotifications()
        #expect(delivered.map(\.request.identifier) == ["a"])
        #expect(delivered.first?.request.content.title == "Ada")
        try await relaunched.writeStateNow()
        await fixture.stop()
    }

    @Test("a state folder that cannot be read at start is read again at the next save, which then keeps everything")
    func unreadableAtStartThenSaved() async throws {
        let scratch = try ScratchFolder()
        // A file where the state folder should be: opening it as a folder fails (ENOTDIR).
        let folder = scratch.url.appendingPathComponent("state")
        try Data("not a folder".utf8).write(to: folder)
        let fixture = try await PortalFixture(stateDirectory: folder)
        try await fixture.post("first", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        await #expect(throws: StateStoreError.self) { try await fixture.center.writeStateNow() }

        try FileManager.default.removeItem(at: folder)
        try await fixture.post("second", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: false))
        try await fixture.center.writeStateNow()
        #expect(GnomeStateTests.savedPending(in: folder).sorted() == ["first", "second"])
        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier) == ["first", "second"])
        await fixture.stop()
    }

    @Test("without a state folder nothing is kept")
    func notPersistent() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        let other = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        #expect(await other.engineKind == .portal)
        #expect(await other.pendingNotificationRequests().isEmpty)
        await fixture.stop()
    }
}
