import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The built agent keeping an app's notifications and relaunching it")
struct AgentRelaunchTests {
    static let appID = "org.example.AgentTestApp"
    let fixture: BuiltAgentFixture

    init() async throws {
        fixture = try await BuiltAgentFixture(appID: Self.appID, prefix: "agent-relaunch")
    }

    @Test("gnome46: through the agent the exited app's notification and its actions stay; in process they go")
    func outlivesTheApp() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .gnome46)
        let local = try await fixture.runApp(["--engine", "in-process", "--post", "local"])
        #expect(local.contains("engine in-process") && local.contains("posted"))
        let localID = try #require(server.notifications.first?.id)
        #expect(await eventually { !server.liveIDs.contains(localID) })
        let agent = try await fixture.spawnAgent()
        let kept = try await fixture.runApp(["--engine", "agent", "--post", "kept"])
        #expect(kept.contains("engine agent") && kept.contains("posted"))
        // The app exits once the agent accepted its request; the agent's Notify may follow.
        let keptID = try #require(await server.waitForNotify(count: 2))
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.liveIDs == [keptID])
        #expect(server.actions(of: keptID)?.map(\.key).contains("yes") == true)
        _ = await agent.kill()
    }

    @Test("a click after the app exited launches it by its Exec; its delegate gets the response once, and not at its next start")
    func relaunchByExec() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .gnome46)
        try fixture.writeDesktopEntry()
        let agent = try await fixture.spawnAgent()
        #expect(try await fixture.runApp(["--post", "ask"]).contains("engine agent"))
        // Through the agent, add returns once the request is accepted; the Notify follows.
        let id = try #require(await server.waitForNotify())
        server.invokeAction(id: id, key: "yes")
        #expect(await eventually(timeout: .seconds(20)) { fixture.recorded == ["ask yes"] })
        let again = try await fixture.runApp(["--wait", "2"])
        #expect(again.contains("engine agent") && again.contains("done"))
        #expect(fixture.recorded == ["ask yes"])
        _ = await agent.kill()
    }

    @Test("the agent killed with SIGKILL and restarted: a center that took a response is not told it again")
    func restartTellsNothingTwice() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Restart", displayName: "Restart"), bus: .address(fixture.testBus.address),
            engine: .agent)
        let recorder = ResponseRecorder()
        center.delegate = recorder
        try await center.add(AgentTestClient.request("once"))
        try await center.add(AgentTestClient.request("later", after: 3600))
        server.invokeAction(id: try #require(await server.waitForNotify()))
        #expect(await eventually { recorder.received.count == 1 })
        // The agent answers Add once the request is scheduled, as the in-process add returns,
        // and writes it within its save interval: the kill comes once "later" is committed.
        let state = fixture.folder.appendingPathComponent("agent-state/desktopnotifications-agent/org.example.Restart/notifications.json")
        #expect(await eventually { ((try? String(contentsOf: state, encoding: .utf8)) ?? "").contains("\"later\"") })
        _ = await agent.kill()
        let restarted = try await fixture.spawnAgent()
        #expect(await eventually { await center.pendingNotificationRequests().map(\.identifier) == ["later"] })
        try await Task.sleep(for: .milliseconds(500))
        #expect(recorder.received == ["once \(UNNotificationDefaultActionIdentifier)"])
        _ = await restarted.kill()
    }

    @Test("an agent the bus can start from its service file is chosen by default")
    func activatableAgent() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let wrapper = fixture.folder.appendingPathComponent("agent.sh")
        let state = fixture.folder.appendingPathComponent("agent-state").path
        try "#!/bin/sh\nXDG_STATE_HOME='\(state)' exec '\(try BuiltProduct.url(named: "notify").path)' agent --foreground\n"
            .write(to: wrapper, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: wrapper.path)
        try fixture.testBus.writeService(name: AgentInterface.busName, exec: wrapper.path)
        // The bus sees a new service file by inotify, later; ReloadConfig reads it now.
        _ = try await DBusConnection.connect(to: fixture.testBus.bus).callBus("ReloadConfig")
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Activated", displayName: "Activated"), bus: .address(fixture.testBus.address))
        #expect(await center.engineKind == .agent)
        try await center.add(AgentTestClient.request("activated", after: 3600))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["activated"])
        let pid = try #require(try await fixture.testBus.ownerPID(of: AgentInterface.busName))
        #expect(kill(pid, SIGTERM) == 0)
    }
}
