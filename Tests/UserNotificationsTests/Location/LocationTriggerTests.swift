import CoreLocation
import DBus
import Foundation
import Testing
import UserNotificationsTesting
@testable import UserNotifications

/// A private bus with the fake notification server and the fake GeoClue2 on it, and a center
/// that looks for GeoClue there.
private struct LocationFixture {
    let testBus: TestBus
    let server: FakeNotificationServer
    let geoClue: FakeGeoClue?
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate

    static let identity = ApplicationIdentity(id: "org.example.LocationTests", displayName: "Location Tests")

    /// With `withServiceDirectory`, the bus can be told to start GeoClue
    /// (``FakeGeoClue/serveActivation(on:folder:)``).
    init(geoClue withGeoClue: Bool = true, withServiceDirectory: Bool = false) async throws {
        testBus = try await TestBus(withServiceDirectory: withServiceDirectory)
        server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        geoClue = withGeoClue ? try await FakeGeoClue.start(on: testBus.bus) : nil
        center = UNUserNotificationCenter(
            identity: Self.identity, bus: .address(testBus.address), clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)),
            persistent: false, engine: .inProcess, locationBus: testBus.bus)
        delegate = await RecordingDelegate()
        center.delegate = delegate
    }

    /// Moves the fake device `metres` north of Paris.
    func move(_ metres: Double, accuracy: Double = 10) async throws {
        let point = LocationTestPoints.north(metres)
        let told = try await geoClue?.move(latitude: point.latitude, longitude: point.longitude, accuracy: accuracy)
        #expect(told == 1, "the fake told \(told ?? 0) clients")
    }

    /// Adds a request `kept`, puts the device 3 km outside its region, and has GeoClue refuse
    /// the app; returns the fake GeoClue.
    func keepOneThenDeny() async throws -> FakeGeoClue {
        let geoClue = try #require(geoClue)
        try await center.add(LocationTestPoints.request("kept"))
        try await move(3_000)
        try geoClue.deny(desktopID: Self.identity.id)
        return geoClue
    }

    /// Adds `request`; passes when the add fails with ``LocationServiceError/accessDenied(_:)``.
    /// An add that succeeds (the center has not heard GeoClue's refusal yet) is taken back.
    func addIsDenied(_ request: UNNotificationRequest) async -> Bool {
        do {
            try await center.add(request)
            center.removePendingNotificationRequests(withIdentifiers: [request.identifier])
            return false
        } catch {
            guard case .accessDenied = error as? LocationServiceError else { return false }
            return true
        }
    }

    /// The titles the server was asked to show, in order.
    var shown: [String] {
        server.notifications.map(\.request.summary)
    }

    /// Waits until `count` notifications were shown.
    func waitForShown(_ count: Int) async -> [String] {
        _ = await server.waitForNotify(count: count)
        return shown
    }
}

