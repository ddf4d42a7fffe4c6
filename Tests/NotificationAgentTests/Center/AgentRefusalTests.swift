import DBus
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("A center the agent refuses says why (engineFallback)")
struct AgentRefusalTests {
    static let appID = "org.example.AgentRefusal"
    let fixture: BuiltAgentFixture

    init() async throws {
        fixture = try await BuiltAgentFixture(appID: Self.appID, prefix: "agent-refusal")
    }

    /// A center of `id` in this process (a center given a state folder of its own would not
    /// choose an engine: it keeps its state in the identity's folder, which ``removeState(_:)``
    /// removes).
    func center(_ id: String, _ engine: NotificationEngineKind?) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: ApplicationIdentity(id: id, displayName: "Second Copy"), bus: .address(fixture.testBus.address), engine: engine)
    }

    func removeState(_ id: String) {
        if let folder = try? ApplicationIdentity(id: id, displayName: "").stateDirectory { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("a second copy of an app connected to the agent is refused: in process, with the agent's NotAllowed as the typed reason", arguments: [
        NotificationEngineKind.agent, nil,
    ])
    func secondCopy(engine: NotificationEngineKind?) async throws {
        let id = engine == nil ? "org.example.RefusedChoosing" : "org.example.RefusedAgent"
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let first = try fixture.testBus.spawn(
            try BuiltProduct.url(named: "agent-test-app").path, ["--app-id", id, "--record", fixture.record, "--wait", "30"],
            environment: ["XDG_STATE_HOME": fixture.folder.appendingPathComponent("app-state").path])
        #expect(await first.waitForOutput(containing: "engine agent", timeout: .seconds(20)), "\(first.standardError)")

        let second = center(id, engine)
        #expect(await second.engineKind == .inProcess)
        let fallback = try #require(await second.engineFallback)
        #expect(fallback.attempted == .agent)
        guard case .refused(.notAllowed(let detail)) = fallback.reason else {
            Issue.record("not a NotAllowed refusal: \(fallback)")
            return
        }
        #expect(detail.contains(id) && detail.contains("another process"))
        _ = await first.kill()
        _ = await agent.kill()
        removeState(id)
    }

    @Test("a center the agent takes, or that finds no agent, has no fallback")
    func noFallback() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        #expect(await center("org.example.NoAgent", nil).engineFallback == nil)
        let agent = try await fixture.spawnAgent()
        let taken = center("org.example.Taken", .agent)
        #expect(await taken.engineKind == .agent)
        #expect(await taken.engineFallback == nil)
        _ = await agent.kill()
        removeState("org.example.NoAgent")
    }

    @Test("an agent that owns the name and never answers Connect: unreachable")
    func silentAgent() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let hanging = try await DBusConnection.connect(to: fixture.testBus.bus)
        let silent = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) { _ in }
        hanging.export(DBusExportedObject(path: AgentInterface.path, interfaces: [silent]))
        #expect(try await hanging.requestName(AgentInterface.busName) == .primaryOwner)
        let center = center("org.example.Silent", .agent)
        #expect(await center.engineKind == .inProcess)
        let fallback = try #require(await center.engineFallback)
        guard fallback.attempted == .agent, case .unreachable = fallback.reason else {
            Issue.record("not an unreachable agent: \(fallback)")
            return
        }
        await hanging.close()
        removeState("org.example.Silent")
    }

    @Test("an agent of another interface version is not used: the choice goes on as without an agent, the typed reason kept", arguments: [
        NotificationEngineKind.agent, nil,
    ])
    func otherVersion(engine: NotificationEngineKind?) async throws {
        let id = engine == nil ? "org.example.OtherVersionChoosing" : "org.example.OtherVersionAgent"
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let older = try await FakeAgent.start(on: fixture.testBus.bus, version: AgentInterface.version - 1)
        let center = center(id, engine)
        #expect(await center.engineKind == .inProcess)
        let fallback = try #require(await center.engineFallback)
        #expect(fallback.attempted == .agent)
        #expect(fallback.reason == .refused(.incompatibleVersion(agent: AgentInterface.version - 1)))
        // The center called nothing of it but Connect.
        #expect(older.members == ["Connect"])
        await older.stop()
        removeState(id)
    }

    @Test("an agent of another version that takes the name from the center's own: the center's adds fail with the typed error, its delegate not asked")
    func otherVersionAfterRestart() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let current = try await FakeAgent.start(on: fixture.testBus.bus)
        let center = center("org.example.OtherVersionLater", .agent)
        let delegate = await AskedDelegate()
        center.delegate = delegate
        #expect(await center.engineKind == .agent)
        await current.stop()
        let newer = try await FakeAgent.start(on: fixture.testBus.bus, version: AgentInterface.version + 1)
        let refused = NotificationAgentError.incompatibleVersion(agent: AgentInterface.version + 1)
        func addError(_ request: UNNotificationRequest) async -> NotificationAgentError? {
            do {
                try await center.add(request)
                return nil
            } catch {
                return error as? NotificationAgentError
            }
        }
        // Adds made before the center has the new agent's Connect answer may still reach it.
        #expect(await eventually { await addError(AgentTestClient.request("later", after: 3600)) == refused })
        let reached = newer.members.filter { $0 != "TakeResponses" }
        #expect(reached.contains("Connect"))
        #expect(await addError(AgentTestClient.request("now")) == refused)
        #expect(await delegate.asked.isEmpty)
        #expect(await addError(AgentTestClient.request("again", after: 60)) == refused)
        // Those refused left for no agent.
        #expect(newer.members.filter { $0 != "TakeResponses" } == reached)
        await newer.stop()
    }
}

/// Shows every notification, and records the identifiers it is asked about.
@MainActor
private final class AskedDelegate: NSObject, UNUserNotificationCenterDelegate {
    private(set) var asked: [String] = []

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        asked.append(notification.request.identifier)
        return [.banner, .list]
    }
}
