import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// Records every D-Bus signal of the notification interface on `bus` with `dbus-monitor`,
/// whoever it is addressed to (the test bus lets monitors see everything).
private struct SignalMonitor {
    let process: ChildProcess

    static func start(on bus: TestBus) async throws -> SignalMonitor {
        let monitor = try ToolRequirement.require("dbus-monitor")
        let process = try bus.spawn("stdbuf", ["-oL", monitor.path, "--session", "type='signal',interface='org.freedesktop.Notifications'"])
        // dbus-monitor prints its own NameAcquired first once it listens.
        guard await process.waitForOutput(containing: "NameAcquired", timeout: .seconds(10)) else {
            await process.stop()
            throw HarnessError.startFailed(program: "dbus-monitor", reason: "no output", log: process.standardError)
        }
        return SignalMonitor(process: process)
    }

    /// The notification signals so far whose two arguments have been printed, as
    /// `member arg arg`, for example `ActionInvoked 1 ok`.
    var signals: [String] {
        var result: [[String]] = []
        var current: Int?
        for line in process.standardOutput.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("signal "), let range = text.range(of: "member=") {
                // dbus-monitor's own NameAcquired and NameLost are printed too: only ours count.
                let ours = text.contains("interface=org.freedesktop.Notifications;")
                current = ours ? result.count : nil
                if ours { result.append([String(text[range.upperBound...])]) }
            } else if let index = current, text.hasPrefix("uint32 ") || text.hasPrefix("string ") {
                let value = text.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
                result[index].append(value.replacingOccurrences(of: "\"", with: ""))
            }
        }
        // Every signal of the interface has two arguments; one still being printed waits.
        return result.filter { $0.count == 3 }.map { $0.joined(separator: " ") }
    }

    func waitFor(_ count: Int, timeout: Duration = .seconds(10)) async -> [String] {
        let deadline = ContinuousClock.now + timeout
        while signals.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return signals
    }
}

@Suite("XfceNotifyServer: xfce4-notifyd under Xvfb on a private bus")
struct XfceNotifyServerTests {
    @Test("it owns the name, reports Xfce's facts, and stops by PID with xfconfd and its home")
    func startAndStop() async throws {
        var pids: [Int32] = []
        try await XfceDesktop.run { desktop in
            #expect(try await desktop.testBus.ownerPID(of: "org.freedesktop.Notifications") == desktop.xfce.pid)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let information = try await client.serverInformation()
            #expect(information.name == "Xfce Notify Daemon")
            #expect(information.vendor == "Xfce")
            #expect(information.specVersion == "1.2")
            #expect(try await desktop.xfce.windows().isEmpty)
            pids = [desktop.xfce.pid, desktop.xfce.settingsDaemon.pid, desktop.display.pid, desktop.testBus.pid]
            await client.disconnect()
        }
        for pid in pids {
            #expect(kill(pid, 0) != 0, "PID \(pid) still runs: \(String(describing: try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).prefix(80)))")
        }
    }

    @Test("every button of a window is clicked by position: ActionInvoked(key) then NotificationClosed(2)",
          arguments: ["default", "ok", "later"])
    func buttons(key: String) async throws {
        try await XfceDesktop.run { desktop in
            let monitor = try await SignalMonitor.start(on: desktop.testBus)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            // An action without a label has no button: "silent" is skipped when counting.
            let actions = [
                NotificationAction(key: "default", label: "Open"), NotificationAction(key: "silent", label: ""),
                NotificationAction(key: "ok", label: "OK"), NotificationAction(key: "later", label: "Later"),
            ]
            let posted = try await client.notify(NotifyRequest(appName: "HarnessTests", summary: "Buttons", actions: actions))
            let window = try #require(try await desktop.xfce.waitForWindows(count: 1).first)

            try await desktop.xfce.clickButton(for: key, among: actions, in: window)
            let signals = await monitor.waitFor(2)
            #expect(signals == ["ActionInvoked \(posted.id) \(key)", "NotificationClosed \(posted.id) 2"])
            #expect(try await desktop.xfce.waitForWindows(count: 0).isEmpty)
            await monitor.process.stop()
            await client.disconnect()
        }
    }

