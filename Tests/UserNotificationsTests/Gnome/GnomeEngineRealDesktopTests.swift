import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// The GNOME engine against headless GNOME Shell 43 (its own `org.gtk.Notifications`), read
/// and clicked through the harness's extension; in the Makefile's `REAL_DESKTOPS`.
@Suite("GNOME engine against headless GNOME Shell 43: org.gtk.Notifications and a relaunch by D-Bus activation")
struct GnomeEngineRealDesktopTests {
    /// An app whose desktop entry the shell knows, for the center of the test process.
    static let postingApp = "org.example.GnomeEngineRealDesktop"
    /// The D-Bus activatable test app that posts and exits.
    static let activatableApp = "org.example.GnomeActivatableTestApp"

    static let postingEntry = "[Desktop Entry]\nType=Application\nName=GNOME Engine Real Desktop\nExec=/bin/true\n"

    func center(_ desktop: GnomeDesktop, id: String) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: ApplicationIdentity(id: id, displayName: "GNOME Engine Real Desktop"), bus: .address(desktop.testBus.address),
            persistent: false, engine: .gnome)
    }

    func post(_ center: UNUserNotificationCenter, _ identifier: String, title: String) async throws {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "Body of \(identifier)"
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
    }

    @Test("post, update in place by identifier, withdraw; an app without a desktop entry gets InvalidApp as a typed error")
    func postUpdateWithdraw() async throws {
        try await GnomeDesktop.run(applications: ["\(Self.postingApp).desktop": Self.postingEntry]) { desktop in
            let shell = desktop.shell
            let center = center(desktop, id: Self.postingApp)
            #expect(await center.engineKind == .gnome)
            try await post(center, "a", title: "First")
            try await shell.waitForGtkList(appID: Self.postingApp, count: 1) { $0.first?.title == "First" }
            try await post(center, "a", title: "Second")
            try await post(center, "b", title: "Other")
            let shown = try await shell.waitForGtkList(appID: Self.postingApp, count: 2) { $0.first?.title == "Second" }
            #expect(shown == [
                GnomeGtkNotification(id: "a", title: "Second", body: "Body of a", actions: []),
                GnomeGtkNotification(id: "b", title: "Other", body: "Body of b", actions: []),
            ])
            center.removeDeliveredNotifications(withIdentifiers: ["a"])
            #expect(try await shell.waitForGtkList(appID: Self.postingApp, count: 1).map(\.id) == ["b"])
            #expect(await center.deliveredNotifications().map(\.request.identifier) == ["b"])

            let unknown = self.center(desktop, id: "org.example.NoDesktopEntry")
            await #expect(throws: GtkNotificationsError.applicationNotFound(appID: "org.example.NoDesktopEntry")) {
                try await post(unknown, "x", title: "Nobody")
            }
        }
    }

    @Test("an image attachment is the notification's icon in GNOME Shell: a GBytesIcon of the file's bytes")
    func imageIcon() async throws {
        try await GnomeDesktop.run(applications: ["\(Self.postingApp).desktop": Self.postingEntry]) { desktop in
            let directory = try TemporaryDirectory()
            let image = directory.url.appendingPathComponent("square.png")
            try PNGFile.write(to: image, width: 16, height: 16) { x, y in [UInt8(16 * x), UInt8(16 * y), 128] }
            let size = try Data(contentsOf: image).count
            let center = center(desktop, id: Self.postingApp)
            let content = UNMutableNotificationContent()
            content.title = "Picture"
            content.attachments = [try UNNotificationAttachment(identifier: "square", url: image)]
            try await center.add(UNNotificationRequest(identifier: "picture", content: content, trigger: nil))
            try await post(center, "plain", title: "Plain")
            let shown = try await desktop.shell.waitForGtkList(appID: Self.postingApp, count: 2)
            #expect(shown.first { $0.id == "picture" }.map { [$0.icon, "\($0.iconBytes)"] } == ["GBytesIcon", "\(size)"])
            #expect(shown.first { $0.id == "plain" }.map(\.icon) == "", "an app without an icon name sends none")
        }
    }

    @Test("an app posts with app.* actions and exits; a click in GNOME Shell relaunches it by D-Bus activation and its delegate gets the response once")
    func relaunch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gnome-relaunch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("responses.txt").path
        let launches = folder.appendingPathComponent("launches.txt").path
        let program = folder.appendingPathComponent("activatable-app.sh")
        let filesHome = folder.appendingPathComponent("files").path

        // The desktop entry and service file, as the documented helper writes them (for a
        // program that exists: the script is filled in once the shell's folders are known).
        try "#!/bin/sh\nexit 1\n".write(to: program, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: program.path)
        let notify = try BuiltProduct.url(named: "notify").path
        let filesBus = try await TestBus()
        let files = try await filesBus.run(
            notify, ["app-files", "--id", Self.activatableApp, "--exec", program.path, "--name", "GNOME Activatable Test App", "--dbus-activatable"],
            environment: ["XDG_DATA_HOME": filesHome])
        await filesBus.stop()
        try #require(files.status == .exited(0), "\(files.standardError)")
        let entry = try String(contentsOfFile: "\(filesHome)/applications/\(Self.activatableApp).desktop", encoding: .utf8)
        #expect(entry.contains("DBusActivatable=true"))

        try await GnomeDesktop.run(applications: ["\(Self.activatableApp).desktop": entry]) { desktop in
            let shell = desktop.shell
            let service = try #require(desktop.testBus.serviceDirectory).appendingPathComponent("\(Self.activatableApp).service")
            try FileManager.default.copyItem(atPath: "\(filesHome)/dbus-1/services/\(Self.activatableApp).service", toPath: service.path)
            let connection = try await DBusConnection.connect(to: desktop.testBus.bus)
            _ = try await connection.callBus("ReloadConfig")

            // The app finds its engine itself: GNOME owns org.gtk.Notifications, its desktop
            // entry says DBusActivatable=true, and no agent is reachable.
            let app = try BuiltProduct.url(named: "agent-test-app").path
            let environment = [
                "XDG_DATA_HOME": shell.dataHome.path, "XDG_DATA_DIRS": "/nonexistent", "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            ]
            try """
                #!/bin/sh
                echo "started${DBUS_STARTER_ADDRESS:+ by the bus}" >> '\(launches)'
                XDG_DATA_HOME='\(shell.dataHome.path)' XDG_DATA_DIRS=/nonexistent XDG_STATE_HOME='\(folder.path)/state' \\
                  exec '\(app)' --app-id \(Self.activatableApp) --record '\(record)' --serve-application --wait 40

                """.write(to: program, atomically: true, encoding: .utf8)
            try await BuiltProduct.makeExecutable(atPath: program.path)

            let posted = try await desktop.testBus.run(
                app, ["--app-id", Self.activatableApp, "--record", record, "--post", "ask"], environment: environment, timeout: .seconds(30))
            #expect(posted.standardOutput.contains("engine gnome") && posted.standardOutput.contains("posted"), "\(posted.standardOutput) \(posted.standardError)")
            #expect(try await connection.nameOwner(of: Self.activatableApp) == nil)
            let shown = try await shell.waitForGtkList(appID: Self.activatableApp, count: 1)
            #expect(shown == [GnomeGtkNotification(id: "ask", title: "Agent test", body: "Choose", actions: ["Yes", "No"])])

            try await shell.invokeGtkAction(appID: Self.activatableApp, id: "ask", label: "Yes")
            #expect(await eventually(timeout: .seconds(30)) { lines(record) == ["ask yes"] }, "\(lines(record))")
            #expect(lines(launches) == ["started by the bus"])
            #expect(try await shell.waitForGtkList(appID: Self.activatableApp, count: 0).isEmpty)
            // Once: nothing more arrives while the relaunched app still runs.
            try await Task.sleep(for: .seconds(1))
            #expect(lines(record) == ["ask yes"])

            // A click on the body of another notification reaches the running app as the
            // default action; the bus starts nothing.
            let again = try await desktop.testBus.run(
                app, ["--app-id", Self.activatableApp, "--record", record, "--post", "next"], environment: environment, timeout: .seconds(30))
            #expect(again.standardOutput.contains("posted"))
            try await shell.waitForGtkList(appID: Self.activatableApp, count: 1)
            try await shell.activateGtk(appID: Self.activatableApp, id: "next")
            #expect(await eventually(timeout: .seconds(30)) { lines(record).count == 2 }, "\(lines(record))")
            #expect(lines(record) == ["ask yes", "next \(UNNotificationDefaultActionIdentifier)"])
            #expect(lines(launches) == ["started by the bus"])
            if let relaunched = try await desktop.testBus.ownerPID(of: Self.activatableApp) {
                #expect(kill(relaunched, SIGTERM) == 0)
                #expect(await eventually { (try? await connection.nameOwner(of: Self.activatableApp)) == .some(nil) })
            }
            await connection.close()
        }
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
