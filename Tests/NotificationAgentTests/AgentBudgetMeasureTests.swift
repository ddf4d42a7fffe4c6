import DBus
import DesktopNotificationsSupport
import Foundation
@testable import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The agent measures an app's lists for its budget off the D-Bus I/O thread")
struct AgentBudgetMeasureTests {
    static let appID = "org.example.AgentBudgetMeasure"

    /// An app's calls run on the D-Bus I/O thread, which serves every app; measuring its lists
    /// encodes all of them (up to 16 MiB of records), which must not hold that thread.
    @Test("near its budget an app's Add has its lists measured, and the encoding runs off the I/O thread")
    func measuresOffTheIOThread() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-budget-measure")
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(
            bus: .address(fixture.testBus.address), clock: SystemNotificationClock(), launcher: NoAppLauncher(),
            identifying: DeclaredAppIdentity(), stateRoot: fixture.stateRoot,
            caps: AgentLimits.AddCaps(pendingRequests: 1000, liveNotifications: 10, appStateBytes: 4096))
        let places = Locked<[Bool]>([])
        AgentApp.measuring.withLock { $0 = { places.withLock { $0.append(DBusLoopExecutor.isCurrentThread) } } }
        defer { AgentApp.measuring.withLock { $0 = nil } }
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        var refused: String?
        for index in 0..<100 where refused == nil {
            refused = await app.errorName(of: "Add", [
                .string(Self.appID), try AgentPayload.encode(AgentTestClient.request("later-\(index)", after: 3600)).dbusValue,
            ])
        }
        #expect(refused == "org.desktopnotifications.Agent1.Error.LimitReached")
        let seen = places.withLock { $0 }
        #expect(!seen.isEmpty, "the lists were never measured")
        #expect(!seen.contains(true), "measured on the D-Bus I/O thread: \(seen)")
        await app.close()
        await agent.stop()
    }
}
