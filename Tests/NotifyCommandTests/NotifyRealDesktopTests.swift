import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// The built `notify` command against real desktops' servers: headless GNOME Shell 43
/// (through the harness's extension), xfce4-notifyd under Xvfb (clicked with xdotool) and
/// mako on a headless sway (driven with makoctl).
@Suite("notify command against GNOME Shell, xfce4-notifyd and mako")
struct NotifyRealDesktopTests {
    @Test("xfce: -A yes=Yes -A no=No waits; a click on No prints no and exits 0")
    func xfceActions() async throws {
        try await XfceDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["-A", "yes=Yes", "-A", "no=No", "Question"], bus: desktop.testBus)
            let window = try #require(try await desktop.xfce.waitForWindows(count: 1).first, "\(notify.standardError)")
            #expect(notify.isRunning)
            let sent = [NotificationAction(key: "yes", label: "Yes"), NotificationAction(key: "no", label: "No")]
            try await desktop.xfce.clickButton(for: "no", among: sent, in: window)
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardOutput == "no\n")
            #expect(try await desktop.xfce.waitForWindows(count: 0).isEmpty)
        }
    }

    @Test("xfce: --wait ends with exit 0 when the person dismisses the notification")
    func xfceWait() async throws {
        try await XfceDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["--wait", "Wait for me"], bus: desktop.testBus)
            let window = try #require(try await desktop.xfce.waitForWindows(count: 1).first, "\(notify.standardError)")
            #expect(notify.isRunning)
            try await desktop.xfce.clickBody(of: window)
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
        }
    }

    @Test("GNOME: -A yes=Yes -A no=No waits; a click on No prints no and exits 0")
    func gnomeActions() async throws {
        try await GnomeDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["-A", "yes=Yes", "-A", "no=No", "Question"], bus: desktop.testBus)
            let shown = try #require(try await desktop.shell.waitForList(count: 1).first, "\(notify.standardError)")
            #expect(shown.actions == ["Yes", "No"])
            #expect(notify.isRunning)
            try await desktop.shell.invokeAction(id: shown.id, label: "No")
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardOutput == "no\n")
            #expect(try await desktop.shell.waitForList(count: 0).isEmpty)
        }
    }

    @Test("GNOME: --wait ends with exit 0 when the person dismisses the notification")
    func gnomeWait() async throws {
        try await GnomeDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["--wait", "Wait for me"], bus: desktop.testBus)
            let shown = try #require(try await desktop.shell.waitForList(count: 1).first, "\(notify.standardError)")
            #expect(notify.isRunning)
            try await desktop.shell.dismiss(id: shown.id)
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
        }
    }

    @Test("mako: -A yes=Yes -A no=No waits; makoctl invoke no prints no, exits 0, and notify closes it")
    func makoActions() async throws {
        try await MakoDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["-A", "yes=Yes", "-A", "no=No", "Question"], bus: desktop.testBus)
            let shown = try #require(try await desktop.mako.waitForList(count: 1).first, "\(notify.standardError)")
            #expect(shown.actions == ["yes": "Yes", "no": "No"])
            #expect(notify.isRunning)
            try await desktop.mako.invoke(id: shown.id, action: "no")
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardOutput == "no\n")
            // mako keeps a notification after an action; notify closes it, as notify-send does.
            #expect(try await desktop.mako.waitForList(count: 0).isEmpty)
        }
    }

    @Test("mako: --wait ends with exit 0 when the person dismisses the notification")
    func makoWait() async throws {
        try await MakoDesktop.run { desktop in
            let notify = try NotifyCommandTests.start(["--wait", "Wait for me"], bus: desktop.testBus)
            let shown = try #require(try await desktop.mako.waitForList(count: 1).first, "\(notify.standardError)")
            #expect(notify.isRunning)
            try await desktop.mako.dismiss(id: shown.id)
            let result = try await notify.result(timeout: .seconds(15))
            #expect(result.status == .exited(0), "\(result.standardError)")
        }
    }
}
