import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
@testable import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// Counts the launches the agent asks for; the first `failures` of them fail.
private final class CountingLauncher: AppLaunching {
    let calls = Locked(0)
    let failures: Int

    init(failures: Int = 0) {
        self.failures = failures
    }

    func launch(appID: String, responseID: String, activationToken: String?) async throws {
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        if call <= failures { throw ApplicationLaunchError.noExec(path: "/nonexistent/\(appID).desktop") }
    }
}

@Suite("The agent launches an app once while its launch is under way")
struct OneLaunchAtATimeTests {
    static let appID = "org.example.OneLaunch"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "one-launch")
    }

    /// Posts `identifiers` as the app, then leaves; returns the server's ids, in order.
    func post(_ identifiers: [String], server: FakeNotificationServer, agent: AgentService) async throws -> [UInt32] {
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let before = server.notifications.count
        for identifier in identifiers { try await app.add(AgentTestClient.request(identifier), for: Self.appID) }
        _ = await server.waitForNotify(count: before + identifiers.count)
        await app.close()
        #expect(await eventually { (try? await agent.statusJSON())?.contains("\"connected\":false") == true })
        let ids = server.notifications.suffix(identifiers.count).compactMap(\.id)
        try #require(ids.count == identifiers.count)
        return ids
    }

    /// Waits until the agent holds `count` responses for the app.
    func queued(_ count: Int, agent: AgentService) async -> Bool {
        await eventually { (try? await agent.statusJSON())?.contains("\"queued\":\(count)") == true }
    }

    @Test("two clicks while the app starts by its Exec start it once; a click after its center came and went starts it again")
    func twoClicksOneLaunch() async throws {
        let folder = try TemporaryFolder()
        let launches = "\(folder.path)/launches"
        let program = try await folder.writeExecutable("#!/bin/sh\necho launched >> '\(launches)'\n", to: "bin/app")
        try folder.write("[Desktop Entry]\nType=Application\nName=One\nExec=\(program)\n", to: "applications/\(Self.appID).desktop")
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let launcher = ApplicationLauncher(
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_DATA_DIRS": "/nonexistent"],
            connection: connection)
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(bus: .address(fixture.testBus.address), launcher: launcher, stateRoot: fixture.stateRoot)
        let count = { (try? String(contentsOfFile: launches, encoding: .utf8))?.split(separator: "\n").count ?? 0 }

        let ids = try await post(["first", "second"], server: server, agent: agent)
        server.invokeAction(id: ids[0])
        #expect(await eventually { count() == 1 })
        // The app has not connected yet (it never does): the second click waits for it.
        server.invokeAction(id: ids[1])
        #expect(await queued(2, agent: agent))

        // Its center connects (the launch is over) and leaves; by then a launch for the second
        // click would have run its program too.
        let third = try await post(["third"], server: server, agent: agent)
        #expect(count() == 1)
        server.invokeAction(id: third[0])
        #expect(await eventually { count() == 2 })
        await agent.stop()
        await connection.close()
    }

    @Test("a launch that failed is over: the next click launches again")
    func failedLaunch() async throws {
        let launcher = CountingLauncher(failures: 1)
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(bus: .address(fixture.testBus.address), launcher: launcher, stateRoot: fixture.stateRoot)
        let ids = try await post(["first", "second"], server: server, agent: agent)
        server.invokeAction(id: ids[0])
        #expect(await eventually { launcher.calls.withLock { $0 } == 1 })
        server.invokeAction(id: ids[1])
        #expect(await eventually { launcher.calls.withLock { $0 } == 2 })
        await agent.stop()
    }

    @Test("a launch whose app never connects is over after launchWait of the agent's clock: the next click launches again")
    func launchWaitEnds() async throws {
        let launcher = CountingLauncher()
        let clock = TestNotificationClock()
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(
            bus: .address(fixture.testBus.address), clock: clock, launcher: launcher, stateRoot: fixture.stateRoot)
        let ids = try await post(["first", "second", "third"], server: server, agent: agent)
        server.invokeAction(id: ids[0])
        #expect(await eventually { launcher.calls.withLock { $0 } == 1 })
        clock.advance(by: AgentAppHost.launchWait - 1)
        server.invokeAction(id: ids[1])
        #expect(await queued(2, agent: agent))
        clock.advance(by: 2)
        server.invokeAction(id: ids[2])
        #expect(await eventually { launcher.calls.withLock { $0 } == 2 })
        #expect(await queued(3, agent: agent))
        #expect(launcher.calls.withLock { $0 } == 2)
        await agent.stop()
    }
}
