import DBus
import Foundation
import Testing
import UserNotificationsTesting

@Suite("Engine choice: the agent before GNOME's interface")
struct AgentBeforeGnomeTests {
    static let appID = "org.example.AgentBeforeGnome"

    @Test("an app that GNOME's interface would take (GNOME owns it, the entry is activatable) chooses the agent while one runs, GNOME's interface once it is gone")
    func agentFirst() async throws {
        let testBus = try await TestBus()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agent-before-gnome-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let applications = folder.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Choice\nExec=/bin/true\nDBusActivatable=true\n"
            .write(to: applications.appendingPathComponent("\(Self.appID).desktop"), atomically: true, encoding: .utf8)
        let gtk = try await FakeGtkNotifications.start(on: testBus.bus, knownApps: [Self.appID])
        let environment = [
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "XDG_DATA_DIRS": "/nonexistent",
            "XDG_STATE_HOME": folder.appendingPathComponent("app-state").path,
        ]
        let app = try BuiltProduct.url(named: "agent-test-app").path
        let record = folder.appendingPathComponent("responses.txt").path

        let agent = try await testBus.startAgent(environment: ["XDG_STATE_HOME": folder.appendingPathComponent("agent-state").path])
        let withAgent = try await testBus.run(app, ["--app-id", Self.appID, "--record", record, "--wait", "0"], environment: environment, timeout: .seconds(20))
        #expect(withAgent.standardOutput.contains("engine agent"), "\(withAgent.standardOutput)")
        await agent.stop()
        let connection = try await DBusConnection.connect(to: testBus.bus)
        #expect(await eventually { (try? await connection.nameOwner(of: "org.desktopnotifications.Agent")) == .some(nil) })

        let withoutAgent = try await testBus.run(app, ["--app-id", Self.appID, "--record", record, "--wait", "0"], environment: environment, timeout: .seconds(20))
        #expect(withoutAgent.standardOutput.contains("engine gnome"), "\(withoutAgent.standardOutput)")
        await connection.close()
        await gtk.stop()
        await testBus.stop()
    }
}
