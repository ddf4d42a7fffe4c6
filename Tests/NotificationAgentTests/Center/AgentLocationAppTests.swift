import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("Location triggers of an app that is not running, watched by the built agent")
struct AgentLocationAppTests {
    static let appID = "org.example.AgentTestApp"
    let fixture: BuiltAgentFixture

    init() async throws {
        fixture = try await BuiltAgentFixture(appID: Self.appID, prefix: "agent-location-app")
    }

    /// The built agent, finding GeoClue on the test bus (its "system" bus).
    func spawnAgent() async throws -> ChildProcess {
        try await fixture.spawnAgent(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fixture.testBus.address])
    }

    /// The agent's status of the test app, as its `Status` method tells it.
    func status(asking client: AgentTestClient) async -> AgentStatus.App? {
        guard let json = (try? await client.call("Status").first?.stringValue) ?? nil,
              let status = try? JSONDecoder().decode(AgentStatus.self, from: Data(json.utf8)) else { return nil }
        return status.apps.first { $0.appID == Self.appID }
    }

    /// Moves the fake device 3 km north of the region, then to its centre: an entry.
    func enterRegion(_ geoClue: FakeGeoClue) async throws {
        #expect(try await geoClue.move(latitude: 48.8566 + 3_000 / 111_195, longitude: 2.3522, accuracy: 10) == 1)
        #expect(try await geoClue.move(latitude: 48.8566, longitude: 2.3522, accuracy: 10) == 1)
    }

    @Test("the app adds a location request and exits; an entry shows it with the app's name; a click launches the app and its delegate gets the response once")
    func firesWhileTheAppIsGone() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .gnome46)
        let geoClue = try await FakeGeoClue.start(on: fixture.testBus.bus)
        try fixture.writeDesktopEntry()
        let agent = try await spawnAgent()
        let output = try await fixture.runApp(["--engine", "agent", "--post-location", "arrive"])
        #expect(output.contains("engine agent") && output.contains("posted"), "\(output)")
        // The app has exited (runApp waited for it): the agent holds its request, not connected.
        let client = try await AgentTestClient.connect(fixture.testBus.bus)
        #expect(await eventually {
            guard let app = await status(asking: client) else { return false }
            return !app.connected && app.pending == 1
        })
        #expect(geoClue.clients.filter { !$0.deleted }.map(\.desktopID) == ["org.desktopnotifications.Agent"])
        #expect(server.notifications.isEmpty)

        try await enterRegion(geoClue)
        let id = try #require(await server.waitForNotify())
        let shown = try #require(server.notifications.first)
        #expect(shown.request.summary == "arrive")
        #expect(shown.request.appName == "Agent Test App")
        server.invokeAction(id: id)
        let response = "arrive \(UNNotificationDefaultActionIdentifier)"
        #expect(await eventually(timeout: .seconds(20)) { fixture.recorded == [response] })
        // The relaunched app exits after its response; started again, it is not told again.
        // It is started once the relaunched copy has left the bus: while that copy is bound,
        // the agent lets no other process act for the app, and the new one runs in process.
        #expect(await eventually(timeout: .seconds(20)) { await status(asking: client).map { !$0.connected } ?? true })
        let again = try await fixture.runApp(["--wait", "2"])
        #expect(again.contains("engine agent") && again.contains("done"), "\(again)")
        #expect(fixture.recorded == [response])
        // Nothing pending: the app's entry says so, or the agent has let the app go, holding
        // nothing for it.
        #expect(await status(asking: client).map(\.pending) ?? 0 == 0)
        await client.close()
        _ = await agent.kill()
    }

    @Test("a pending location request survives the agent killed and started again, and fires on entry")
    func survivesAnAgentRestart() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let geoClue = try await FakeGeoClue.start(on: fixture.testBus.bus)
        let agent = try await spawnAgent()
        #expect(try await fixture.runApp(["--engine", "agent", "--post-location", "kept"]).contains("posted"))
        let state = fixture.agentState.appendingPathComponent("desktopnotifications-agent/\(Self.appID)/notifications.json")
        #expect(await eventually { ((try? String(contentsOf: state, encoding: .utf8)) ?? "").contains("\"kept\"") })
        _ = await agent.kill()
        // GeoClue drops the killed agent's client.
        #expect(await eventually { geoClue.clients.allSatisfy(\.deleted) })

        let restarted = try await spawnAgent()
        // The restarted agent reads the app's saved request and watches its region again.
        #expect(await eventually { geoClue.clients.contains { $0.active && !$0.deleted } })
        try await enterRegion(geoClue)
        #expect(await server.waitForNotify() != nil)
        #expect(server.notifications.map(\.request.summary) == ["kept"])
        #expect(server.notifications.first?.request.appName == "Agent Test App")
        _ = await restarted.kill()
    }
}
