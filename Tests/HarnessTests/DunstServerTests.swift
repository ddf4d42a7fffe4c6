import Foundation
import Testing
import UserNotificationsTesting

@Suite("DunstServer: dunst under Xvfb on a private bus")
struct DunstServerTests {
    /// A bus, a display and dunst, stopped by PID in reverse order.
    private struct Desktop {
        let bus: TestBus
        let display: XvfbDisplay
        let dunst: DunstServer
        let notifySend: NotifySend

        static func start() async throws -> Desktop {
            let bus = try await TestBus()
            let display = try await XvfbDisplay()
            let dunst = try await DunstServer(bus: bus, display: display)
            return Desktop(bus: bus, display: display, dunst: dunst, notifySend: try NotifySend(bus: bus))
        }

        func stop() async {
            await dunst.stop()
            await display.stop()
            await bus.stop()
        }
    }

    @Test("dunst is at least 1.9.0 and owns org.freedesktop.Notifications on the test bus")
    func versionAndOwnership() async throws {
        let version = try await DunstServer.installedVersion()
        let parts = version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count == 3)
        #expect(!parts.lexicographicallyPrecedes(DunstServer.minimumVersion))

        let desktop = try await Desktop.start()
        #expect(desktop.dunst.version == version)
        #expect(try await desktop.bus.ownerPID(of: "org.freedesktop.Notifications") == desktop.dunst.pid)
        let info = try await desktop.bus.run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=org.freedesktop.Notifications",
            "/org/freedesktop/Notifications", "org.freedesktop.Notifications.GetServerInformation",
        ]).check()
        #expect(info.standardOutput.contains("dunst"))
        #expect(info.standardOutput.contains(version))
        await desktop.stop()
        #expect(!desktop.dunst.process.isRunning)
        #expect(!desktop.display.process.isRunning)
        #expect(!FileManager.default.fileExists(atPath: desktop.dunst.configurationFile.path))
    }

    @Test("notify-send shows a notification; dunstctl history lists it once closed")
    func notifySendThenHistory() async throws {
        let desktop = try await Desktop.start()
        let sent = try await desktop.notifySend.run(["--app-name=HarnessTests", "Hello from the harness", "A body line"])
        #expect(sent.succeeded, "\(sent.standardError)")
        #expect(try await desktop.dunst.count(.displayed) == 1)
        #expect(try await desktop.dunst.history().isEmpty)

        try await desktop.dunst.closeAll()
        #expect(try await desktop.dunst.count(.displayed) == 0)
        let history = try await desktop.dunst.history()
        #expect(history.count == 1)
        let entry = try #require(history.first)
        #expect(entry.summary == "Hello from the harness")
        #expect(entry.body == "A body line")
        #expect(entry.appName == "HarnessTests")
        #expect(entry.timeout == 0)
        await desktop.stop()
    }

    @Test("invokeAction() invokes the only action; notify-send --action prints its key")
    func invokeAction() async throws {
        let desktop = try await Desktop.start()
        let waiting = try desktop.notifySend.start(["--print-id", "--action=open=Open", "Pick me"])
        #expect(await waiting.waitForOutput(containing: "\n", timeout: .seconds(10)), "\(waiting.standardError)")
        let id = try #require(Int(waiting.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(waiting.isRunning)

        try await desktop.dunst.invokeAction()
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.succeeded)
        #expect(result.standardOutput == "\(id)\nopen\n")
        await desktop.stop()
    }

    @Test("SIGINT by PID ends notify-send --wait, which closes its notification")
    func interruptWaitingNotifySend() async throws {
        let desktop = try await Desktop.start()
        let waiting = try desktop.notifySend.start(["--print-id", "--wait", "Wait for me"])
        #expect(await waiting.waitForOutput(containing: "\n", timeout: .seconds(10)), "\(waiting.standardError)")
        #expect(try await desktop.dunst.count(.displayed) == 1)

        #expect(waiting.interrupt())
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0))
        #expect(try await desktop.dunst.count(.displayed) == 0)
        #expect(try await desktop.dunst.history().map(\.summary) == ["Wait for me"])
        await desktop.stop()
    }

    @Test("the history decoder reads dunst 1.9's JSON, urgency and stack tag optional")
    func decodesHistory() throws {
        let json = """
            {"type":"aa{sv}","data":[[{"body":{"type":"s","data":"b"},"message":{"type":"s","data":"<b>s</b>\\nb"},
            "summary":{"type":"s","data":"s"},"appname":{"type":"s","data":"app"},"category":{"type":"s","data":""},
            "default_action_name":{"type":"s","data":"default"},"icon_path":{"type":"s","data":""},
            "id":{"type":"i","data":7},"timestamp":{"type":"x","data":123},"timeout":{"type":"x","data":0},
            "progress":{"type":"i","data":-1},"urgency":{"type":"s","data":"CRITICAL"}}]]}
            """
        let entries = try DunstServer.decodeHistory(Data(json.utf8))
        #expect(entries == [DunstNotification(
            id: 7, appName: "app", summary: "s", body: "b", message: "<b>s</b>\nb", category: "",
            iconPath: "", defaultActionName: "default", progress: -1, timeout: 0, timestamp: 123,
            urgency: "CRITICAL", stackTag: nil
        )])
        #expect(try DunstServer.decodeHistory(Data(#"{"type":"aa{sv}","data":[[]]}"#.utf8)).isEmpty)
        #expect(throws: (any Error).self) {
            try DunstServer.decodeHistory(Data(#"{"type":"aa{sv}","data":[[{"id":{"type":"i","data":1}}]]}"#.utf8))
        }
    }
}
