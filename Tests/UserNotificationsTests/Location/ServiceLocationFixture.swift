import CoreLocation
import DBus
import Foundation
import Testing
import UserNotificationsTesting
@testable import UserNotifications

/// A private bus with a fake GeoClue2 and the fake service an engine that keeps its own lists
/// shows through (GNOME's `org.gtk.Notifications` or the notification portal), and a center
/// with that engine that looks for GeoClue there.
struct ServiceLocationFixture {
    /// The fake service the center's engine shows through.
    enum Service {
        case gnome(FakeGtkNotifications)
        case portal(FakeNotificationPortal)
    }

    let testBus: TestBus
    let service: Service
    let geoClue: FakeGeoClue?
    let center: UNUserNotificationCenter
    let kind: NotificationEngineKind

    static let identity = ApplicationIdentity(id: "org.example.ServiceLocationTests", displayName: "Location Tests")

    /// `kind` is `.gnome` or `.portal`; without `geoClue` no GeoClue is on the bus. The
    /// fixture's center keeps no state.
    init(_ kind: NotificationEngineKind, geoClue withGeoClue: Bool = true) async throws {
        self.kind = kind
        testBus = try await TestBus()
        switch kind {
        case .gnome: service = .gnome(try await FakeGtkNotifications.start(on: testBus.bus, knownApps: [Self.identity.id]))
        default: service = .portal(try await FakeNotificationPortal.start(on: testBus.bus))
        }
        geoClue = withGeoClue ? try await FakeGeoClue.start(on: testBus.bus) : nil
        center = Self.makeCenter(kind, on: testBus, stateDirectory: nil)
    }

    /// A center of the fixture's app with the engine `kind` on `testBus`, keeping state in
    /// `stateDirectory` when given, as each launch of the app makes.
    static func makeCenter(_ kind: NotificationEngineKind, on testBus: TestBus, stateDirectory: URL?) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: identity, bus: .address(testBus.address), clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)),
            persistent: stateDirectory != nil, stateDirectory: stateDirectory, engine: kind, locationBus: testBus.bus)
    }

    /// A launch of the fixture's app keeping its state in `folder`.
    func launch(stateIn folder: URL) -> UNUserNotificationCenter {
        Self.makeCenter(kind, on: testBus, stateDirectory: folder)
    }

    /// Moves the fake device `metres` north of Paris; expects one GeoClue client to be told.
    func move(_ metres: Double, accuracy: Double = 10) async throws {
        let point = LocationTestPoints.north(metres)
        let told = try await geoClue?.move(latitude: point.latitude, longitude: point.longitude, accuracy: accuracy)
        #expect(told == 1, "the fake told \(told ?? 0) clients")
    }

    /// The identifiers of the `AddNotification` calls the service got, in order (GNOME's under
    /// the app's id only).
    var shown: [String] {
        switch service {
        case .gnome(let gtk):
            gtk.calls.compactMap { if case .add(let appID, let id, _) = $0, appID == Self.identity.id { id } else { nil } }
        case .portal(let portal):
            portal.added.map(\.id)
        }
    }

    /// The title of the notification last added as `id`, as the service got it.
    func title(of id: String) -> String? {
        switch service {
        case .gnome(let gtk):
            gtk.calls.reversed().lazy.compactMap { if case .add(_, id, let notification) = $0 { notification["title"]?.stringValue } else { nil } }.first
        case .portal(let portal):
            portal.added.last { $0.id == id }?.notification["title"]?.stringValue
        }
    }

    /// Waits until the service got `count` notifications; returns their identifiers.
    func waitForShown(_ count: Int) async -> [String] {
        _ = await eventually { shown.count >= count }
        return shown
    }

    /// Adds `request`; passes when the add fails with the ``LocationServiceError`` `expected`
    /// accepts.
    func addFails(_ request: UNNotificationRequest, with expected: (LocationServiceError) -> Bool) async -> Bool {
        do {
            try await center.add(request)
            return false
        } catch {
            guard let error = error as? LocationServiceError else { return false }
            return expected(error)
        }
    }

    func stop() async {
        switch service {
        case .gnome(let gtk): await gtk.stop()
        case .portal(let portal): await portal.stop()
        }
        await geoClue?.stop()
        await testBus.stop()
    }
}