@Suite("Location triggers through GeoClue2 (fake GeoClue on a private system bus)")
struct LocationTriggerTests {
    @Test("entering the region delivers a non-repeating request once, and it leaves the pending list")
    func enterOnce() async throws {
        let fixture = try await LocationFixture()
        try await fixture.center.add(LocationTestPoints.request("arrive"))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["arrive"])
        let client = try #require(fixture.geoClue?.clients.first)
        #expect(client.desktopID == LocationFixture.identity.id)
        #expect(client.requestedAccuracyLevel == GeoClueAccuracyLevel.street.rawValue)
        #expect(client.distanceThreshold == 50)
        #expect(client.active)

        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["arrive"])
        #expect(await eventually { await fixture.center.pendingNotificationRequests().isEmpty })
        // The last region gone, the GeoClue client is stopped and deleted.
        #expect(await eventually { fixture.geoClue?.clients.first?.deleted == true })
        #expect(fixture.geoClue?.calls.contains("Client.Stop") == true)
        #expect(fixture.geoClue?.calls.contains("Manager.DeleteClient") == true)
    }

    @Test("a device already inside when the request is added is not an entry; leaving and coming back is")
    func alreadyInside() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        // No client yet: GeoClue keeps the position and hands it to the client at its start.
        #expect(try await geoClue.move(latitude: LocationTestPoints.center.latitude, longitude: LocationTestPoints.center.longitude, accuracy: 10) == 0)
        try await fixture.center.add(LocationTestPoints.request("inside", repeats: true))
        try await fixture.move(10)
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["inside"])
    }

    @Test("a repeating request fires at every entry and stays pending; exit fires only with notifyOnExit")
    func repeatsAndExit() async throws {
        let fixture = try await LocationFixture()
        try await fixture.center.add(LocationTestPoints.request("every", repeats: true))
        try await fixture.center.add(LocationTestPoints.request("leave", onEntry: false, onExit: true, repeats: true))
        try await fixture.move(3_000)
        // Each delivery is awaited before the next move: two deliveries under way at once
        // may reach the server in either order.
        for round in 1...3 {
            try await fixture.move(0)
            #expect(await fixture.waitForShown(round * 2 - 1).count == round * 2 - 1)
            try await fixture.move(3_000)
            #expect(await fixture.waitForShown(round * 2).count == round * 2)
        }
        #expect(fixture.shown == ["every", "leave", "every", "leave", "every", "leave"])
        #expect(Set(await fixture.center.pendingNotificationRequests().map(\.identifier)) == ["every", "leave"])
        #expect(fixture.geoClue?.clients.count == 1, "one GeoClue client for all the center's regions")
    }

    @Test("noisy fixes on the border deliver nothing after the entry")
    func noFlapping() async throws {
        let fixture = try await LocationFixture()
        try await fixture.center.add(LocationTestPoints.request("edge", onExit: true, repeats: true))
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["edge"])
        var generator = SeededGenerator(seed: 7)
        let border: [FakeGeoClue.Fix] = (0..<40).map { _ in
            let accuracy = Double.random(in: 20...60, using: &generator)
            let point = LocationTestPoints.north(500 + Double.random(in: -1...1, using: &generator) * accuracy)
            return FakeGeoClue.Fix(latitude: point.latitude, longitude: point.longitude, accuracy: accuracy)
        }
        try await fixture.geoClue?.follow(border)
        // Fixes are taken in order: the exit below is the second notification only if the
        // border fixes delivered nothing.
        try await fixture.move(3_000)
        #expect(await fixture.waitForShown(2) == ["edge", "edge"])
        #expect(await fixture.server.waitForNotify(count: 3, timeout: .milliseconds(300)) == nil)
    }

    @Test("GeoClue restarting: the client is made again and crossings still fire")
    func geoClueRestart() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        try await fixture.center.add(LocationTestPoints.request("back", repeats: true))
        try await fixture.move(3_000)
        try await geoClue.restart()
        #expect(await eventually(timeout: .seconds(10)) { geoClue.clients.contains { $0.active } })
        #expect(geoClue.clients.first?.desktopID == LocationFixture.identity.id)
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["back"])
    }

    @Test("GeoClue absent: add fails with LocationServiceError.serviceUnavailable; nothing is pending")
    func absent() async throws {
        let fixture = try await LocationFixture(geoClue: false)
        await #expect {
            try await fixture.center.add(LocationTestPoints.request("nowhere"))
        } throws: { error in
            guard case .serviceUnavailable = error as? LocationServiceError else { return false }
            return true
        }
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
    }

    @Test("GeoClue activatable but failing to start: add fails with serviceUnavailable")
    func activationFails() async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        _ = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        try testBus.writeService(name: FakeGeoClue.busName, exec: "/bin/false")
        let connection = try await DBusConnection.connect(to: testBus.bus)
        _ = try await connection.callBus("ReloadConfig")
        #expect(try await connection.listActivatableNames().contains(FakeGeoClue.busName))
        let center = UNUserNotificationCenter(
            identity: LocationFixture.identity, bus: .address(testBus.address), persistent: false, engine: .inProcess,
            locationBus: testBus.bus)
        await #expect {
            try await center.add(LocationTestPoints.request("spawn"))
        } throws: { error in
            guard case .serviceUnavailable(let detail) = error as? LocationServiceError else { return false }
            return detail.contains("Spawn")
        }
        await connection.close()
        await testBus.stop()
    }

    @Test("GeoClue denying the app: add fails with accessDenied; a later denial of a running client stops deliveries")
    func denied() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        try geoClue.deny(desktopID: LocationFixture.identity.id)
        #expect(await fixture.addIsDenied(LocationTestPoints.request("refused")))
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)

        try geoClue.allow(desktopID: LocationFixture.identity.id)
        try await fixture.center.add(LocationTestPoints.request("later", repeats: true))
        try await fixture.move(3_000)
        try geoClue.deny(desktopID: LocationFixture.identity.id)
        #expect(await eventually { geoClue.clients.last?.active == false })
        #expect(await eventually { await fixture.addIsDenied(LocationTestPoints.request("after")) })
        // Into the region: GeoClue tells no client that is off, and nothing is shown.
        #expect(try await geoClue.move(latitude: LocationTestPoints.center.latitude, longitude: LocationTestPoints.center.longitude, accuracy: 5) == 0)
        #expect(await fixture.server.waitForNotify(count: 1, timeout: .milliseconds(500)) == nil)
        #expect(fixture.server.notifications.isEmpty)
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["later"])
    }

    @Test("GeoClue allowing the app again turns its client back on: the region kept is watched again and add works")
    func allowedAgain() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try await fixture.keepOneThenDeny()
        #expect(await eventually { await fixture.addIsDenied(LocationTestPoints.request("refused")) })
        try geoClue.allow(desktopID: LocationFixture.identity.id)
        #expect(await eventually {
            (try? await fixture.center.add(LocationTestPoints.request("new"))) != nil
        })
        #expect(Set(await fixture.center.pendingNotificationRequests().map(\.identifier)) == ["kept", "new"])
        try await fixture.move(0)
        #expect(Set(await fixture.waitForShown(2)) == ["kept", "new"])
        #expect(geoClue.clients.count == 1, "the client GeoClue turned off is the one turned on again")
    }

    @Test("GeoClue refusing the client it makes again after a restart, then allowing the app: the next add makes it again and the region kept fires")
    func refusedAtRestartThenAllowed() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try await fixture.keepOneThenDeny()
        try await geoClue.restart()
        #expect(await eventually { await fixture.addIsDenied(LocationTestPoints.request("refused")) })
        // No client is turned off to be turned on again: only asking again helps. A Start
        // sent before the allow (by the refused adds above) may still be answered with the
        // refusal, so the add is asked again until GeoClue takes it.
        try geoClue.allow(desktopID: LocationFixture.identity.id)
        #expect(await eventually {
            (try? await fixture.center.add(LocationTestPoints.request("new"))) != nil
        })
        #expect(geoClue.clients.contains { $0.active && !$0.deleted })
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(Set(await fixture.waitForShown(2)) == ["kept", "new"])
    }

    @Test("an activatable GeoClue that left the bus is started again by the hub and the region kept fires")
    func reactivatedAfterLeaving() async throws {
        let fixture = try await LocationFixture(withServiceDirectory: true)
        let geoClue = try #require(fixture.geoClue)
        let scratch = try ScratchFolder()
        try await geoClue.serveActivation(on: fixture.testBus, folder: scratch.url)
        try await fixture.center.add(LocationTestPoints.request("home"))
        try await fixture.move(3_000)
        // GeoClue crashes: its name has no owner, and nobody calls it.
        await geoClue.stop()
        #expect(await eventually(timeout: .seconds(60)) { geoClue.activations == 1 })
        #expect(await eventually { geoClue.clients.contains { $0.active && !$0.deleted } })
        #expect(geoClue.clients.first?.desktopID == LocationFixture.identity.id)
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["home"])
        #expect(geoClue.activations == 1)
    }

    @Test("locationSetting: enabled with GeoClue, disabled once it refuses the app, notSupported without it")
    func settingsReflectGeoClue() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        #expect(await fixture.center.notificationSettings().locationSetting == .enabled)
        try geoClue.deny(desktopID: LocationFixture.identity.id)
        await #expect(throws: LocationServiceError.self) { try await fixture.center.add(LocationTestPoints.request("refused")) }
        #expect(await fixture.center.notificationSettings().locationSetting == .disabled)

        let absent = try await LocationFixture(geoClue: false)
        #expect(await absent.center.notificationSettings().locationSetting == .notSupported)
    }

    /// A launch of the fixture's app: an in-process center keeping its state in `scratch` and
    /// watching regions through the fixture's GeoClue.
    private static func launch(_ fixture: LocationFixture, stateIn scratch: ScratchFolder) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: LocationFixture.identity, bus: .address(fixture.testBus.address),
            clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)), persistent: true,
            stateDirectory: scratch.url, engine: .inProcess, locationBus: fixture.testBus.bus)
    }

    @Test("a pending location request is saved; the next launch watches it again and it fires")
    func acrossLaunches() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        let scratch = try ScratchFolder()
        do {
            let first = Self.launch(fixture, stateIn: scratch)
            try await first.add(LocationTestPoints.request("kept"))
            try await first.writeStateNow()
        }
        // The first center is gone: its client is stopped and deleted.
        #expect(await eventually { geoClue.clients.first?.deleted == true })
        let second = Self.launch(fixture, stateIn: scratch)
        #expect(await second.pendingNotificationRequests().map(\.identifier) == ["kept"])
        #expect(await eventually { geoClue.clients.contains { $0.active && !$0.deleted } })
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["kept"])
        #expect(await second.pendingNotificationRequests().isEmpty)
    }

    @Test("a saved location request whose region cannot be watched is dropped at launch; the others load")
    func damagedRegionInAStateFile() async throws {
        let fixture = try await LocationFixture()
        let scratch = try ScratchFolder()
        do {
            let first = Self.launch(fixture, stateIn: scratch)
            try await first.add(LocationTestPoints.request("good", radius: 500))
            try await first.add(LocationTestPoints.request("bad", radius: 700))
            try await first.writeStateNow()
        }
        // A circle is stored with the fields of the record written before CLRegion existed
        // (no "circular" key), so files from then load as these do. Damage one radius.
        let file = scratch.url.appendingPathComponent("notifications.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("circular"))
        #expect(text.contains("\"radius\":700"))
        try text.replacingOccurrences(of: "\"radius\":700", with: "\"radius\":-700").write(to: file, atomically: true, encoding: .utf8)
        let second = Self.launch(fixture, stateIn: scratch)
        #expect(await second.pendingNotificationRequests().map(\.identifier) == ["good"])
    }

    @Test("a location request refused for its content leaves no GeoClue client running")
    func refusedContentStopsTheClient() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        let request = LocationTestPoints.request("nul")
        let content = UNMutableNotificationContent()
        content.title = "a\u{0}b"
        await #expect(throws: NotificationDeliveryError.self) {
            try await fixture.center.add(UNNotificationRequest(identifier: "nul", content: content, trigger: request.trigger))
        }
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(await eventually { geoClue.clients.allSatisfy(\.deleted) })
    }

    @Test("the setting a center through the agent reports: enabled when GeoClue is there, notSupported when not")
    func agentSideProbe() async throws {
        let fixture = try await LocationFixture()
        #expect(await LocationHub.probeSetting(bus: fixture.testBus.bus) == .enabled)
        await fixture.geoClue?.stop()
        #expect(await LocationHub.probeSetting(bus: fixture.testBus.bus) == .notSupported)
    }

    @Test("a coarse position decides nothing; the same position made precise again does")
    func accuracyChanges() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        try await fixture.center.add(LocationTestPoints.request("coarse", radius: 500, repeats: true))
        try await fixture.move(3_000)
        // At the centre, but only known to 5 km (GeoIP): the whole circle is not inside.
        try await fixture.move(0, accuracy: 5_000)
        #expect(try await geoClue.changeAccuracy(to: 3_000) == 1)
        #expect(await fixture.server.waitForNotify(count: 1, timeout: .milliseconds(300)) == nil)
        #expect(try await geoClue.changeAccuracy(to: 15) == 1)
        #expect(await fixture.waitForShown(1) == ["coarse"])
        #expect(await fixture.server.waitForNotify(count: 2, timeout: .milliseconds(300)) == nil)
    }

    @Test("hostile positions (NaN, out of range) are dropped; the next good one still counts")
    func hostilePositions() async throws {
        let fixture = try await LocationFixture()
        let geoClue = try #require(fixture.geoClue)
        try await fixture.center.add(LocationTestPoints.request("safe"))
        try await fixture.move(3_000)
        try await geoClue.move(latitude: .nan, longitude: 2, accuracy: 5)
        try await geoClue.move(latitude: 48.8566, longitude: 2.3522, accuracy: .infinity)
        try await geoClue.move(latitude: 148.8566, longitude: 2.3522, accuracy: 5)
        #expect(await fixture.center.pendingNotificationRequests().count == 1)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["safe"])
    }
}