    @Test("a click on the body dismisses (reason 2) and invokes nothing, even with a default action")
    func body() async throws {
        try await XfceDesktop.run { desktop in
            let monitor = try await SignalMonitor.start(on: desktop.testBus)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let posted = try await client.notify(NotifyRequest(
                appName: "HarnessTests", summary: "Body", actions: [NotificationAction(key: "default", label: "Open")]))
            let window = try #require(try await desktop.xfce.waitForWindows(count: 1).first)

            try await desktop.xfce.clickBody(of: window)
            let signals = await monitor.waitFor(1)
            #expect(signals == ["NotificationClosed \(posted.id) 2"])
            try await Task.sleep(for: .milliseconds(300))
            #expect(monitor.signals == signals)
            await monitor.process.stop()
            await client.disconnect()
        }
    }

    @Test("a notification without expire_timeout stays: the harness's settings turn xfce's 10 s default off")
    func noDefaultExpiry() async throws {
        try await XfceDesktop.run { desktop in
            let client = NotificationsClient(bus: desktop.testBus.bus)
            _ = try await client.notify(NotifyRequest(appName: "HarnessTests", summary: "Stays"))
            try await desktop.xfce.waitForWindows(count: 1)
            try await Task.sleep(for: .seconds(11))
            #expect(try await desktop.xfce.windows().count == 1)
            await client.disconnect()
        }
    }

    @Test("window geometry from xdotool --shell output; a reply without it is an error")
    func geometry() throws {
        let window = try XfceNotifyServer.window(7, geometry: "WINDOW=7\nX=10\nY=20\nWIDTH=136\nHEIGHT=109\nSCREEN=0\n")
        #expect(window == XfceNotificationWindow(window: 7, x: 10, y: 20, width: 136, height: 109))
        #expect(throws: HarnessError.self) { try XfceNotifyServer.window(7, geometry: "WINDOW=7\n") }
    }
}

@Suite("MakoServer: mako on a headless sway on a private bus")
struct MakoServerTests {
    @Test("it owns the name, reports mako's facts, and stops by PID with sway")
    func startAndStop() async throws {
        var pids: [Int32] = []
        try await MakoDesktop.run { desktop in
            #expect(try await desktop.testBus.ownerPID(of: "org.freedesktop.Notifications") == desktop.mako.pid)
            #expect(desktop.compositor.waylandDisplay.hasPrefix("wayland-"))
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let information = try await client.serverInformation()
            #expect(information.name == "mako")
            #expect(information.vendor == "emersion")
            #expect(try await desktop.mako.list().isEmpty)
            pids = [desktop.mako.pid, desktop.compositor.pid, desktop.testBus.pid]
            await client.disconnect()
        }
        for pid in pids {
            #expect(kill(pid, 0) != 0, "PID \(pid) still runs: \(String(describing: try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).prefix(80)))")
        }
    }

    @Test("makoctl list shows what was posted; invoke sends ActionInvoked and keeps it; dismiss closes with 2")
    func listInvokeDismiss() async throws {
        try await MakoDesktop.run { desktop in
            let monitor = try await SignalMonitor.start(on: desktop.testBus)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            var request = NotifyRequest(
                appName: "HarnessTests", summary: "Mako", body: "a body",
                actions: [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "ok", label: "OK")])
            request.hints.category = "im.received"
            let posted = try await client.notify(request)
            let listed = try await desktop.mako.waitForList(count: 1)
            #expect(listed == [MakoNotification(
                id: posted.id, appName: "HarnessTests", summary: "Mako", body: "a body", category: "im.received",
                actions: ["default": "Open", "ok": "OK"])])

            try await desktop.mako.invoke(id: posted.id, action: "ok")
            let invoked = await monitor.waitFor(1)
            #expect(invoked == ["ActionInvoked \(posted.id) ok"])
            #expect(try await desktop.mako.list().count == 1)
            try await desktop.mako.dismiss(id: posted.id)
            let dismissed = await monitor.waitFor(2)
            #expect(dismissed == ["ActionInvoked \(posted.id) ok", "NotificationClosed \(posted.id) 2"])
            #expect(try await desktop.mako.waitForList(count: 0).isEmpty)
            await monitor.process.stop()
            await client.disconnect()
        }
    }
}