/// What a location trigger does on an engine that keeps its own lists, as it does in process
/// (``LocationTriggerTests``): each engine's suite runs these with its own service.
enum ServiceLocationScenarios {
    /// A request is pending and watched (GeoClue runs a client for the app) until a position
    /// enters its region; then the service shows it, once, and it leaves the pending list and
    /// GeoClue's client stops.
    static func enteringDelivers(_ kind: NotificationEngineKind) async throws {
        let fixture = try await ServiceLocationFixture(kind)
        #expect(await fixture.center.engineKind == kind)
        try await fixture.center.add(LocationTestPoints.request("arrive"))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["arrive"])
        #expect(await fixture.center.notificationSettings().locationSetting == .enabled)
        let client = try #require(fixture.geoClue?.clients.first)
        #expect(client.desktopID == ServiceLocationFixture.identity.id)
        #expect(client.active)
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["arrive"])
        #expect(fixture.title(of: "arrive") == "arrive")
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(await eventually { await fixture.center.deliveredNotifications().map(\.request.identifier) == ["arrive"] })
        #expect(await eventually { fixture.geoClue?.clients.first?.deleted == true })
        await fixture.stop()
    }

    /// A repeating request fires at every entry and stays pending, after the dated requests.
    static func repeatingStays(_ kind: NotificationEngineKind) async throws {
        let fixture = try await ServiceLocationFixture(kind)
        try await fixture.center.add(LocationTestPoints.request("every", repeats: true))
        let content = UNMutableNotificationContent()
        content.title = "dated"
        try await fixture.center.add(UNNotificationRequest(
            identifier: "dated", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3_600, repeats: false)))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["dated", "every"])
        try await fixture.move(3_000)
        for round in 1...3 {
            try await fixture.move(0)
            #expect(await fixture.waitForShown(round).count == round)
            try await fixture.move(3_000)
        }
        #expect(fixture.shown == ["every", "every", "every"])
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["dated", "every"])
        #expect(fixture.geoClue?.clients.count == 1)
        await fixture.stop()
    }

    /// A removed request's region is no longer watched: the crossing that delivers the request
    /// still pending (which comes after it in identifier order, in the same delivery) does not
    /// deliver it; and with no region left, GeoClue's client stops.
    static func removalUnwatches(_ kind: NotificationEngineKind) async throws {
        let fixture = try await ServiceLocationFixture(kind)
        try await fixture.center.add(LocationTestPoints.request("a-removed"))
        try await fixture.center.add(LocationTestPoints.request("b-kept"))
        fixture.center.removePendingNotificationRequests(withIdentifiers: ["a-removed"])
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["b-kept"])
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["b-kept"])
        #expect(await eventually { fixture.geoClue?.clients.last?.deleted == true })

        // Removing them all unwatches too; the client made for the new one stops.
        try await fixture.center.add(LocationTestPoints.request("c-all"))
        #expect(await eventually { fixture.geoClue?.clients.last?.active == true && fixture.geoClue?.clients.last?.deleted == false })
        fixture.center.removeAllPendingNotificationRequests()
        #expect(await eventually { fixture.geoClue?.clients.last?.deleted == true })
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(fixture.shown == ["b-kept"])
        await fixture.stop()
    }

    /// GeoClue absent, or refusing the app: `add` fails with the in-process engine's
    /// ``LocationServiceError``, and nothing is pending.
    static func refusedByGeoClue(_ kind: NotificationEngineKind) async throws {
        let absent = try await ServiceLocationFixture(kind, geoClue: false)
        #expect(await absent.addFails(LocationTestPoints.request("nowhere")) {
            if case .serviceUnavailable = $0 { true } else { false }
        })
        #expect(await absent.center.pendingNotificationRequests().isEmpty)
        #expect(await absent.center.notificationSettings().locationSetting == .notSupported)
        await absent.stop()

        let refusing = try await ServiceLocationFixture(kind)
        try #require(refusing.geoClue).deny(desktopID: ServiceLocationFixture.identity.id)
        #expect(await refusing.addFails(LocationTestPoints.request("refused")) {
            if case .accessDenied = $0 { true } else { false }
        })
        #expect(await refusing.center.pendingNotificationRequests().isEmpty)
        #expect(await refusing.center.notificationSettings().locationSetting == .disabled)
        await refusing.stop()
    }

    /// A pending location request is saved; closing the center leaves GeoClue (its client
    /// stops), and the next launch watches the request again and it fires through the service.
    static func restoredAfterRestart(_ kind: NotificationEngineKind) async throws {
        let scratch = try ScratchFolder()
        let fixture = try await ServiceLocationFixture(kind)
        let geoClue = try #require(fixture.geoClue)
        do {
            let first = fixture.launch(stateIn: scratch.url)
            #expect(await first.engineKind == kind)
            try await first.add(LocationTestPoints.request("kept"))
            try await first.writeStateNow()
            #expect(await eventually { geoClue.clients.contains { $0.active } })
        }
        // The first center is gone: its engine closed and left the location service.
        #expect(await eventually { geoClue.clients.allSatisfy(\.deleted) })
        let second = fixture.launch(stateIn: scratch.url)
        #expect(await second.pendingNotificationRequests().map(\.identifier) == ["kept"])
        #expect(await eventually { geoClue.clients.contains { $0.active && !$0.deleted } })
        try await fixture.move(3_000)
        try await fixture.move(0)
        #expect(await fixture.waitForShown(1) == ["kept"])
        #expect(await second.pendingNotificationRequests().isEmpty)
        await fixture.stop()
    }
}
