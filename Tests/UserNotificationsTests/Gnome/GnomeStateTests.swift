import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("GNOME engine: pending, delivered, categories and authorization kept in the app's state across a restart")
struct GnomeStateTests {
    static let app = GnomeFixture.identity.id

    @Test("a pending request survives a new center and fires from it")
    func pendingSurvives() async throws {
        let folder = try ScratchFolder()
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        #expect(try await fixture.center.requestAuthorization(options: [.alert, .sound]))
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        #expect(fixture.gtk.shownIDs(of: Self.app).isEmpty)
        // The end of the burst is written without a flush.
        #expect(await eventually { GnomeStateTests.savedPending(in: folder.url) == ["later"] })

        let clock = TestNotificationClock(now: fixture.clock.now)
        let relaunched = fixture.relaunchedCenter(clock: clock)
        #expect(await relaunched.engineKind == .gnome)
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier) == ["later"])
        #expect(Set(await relaunched.notificationCategories().map(\.identifier)) == Set(GnomeFixture.categories.map(\.identifier)))
        let settings = await relaunched.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        clock.advance(by: 61)
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app) == ["later"] })
        #expect(await relaunched.pendingNotificationRequests().isEmpty)
        #expect(await eventually { await relaunched.deliveredNotifications().map(\.request.identifier) == ["later"] })
        await fixture.stop()
    }

    @Test("the delivered list of a new center holds what the app showed; it withdraws one by id, and that is kept too")
    func deliveredSurvivesAndWithdraws() async throws {
        let folder = try ScratchFolder()
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        for identifier in ["a", "b", "c"] { try await fixture.post(identifier) }
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["c"])
        // What an app that exits now does: the end of the burst is written at once.
        try await fixture.center.writeStateNow()
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app) == ["a", "b"] })

        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        let delivered = await relaunched.deliveredNotifications()
        #expect(delivered.map(\.request.identifier).sorted() == ["a", "b"])
        #expect(delivered.first?.request.content.title == "Ada")
        relaunched.removeDeliveredNotifications(withIdentifiers: ["a"])
        #expect(await eventually { fixture.gtk.calls.contains(.remove(appID: Self.app, id: "a")) })
        #expect(fixture.gtk.shownIDs(of: Self.app) == ["b"])
        #expect(await relaunched.deliveredNotifications().map(\.request.identifier) == ["b"])
        try await relaunched.writeStateNow()

        let third = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        #expect(await third.deliveredNotifications().map(\.request.identifier) == ["b"])
        // `nil` withdraws what the engine lists, an earlier launch's too.
        third.removeAllDeliveredNotifications()
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app).isEmpty })
        try await third.writeStateNow()
        await fixture.stop()
    }

    @Test("a delivered list saved without ids (by the engine GNOME had before the engine core) gets an id per entry when read")
    func savedWithoutIDs() async throws {
        let folder = try ScratchFolder()
        var saved = EngineState()
        for identifier in ["a", "b", "c"] {
            let request = UNNotificationRequest(identifier: identifier, content: UNMutableNotificationContent(), trigger: nil)
            saved.delivered.append(EngineState.Delivered(
                notification: try NotificationSnapshot(UNNotification(date: Date(timeIntervalSince1970: 1_700_000_000), request: request)),
                server: GnomeInterface.busName, id: 0))
        }
        try EngineState.file(in: folder.url).save(saved)
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier).sorted() == ["a", "b", "c"])
        let engine = try #require(fixture.center.engineCore)
        // One id each: entries that shared id 0 would share one place in the table's index.
        #expect(await engine.delivered.indexCount == 3)
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["b"])
        #expect(await eventually { fixture.gtk.calls.contains(.remove(appID: Self.app, id: "b")) })
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier).sorted() == ["a", "c"])
        #expect(await engine.delivered.indexCount == 2)
        await fixture.stop()
    }

    @Test("GNOME's delivered entries are filed under org.gtk.Notifications: a portal center on the same state lists none of them")
    func apartFromThePortal() async throws {
        let folder = try ScratchFolder()
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        try await fixture.post("a")
        try await fixture.center.writeStateNow()
        let text = try String(contentsOf: folder.url.appendingPathComponent("notifications.json"), encoding: .utf8)
        #expect(text.contains("org.gtk.Notifications"))

        let portal = try await FakeNotificationPortal.start(on: fixture.testBus.bus)
        let other = PortalFixture.makeCenter(
            bus: fixture.testBus, clock: TestNotificationClock(now: fixture.clock.now), stateDirectory: folder.url,
            identity: GnomeFixture.identity)
        #expect(await other.engineKind == .portal)
        #expect(await other.deliveredNotifications().isEmpty)
        #expect(await fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now)).deliveredNotifications()
            .map(\.request.identifier) == ["a"])
        await portal.stop()
        await fixture.stop()
    }

    @Test("a burst's later changes, still waiting for its end, are written when the center goes away")
    func closeWritesTheBurst() async throws {
        let folder = try ScratchFolder()
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        try await fixture.center.writeStateNow()
        try await Self.addBurst(folder: folder.url, fixture: fixture)
        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier).sorted() == ["x", "y", "z"])
        await fixture.stop()
    }

    /// Adds three pending requests from a center of its own, which is gone when this returns.
    private static func addBurst(folder: URL, fixture: GnomeFixture) async throws {
        let center = GnomeFixture.makeCenter(fixture.testBus, TestNotificationClock(now: fixture.clock.now), stateDirectory: folder)
        for identifier in ["x", "y", "z"] {
            let content = UNMutableNotificationContent()
            content.title = identifier
            try await center.add(UNNotificationRequest(
                identifier: identifier, content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        }
    }

    @Test("without a state folder nothing is kept")
    func notPersistent() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        try await fixture.post("a")
        let other = GnomeFixture.makeCenter(fixture.testBus, TestNotificationClock(now: fixture.clock.now))
        #expect(await other.engineKind == .gnome)
        #expect(await other.pendingNotificationRequests().isEmpty)
        #expect(await other.deliveredNotifications().isEmpty)
        await fixture.stop()
    }

    /// The identifiers of the pending requests the state file in `folder` holds.
    static func savedPending(in folder: URL) -> [String] {
        guard case .loaded(let state)? = try? EngineState.file(in: folder).load() else { return [] }
        return state.pending.map(\.request.identifier)
    }
}