@Suite("GnomeShellServer: headless GNOME Shell 43 with the harness's extension on a private bus")
struct GnomeShellServerTests {
    @Test("it serves GNOME's facts through the activated service, and stops by PID with logind and the system bus")
    func startAndStop() async throws {
        var pids: [Int32] = []
        try await GnomeDesktop.run { desktop in
            let shell = desktop.shell
            #expect(try await desktop.testBus.ownerPID(of: "org.freedesktop.Notifications") == shell.notificationServicePID)
            #expect(try await shell.systemBus.ownerPID(of: "org.freedesktop.login1") == shell.logind.pid)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let information = try await client.serverInformation()
            #expect(information.name == "gnome-shell")
            #expect(information.vendor == "GNOME")
            #expect(information.version.hasPrefix("43."))
            #expect(try await client.capabilities() == ["actions", "body", "body-markup", "icon-static", "persistence", "sound"])
            #expect(try await shell.list().isEmpty)
            pids = [shell.pid, shell.notificationServicePID, shell.logind.pid, shell.systemBus.pid, desktop.testBus.pid]
            await client.disconnect()
        }
        for pid in pids {
            #expect(kill(pid, 0) != 0, "PID \(pid) still runs: \(String(describing: try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).prefix(80)))")
        }
    }

    @Test("the extension lists a notification with its source and buttons; a button click sends ActionInvoked then NotificationClosed(2)")
    func listAndClick() async throws {
        try await GnomeDesktop.run { desktop in
            let monitor = try await SignalMonitor.start(on: desktop.testBus)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let posted = try await client.notify(NotifyRequest(
                appName: "HarnessTests", summary: "Gnome", body: "a body",
                actions: [NotificationAction(key: "default", label: ""), NotificationAction(key: "ok", label: "OK")]))
            let listed = try await desktop.shell.waitForList(count: 1)
            #expect(listed == [GnomeNotification(id: posted.id, title: "Gnome", body: "a body", source: "HarnessTests", app: "", actions: ["OK"])])

            try await desktop.shell.invokeAction(id: posted.id, label: "OK")
            // The shell broadcasts each signal itself and the service forwards a copy to the
            // poster: the monitor sees both, the copies in no fixed order.
            let signals = await monitor.waitFor(4).sorted()
            #expect(signals == [
                "ActionInvoked \(posted.id) ok", "ActionInvoked \(posted.id) ok",
                "NotificationClosed \(posted.id) 2", "NotificationClosed \(posted.id) 2",
            ])
            #expect(try await desktop.shell.waitForList(count: 0).isEmpty)
            await #expect(throws: HarnessError.self) { try await desktop.shell.activate(id: posted.id) }
            await monitor.process.stop()
            await client.disconnect()
        }
    }
}

@Suite("PlasmaShellServer: Plasma's notification server on a headless KWin on a private bus")
struct PlasmaShellServerTests {
    @Test("plasmashell owns the name, reports Plasma's facts, and stops by PID with KWin and the activity manager")
    func startAndStop() async throws {
        var pids: [Int32] = []
        try await PlasmaDesktop.run { desktop in
            let plasma = desktop.plasma
            #expect(try await desktop.testBus.ownerPID(of: "org.freedesktop.Notifications") == plasma.pid)
            let client = NotificationsClient(bus: desktop.testBus.bus)
            let information = try await client.serverInformation()
            #expect(information.name == "Plasma")
            #expect(information.vendor == "KDE")
            #expect(information.version.hasPrefix("5.27"))
            #expect(try await client.capabilities().contains(.inlineReply))
            let posted = try await client.notify(NotifyRequest(appName: "HarnessTests", summary: "Plasma", expiry: .never))
            #expect(posted.id == 1)
            pids = [plasma.pid, plasma.activityManager.pid, plasma.compositor.pid, desktop.testBus.pid]
            await client.disconnect()
        }
        for pid in pids {
            #expect(kill(pid, 0) != 0, "PID \(pid) still runs")
        }
    }
}
