import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("The PortalNotice example posts through the real xdg-desktop-portal frontend when its sandbox check says so")
struct PortalNoticeExampleTests {
    /// A private bus with the 1.16 frontend and the fake backend behind it.
    struct Portal {
        let testBus: TestBus
        let backend: FakePortalBackend
        let frontend: ChildProcess

        init() async throws {
            let frontendPath = try ToolRequirement.require("/usr/libexec/xdg-desktop-portal")
            testBus = try await TestBus(withServiceDirectory: true)
            backend = try await FakePortalBackend.start(on: testBus.bus)
            let portals = testBus.directory.appendingPathComponent("portals", isDirectory: true)
            try FileManager.default.createDirectory(at: portals, withIntermediateDirectories: false)
            try FakePortalBackend.writePortalFile(in: portals)
            frontend = try testBus.spawn(
                frontendPath.path, [],
                environment: ["XDG_DESKTOP_PORTAL_DIR": portals.path, "XDG_CURRENT_DESKTOP": FakePortalBackend.desktopName])
            try await testBus.waitForName("org.freedesktop.portal.Desktop", ownedBy: frontend)
        }

        /// Runs the built example with `environment`, in `sandbox` when one is given, and
        /// returns what it printed.
        func runExample(_ environment: [String: String?], in sandbox: FlatpakSandbox? = nil) async throws -> String {
            let example = try BuiltProduct.url(named: "PortalNotice").path
            let command = try FlatpakSandbox.command(example, [], in: sandbox)
            let process = try testBus.spawn(command.executable.path, command.arguments, environment: environment)
            // result, not waitForExit: the exit can be seen before the pipe's last bytes are read.
            let result = try await process.result(timeout: .seconds(30))
            #expect(result.status == .exited(0), "PortalNotice: \(result.standardError)")
            return result.standardOutput
        }

        func stop() async {
            _ = await frontend.stop()
            await backend.stop()
            await testBus.stop()
        }
    }

    @Test("in a Flatpak-like sandbox: the portal, and the frontend passes the notification on under the sandbox's app id")
    func sandboxed() async throws {
        let portal = try await Portal()
        let scratch = try ScratchFolder()
        let sandbox = try FlatpakSandbox(contents: "[Application]\nname=org.desktopnotifications.PortalNotice\n", in: scratch.url)
        let output = try await portal.runExample(
            ["XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: nil, "SNAP": nil], in: sandbox)
        #expect(output.contains("posted through the notification portal"), "\(output)")
        #expect(await eventually { portal.backend.calls.count == 1 })
        guard case .add(let appID, let id, let notification)? = portal.backend.calls.first else {
            Issue.record("no AddNotification reached the backend: \(portal.backend.calls)")
            return await portal.stop()
        }
        #expect(id == "portal-notice")
        #expect(notification["title"] == .string("Portal Notice"))
        #expect(notification["body"] == .string("Posted from a sandbox, through the notification portal"))
        // The frontend reads the sandbox from the caller's /proc/PID/root/.flatpak-info: the
        // app id it passes on is the sandbox's, as for a Flatpak app.
        #expect(appID == "org.desktopnotifications.PortalNotice")
        await portal.stop()
    }

    @Test("no sandbox info file: the example posts from its own process; asked for the portal, it goes there with the host app id")
    func notSandboxed() async throws {
        let portal = try await Portal()
        let server = try await FakeNotificationServer.start(on: portal.testBus.bus)
        let scratch = try ScratchFolder()
        let output = try await portal.runExample([
            "XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: nil, "SNAP": nil,
        ])
        #expect(output.contains("posted from this process"), "\(output)")
        #expect(server.notifications.map(\.request.summary) == ["Portal Notice"])
        #expect(portal.backend.calls.isEmpty)

        let asked = try await portal.runExample([
            "XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: "portal", "SNAP": nil,
        ])
        #expect(asked.contains("posted through the notification portal"), "\(asked)")
        #expect(await eventually { portal.backend.calls.count == 1 })
        if case .add(let appID, let id, _)? = portal.backend.calls.first {
            #expect(id == "portal-notice")
            print("PortalNotice unsandboxed, the portal asked for: the 1.16 frontend passed app id \(appID.debugDescription)")
        } else {
            Issue.record("no AddNotification reached the backend: \(portal.backend.calls)")
        }
        await server.stop()
        await portal.stop()
    }
}
