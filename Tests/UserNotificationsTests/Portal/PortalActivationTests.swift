import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting
#if canImport(Glibc)
import Glibc
#endif

@Suite("Portal engine: a click after the app exited starts it by D-Bus activation and reaches its delegate")
struct PortalActivationTests {
    static let appID = "org.example.PortalActivatedApp"

    @Test("the app posts through the portal and exits; the portal's ActivateAction starts it and its delegate gets the response")
    func relaunchByActivation() async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        let portal = try await FakeNotificationPortal.start(on: testBus.bus)
        let folder = try ScratchFolder()
        let record = folder.url.appendingPathComponent("responses.txt").path
        let launches = folder.url.appendingPathComponent("launches.txt").path
        let state = folder.url.appendingPathComponent("app-state").path
        let app = try BuiltProduct.url(named: "agent-test-app").path
        // The app's D-Bus service: the test app with the portal engine, serving
        // org.freedesktop.Application; it notes whether the bus started it.
        let program = folder.url.appendingPathComponent("portal-app.sh")
        try """
            #!/bin/sh
            echo "started${DBUS_STARTER_ADDRESS:+ by the bus}" >> '\(launches)'
            XDG_STATE_HOME='\(state)' exec '\(app)' --app-id \(Self.appID) --record '\(record)' --engine portal --serve-application --wait 60

            """.write(to: program, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: program.path)
        _ = try testBus.writeService(name: Self.appID, exec: program.path)
        let caller = try await DBusConnection.connect(to: testBus.bus)
        _ = try await caller.callBus("ReloadConfig")

        let posted = try await testBus.run(
            app, ["--app-id", Self.appID, "--record", record, "--engine", "portal", "--post", "ask"],
            environment: ["XDG_STATE_HOME": state], timeout: .seconds(20))
        #expect(posted.standardOutput.contains("engine portal") && posted.standardOutput.contains("posted"), "\(posted.standardError)")
        // The app is D-Bus activatable, so its buttons are app.* actions.
        let buttons = try #require(portal.added.last?.notification["buttons"])
        #expect("\(buttons)".contains("app.notification-response"))
        #expect(try await caller.nameOwner(of: Self.appID) == nil)

        try await portal.activateAction(id: "ask", button: 0, appID: Self.appID, activationToken: "click-token")
        #expect(await eventually(timeout: .seconds(20)) { Self.lines(record) == ["ask yes"] })
        #expect(Self.lines(launches) == ["started by the bus"])
        if let relaunched = try await testBus.ownerPID(of: Self.appID) {
            #expect(kill(relaunched, SIGTERM) == 0)
            #expect(await eventually { (try? await caller.nameOwner(of: Self.appID)) == .some(nil) })
        } else {
            Issue.record("the relaunched app does not own its name")
        }
        await caller.close()
        await portal.stop()
        await testBus.stop()
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
