import DBus
import DesktopNotificationsSupport
import Foundation
import Testing
@testable import NotificationAgent
import UserNotificationsTesting

@Suite("ApplicationLauncher: org.freedesktop.Application.ActivateAction for DBusActivatable entries")
struct ApplicationLauncherActivationTests {
    private static let entry = "[Desktop Entry]\nType=Application\nName=Target\nDBusActivatable=true\nExec=/bin/false\n"

    /// Owns `appID` on the fixture's bus and records the `org.freedesktop.Application` calls
    /// at the app id's object path.
    private static func runningApp(_ appID: String, path: String, on fixture: LaunchFixture) async throws -> (DBusConnection, Locked<[DBusMessage]>) {
        let app = try await DBusConnection.connect(to: .address(fixture.bus.address))
        let calls = Locked<[DBusMessage]>([])
        let interface = try DBusExportedInterface(
            name: "org.freedesktop.Application",
            introspectionXML: #"<interface name="org.freedesktop.Application"/>"#
        ) { invocation in
            calls.withLock { $0.append(invocation.message) }
            invocation.reply()
        }
        app.export(DBusExportedObject(path: try DBusObjectPath(path), interfaces: [interface]))
        #expect(try await app.requestName(appID) == .primaryOwner)
        return (app, calls)
    }

    @Test("calls ActivateAction at the id's path (. to /, - to _) with the action, parameter and tokens")
    func callsRunningApp() async throws {
        let fixture = try await LaunchFixture()
        try fixture.writeEntry("org.example.Launch-Target", Self.entry)
        let (app, calls) = try await Self.runningApp("org.example.Launch-Target", path: "/org/example/Launch_Target", on: fixture)
        let launch = try await fixture.launcher().launch(
            appID: "org.example.Launch-Target", action: ApplicationLauncher.notificationResponseAction,
            parameter: .structure([.string("reminder-7"), .string("snooze")]), activationToken: "token-9")
        #expect(launch == .activated(busName: "org.example.Launch-Target"))

        let call = try #require(calls.withLock { $0 }.first)
        #expect(call.interface == "org.freedesktop.Application")
        #expect(call.member == "ActivateAction")
        #expect(call.path?.rawValue == "/org/example/Launch_Target")
        #expect(call.bodySignature == "sava{sv}")
        #expect(call.body[0] == .string("notification-response"))
        #expect(call.body[1] == .array(element: .variant, [.variant(.structure([.string("reminder-7"), .string("snooze")]))]))
        #expect(call.body[2].variantDictionaryValue == [
            "activation-token": .string("token-9"), "desktop-startup-id": .string("token-9"),
        ])
        await app.close()
    }

    @Test("no parameter and no token: an empty av and an empty a{sv}")
    func callsWithoutParameterOrToken() async throws {
        let fixture = try await LaunchFixture()
        try fixture.writeEntry("org.example.Plain", Self.entry)
        let (app, calls) = try await Self.runningApp("org.example.Plain", path: "/org/example/Plain", on: fixture)
        try await fixture.launcher().launch(appID: "org.example.Plain", action: "open", parameter: nil, activationToken: nil)
        let call = try #require(calls.withLock { $0 }.first)
        #expect(call.body == [.string("open"), .array(element: .variant, []), .variantDictionary([])])
        await app.close()
    }

    @Test("an app neither running nor activatable is a D-Bus error naming the app")
    func notRunningNotActivatable() async throws {
        let fixture = try await LaunchFixture()
        try fixture.writeEntry("org.example.Absent", Self.entry)
        let error = await #expect(throws: ApplicationLaunchError.self) {
            try await fixture.launcher().launch(appID: "org.example.Absent", action: "open", parameter: nil, activationToken: nil)
        }
        guard case .dbus(let appID, let dbusError) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(appID == "org.example.Absent")
        #expect(dbusError.remoteName == "org.freedesktop.DBus.Error.ServiceUnknown")
    }

    @Test("an app that is not running is started by the bus from its service file and gets the call")
    func activatesFromServiceFile() async throws {
        try await ToolRequirement.requirePythonModule("dbus.mainloop.glib", package: "python3-dbus")
        try await ToolRequirement.requirePythonModule("gi.repository.GLib", package: "python3-gi")
        let fixture = try await LaunchFixture(withServiceDirectory: true)
        try fixture.writeEntry("org.example.Activated", Self.entry)
        let marker = "\(fixture.folder.path)/activated"
        let script = try fixture.folder.write(Self.recordingApp, to: "app.py")
        try fixture.bus.writeService(name: "org.example.Activated", exec: "/usr/bin/python3 \(script) \(marker)")
        #expect(try await fixture.bus.ownerPID(of: "org.example.Activated") == nil)

        let launch = try await fixture.launcher().launch(
            appID: "org.example.Activated", action: ApplicationLauncher.notificationResponseAction,
            parameter: .string("answer"), activationToken: "token-3")
        #expect(launch == .activated(busName: "org.example.Activated"))
        #expect(try await fixture.waitForLines(marker) == [
            "notification-response", "answer", "activation-token=token-3|desktop-startup-id=token-3", "",
        ])
        #expect(try await fixture.bus.ownerPID(of: "org.example.Activated") != nil)
        await fixture.bus.stop()
    }

    /// A D-Bus-activatable app in dbus-python: owns org.example.Activated on the bus that
    /// started it and writes each ActivateAction call to the marker file named by argv[1].
    private static let recordingApp = """
        import os, sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        marker = sys.argv[1]

        class Application(dbus.service.Object):
            @dbus.service.method("org.freedesktop.Application", in_signature="sava{sv}", out_signature="")
            def ActivateAction(self, name, parameter, platform_data):
                with open(marker + ".tmp", "w") as out:
                    out.write(str(name) + "\\n")
                    out.write("|".join(str(value) for value in parameter) + "\\n")
                    out.write("|".join("%s=%s" % (key, platform_data[key]) for key in sorted(platform_data)) + "\\n")
                os.rename(marker + ".tmp", marker)

        bus = dbus.StarterBus()
        Application(bus, "/org/example/Activated")
        name = dbus.service.BusName("org.example.Activated", bus)
        loop = GLib.MainLoop()
        GLib.timeout_add_seconds(60, loop.quit)
        loop.run()
        """
}
