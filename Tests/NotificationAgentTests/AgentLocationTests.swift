import CoreLocation
import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The agent watches every app's location triggers through one GeoClue2 client")
struct AgentLocationTests {
    static let apps = ["org.example.LocationOne", "org.example.LocationTwo"]

    static func request(_ identifier: String) -> UNNotificationRequest {
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522), radius: 500, identifier: identifier)
        region.notifyOnExit = false
        let content = UNMutableNotificationContent()
        content.title = identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: UNLocationNotificationTrigger(region: region, repeats: false))
    }

    @Test("two apps' regions, one client with the agent's desktop id; an entry delivers both with each app's name")
    func oneClientForAllApps() async throws {
        let testBus = try await TestBus()
        let stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("agent-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stateHome) }
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let geoClue = try await FakeGeoClue.start(on: testBus.bus)
        // The agent looks for GeoClue on the "system" bus: the private one here.
        let agent = try await testBus.startAgent(environment: ["XDG_STATE_HOME": stateHome.path, "DBUS_SYSTEM_BUS_ADDRESS": testBus.address])
        let client = try await AgentTestClient.connect(testBus.bus)
        for app in Self.apps {
            try await client.connectApp(app, name: app)
            try await client.add(Self.request("arrive-\(app)"), for: app)
            #expect(try await client.pending(of: app) == ["arrive-\(app)"])
        }
        #expect(geoClue.clients.count == 1)
        #expect(geoClue.clients.first?.desktopID == "org.desktopnotifications.Agent")
        #expect(try await geoClue.move(latitude: 48.9, longitude: 2.3522, accuracy: 10) == 1)
        #expect(try await geoClue.move(latitude: 48.8566, longitude: 2.3522, accuracy: 10) == 1)
        #expect(await server.waitForNotify(count: 2) != nil)
        #expect(Set(server.notifications.map(\.request.summary)) == Set(Self.apps.map { "arrive-\($0)" }))
        #expect(Set(server.notifications.map(\.request.appName)) == Set(Self.apps))
        for app in Self.apps { #expect(try await client.pending(of: app).isEmpty) }
        // Both fired once: the shared client is stopped and deleted.
        #expect(await eventually { geoClue.clients.first?.deleted == true })
        _ = await agent.stop()
        await testBus.stop()
    }

    @Test("a location request keeps the agent itself running (it watches the location), with a request due later beside it")
    func locationKeepsAgent() async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        let stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("agent-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stateHome) }
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        _ = try await FakeGeoClue.start(on: testBus.bus)
        // Started by the first call, so that its idle second counts from the calls.
        try await testBus.serveAgent(
            arguments: ["--idle-exit", "1"], environment: ["XDG_STATE_HOME": stateHome.path, "DBUS_SYSTEM_BUS_ADDRESS": testBus.address])
        let client = try await AgentTestClient.connect(testBus.bus)
        _ = try await client.connection.callBus("ReloadConfig")
        try await client.connectApp(Self.apps[0])
        try await client.add(Self.request("arrive"), for: Self.apps[0])
        try await client.add(AgentTestClient.request("later", after: 3600), for: Self.apps[0])
        let agent = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        await client.close()
        // An agent holding only "later" becomes a waiter after one idle second (AgentIdleTests).
        try await Task.sleep(for: .seconds(3))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == agent)
        #expect(kill(agent, SIGTERM) == 0)
        await testBus.stop()
    }

    @Test("GeoClue absent: the agent refuses a location request with a typed error the app decodes")
    func absentIsTyped() async throws {
        let testBus = try await TestBus()
        let stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("agent-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stateHome) }
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        let agent = try await testBus.startAgent(environment: ["XDG_STATE_HOME": stateHome.path, "DBUS_SYSTEM_BUS_ADDRESS": testBus.address])
        let client = try await AgentTestClient.connect(testBus.bus)
        try await client.connectApp(Self.apps[0])
        do {
            try await client.add(Self.request("nowhere"), for: Self.apps[0])
            Issue.record("the agent accepted a location request with no GeoClue")
        } catch {
            let decoded = AgentErrorName.decode(error)
            guard case .serviceUnavailable? = decoded as? LocationServiceError else {
                Issue.record("\(error) decoded as \(decoded)")
                return
            }
        }
        #expect(try await client.pending(of: Self.apps[0]).isEmpty)
        _ = await agent.stop()
        await testBus.stop()
    }
}
