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

        /// Runs the built example with `environment` and returns what it printed.
        func runExample(_ environment: [String: String?]) async throws -> String {
            let example = try BuiltProduct.url(named: "PortalNotice")
            let process = try testBus.spawn(example.path, [], environment: environment)
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

    @Test("a sandbox info file: the portal, and the frontend passes the notification on; an app id as the frontend finds it")
    func sandboxed() async throws {
        let portal = try await Portal()
        let scratch = try ScratchFolder()
        let info = scratch.url.appendingPathComponent("flatpak-info")
        try Data("[Application]\nname=org.desktopnotifications.PortalNotice\n".utf8).write(to: info)
        let output = try await portal.runExample([
            SandboxCheck.infoFileVariable: info.path, "XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: nil,
            "SNAP": nil,
        ])
        #expect(output.contains("posted through the notification portal"), "\(output)")
        #expect(await eventually { portal.backend.calls.count == 1 })
        guard case .add(let appID, let id, let notification)? = portal.backend.calls.first else {
            Issue.record("no AddNotification reached the backend: \(portal.backend.calls)")
            return await portal.stop()
        }
        #expect(id == "portal-notice")
        #expect(notification["title"] == .string("Portal Notice"))
        #expect(notification["body"] == .string("Posted from a sandbox, through the notification portal"))
        // The frontend reads the sandbox from the caller's /proc/PID/root/.flatpak-info, not from
        // our variable: for this unsandboxed process it finds the same app id as for any host
        // caller (empty, or a name from its systemd unit), never the id in our file.
        #expect(appID != "org.desktopnotifications.PortalNotice")
        print("PortalNotice with a sandbox info file: the 1.16 frontend passed app id \(appID.debugDescription)")
        await portal.stop()
    }

    @Test("no sandbox info file: the example posts from its own process; asked for the portal, it goes there with the host app id")
    func notSandboxed() async throws {
        let portal = try await Portal()
        let server = try await FakeNotificationServer.start(on: portal.testBus.bus)
        let scratch = try ScratchFolder()
        let absent = scratch.url.appendingPathComponent("absent").path
        let output = try await portal.runExample([
            SandboxCheck.infoFileVariable: absent, "XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: nil, "SNAP": nil,
        ])
        #expect(output.contains("posted from this process"), "\(output)")
        #expect(server.notifications.map(\.request.summary) == ["Portal Notice"])
        #expect(portal.backend.calls.isEmpty)

        let asked = try await portal.runExample([
            SandboxCheck.infoFileVariable: absent, "XDG_STATE_HOME": scratch.url.path, EngineChoice.environmentVariable: "portal",
            "SNAP": nil,
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
