import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The built agent relaunching a D-Bus activatable app through org.freedesktop.Application")
struct ActivatableRelaunchTests {
    static let appID = "org.example.ActivatableTestApp"
    let testBus: TestBus
    /// The scratch folder, removed when the test ends.
    let scratch: TemporaryFolder
    var folder: URL { scratch.url }
    let record: String
    let launches: String

    init() async throws {
        testBus = try await TestBus(withServiceDirectory: true)
        scratch = try TemporaryFolder(prefix: "activatable-relaunch")
        record = scratch.url.appendingPathComponent("responses.txt").path
        launches = scratch.url.appendingPathComponent("launches.txt").path
    }

    var dataHome: String { folder.appendingPathComponent("data").path }

    /// The app's program: the test app serving the interface, which notes in `launches`
    /// whether the bus started it (`DBUS_STARTER_ADDRESS`, which an Exec launch removes). It
    /// stays after its first response (its center may have taken it at start, before the
    /// agent's `ActivateAction` is answered), until the test stops it.
    func writeProgram() async throws -> String {
        let program = folder.appendingPathComponent("activatable-app.sh")
        let app = try BuiltProduct.url(named: "agent-test-app").path
        let state = folder.appendingPathComponent("app-state").path
        try """
            #!/bin/sh
            echo "started${DBUS_STARTER_ADDRESS:+ by the bus}" >> '\(launches)'
            XDG_STATE_HOME='\(state)' exec '\(app)' --app-id \(Self.appID) --record '\(record)' --serve-application --wait 60

            """.write(to: program, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: program.path)
        return program.path
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("a click after the app exited starts it by D-Bus activation; ActivateAction hands its delegate the response once")
    func relaunchByActivation() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome46)
        let notify = try BuiltProduct.url(named: "notify").path
        let written = try await testBus.run(
            notify, ["app-files", "--id", Self.appID, "--exec", try await writeProgram(), "--name", "Activatable Test App", "--dbus-activatable"],
            environment: ["XDG_DATA_HOME": dataHome])
        #expect(written.status == .exited(0), "\(written.standardError)")
        let service = try #require(testBus.serviceDirectory).appendingPathComponent("\(Self.appID).service")
        try FileManager.default.copyItem(atPath: "\(dataHome)/dbus-1/services/\(Self.appID).service", toPath: service.path)
        _ = try await DBusConnection.connect(to: testBus.bus).callBus("ReloadConfig")

        let agent = try await testBus.startAgent(environment: [
            "XDG_STATE_HOME": folder.appendingPathComponent("agent-state").path, "XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": "/nonexistent",
        ])
        let app = try BuiltProduct.url(named: "agent-test-app").path
        let posted = try await testBus.run(
            app, ["--app-id", Self.appID, "--record", record, "--post", "ask"],
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("app-state").path], timeout: .seconds(20))
        #expect(posted.standardOutput.contains("engine agent") && posted.standardOutput.contains("posted"))

        // The app exits once the agent accepted its request; the server's Notify may follow.
        server.invokeAction(id: try #require(await server.waitForNotify()), key: "yes", activationToken: "click-token")
        #expect(await eventually(timeout: .seconds(20)) { lines(record) == ["ask yes"] })
        #expect(lines(launches) == ["started by the bus"])
        // The agent's ActivateAction call was answered by the app's center, not refused.
        #expect(await eventually { agent.standardError.contains("launched by ActivateAction") })
        #expect(!agent.standardError.contains("could not be launched"))
        let relaunched = try #require(try await testBus.ownerPID(of: Self.appID))
        #expect(kill(relaunched, SIGTERM) == 0)
        let connection = try await DBusConnection.connect(to: testBus.bus)
        #expect(await eventually { (try? await connection.nameOwner(of: Self.appID)) == .some(nil) })
        let again = try await testBus.run(
            app, ["--app-id", Self.appID, "--record", record, "--wait", "2"],
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("app-state").path], timeout: .seconds(20))
        #expect(again.standardOutput.contains("engine agent") && again.standardOutput.contains("done"))
        #expect(lines(record) == ["ask yes"])
        #expect(lines(launches) == ["started by the bus"])
        _ = await agent.kill()
    }
}
