import Foundation

/// One notification in GNOME Shell's message tray, as the harness's extension lists it.
public struct GnomeNotification: Sendable, Hashable, Decodable {
    /// The id the client got from Notify.
    public var id: UInt32
    /// The title (summary).
    public var title: String
    /// The body as the banner shows it.
    public var body: String
    /// The title of its source: the app name sent with Notify, or the app's name.
    public var source: String
    /// The desktop id of the app GNOME matched it to, or empty.
    public var app: String
    /// The labels of its buttons, in order (`default` has none: it is the click on the body).
    public var actions: [String]

    /// Creates an entry, for example the one a test expects to find.
    public init(id: UInt32, title: String, body: String, source: String, app: String, actions: [String]) {
        self.id = id
        self.title = title
        self.body = body
        self.source = source
        self.app = app
        self.actions = actions
    }
}

/// One notification GNOME Shell shows for an app through `org.gtk.Notifications`, as the
/// harness's extension lists it.
public struct GnomeGtkNotification: Sendable, Hashable, Decodable {
    /// The id the app gave it.
    public var id: String
    /// The title.
    public var title: String
    /// The body as the banner shows it.
    public var body: String
    /// The labels of its buttons, in order.
    public var actions: [String]
    /// The type of its icon as the shell holds it (`GThemedIcon`, `GBytesIcon` …); empty for
    /// none.
    public var icon: String
    /// The size of a `GBytesIcon`'s bytes; 0 for another icon or none.
    public var iconBytes: Int

    /// Creates an entry, for example the one a test expects to find.
    public init(id: String, title: String, body: String, actions: [String], icon: String = "", iconBytes: Int = 0) {
        self.id = id
        self.title = title
        self.body = body
        self.actions = actions
        self.icon = icon
        self.iconBytes = iconBytes
    }
}

/// GNOME Shell 43, headless (`--headless --wayland --no-x11 --virtual-monitor 1280x800`),
/// serving notifications on a ``TestBus``, as the field notes record it running here.
///
/// It needs a system bus with logind: the harness starts a second private bus and
/// python-dbusmock's `logind` template on it. The shell's freedesktop notification service
/// (`org.gnome.Shell.Notifications`, a gjs program that owns `org.freedesktop.Notifications`
/// and forwards to the shell) is D-Bus-activated from the session bus's service directory,
/// which the session bus must have (``TestBus/init(withServiceDirectory:limits:socketPath:configurationText:startTimeout:)``).
/// The harness's extension (`GnomeShellExtension`, internal to this module), installed in a temporary home and
/// enabled through the keyfile GSettings backend, reads and clicks the message tray.
///
/// Everything is stopped by PID: the shell, the notification service (its PID asked of the
/// bus), logind and the system bus.
public final class GnomeShellServer: Sendable {
    /// The `gnome-shell` process.
    public let process: ChildProcess
    /// The private system bus the shell talks to.
    public let systemBus: TestBus
    /// python-dbusmock's logind on the system bus.
    public let logind: ChildProcess
    /// The session bus the shell serves on.
    public let bus: TestBus
    /// The PID of the activated `org.gnome.Shell.Notifications` service.
    public let notificationServicePID: Int32

    private let home: URL

    /// The shell's `XDG_DATA_HOME`: its `applications/` holds the desktop entries given to
    /// ``init(bus:applications:startTimeout:)``.
    public var dataHome: URL { home.appendingPathComponent(".local/share") }

    /// The PID of `gnome-shell`.
    public var pid: Int32 { process.pid }

    /// The notification service's program, as Debian's service file starts it.
    static let notificationService = "/usr/share/gnome-shell/org.gnome.Shell.Notifications"

    /// Starts logind on a private system bus, then the shell with the extension, and waits
    /// until the extension answers and `org.freedesktop.Notifications` is owned.
    /// `applications` are desktop entries (file name, contents) put in the shell's
    /// `applications/` folder before it starts, so that it knows those apps at once.
    ///
    /// - Throws: ``MissingToolError`` without gnome-shell, gjs or python3-dbusmock;
    ///   ``HarnessError`` when a part does not start (with the shell's output).
    public init(bus: TestBus, applications: [String: String] = [:], startTimeout: Duration = .seconds(90)) async throws {
        let shell = try ToolRequirement.require("gnome-shell")
        let gjs = try ToolRequirement.require("gjs")
        _ = try ToolRequirement.require("dbus-send")
        try ToolRequirement.requireDataFile(Self.notificationService, package: "gnome-shell")
        try await ToolRequirement.requirePythonModule("dbusmock", package: "python3-dbusmock")
        try bus.writeService(name: "org.gnome.Shell.Notifications", exec: "\(gjs.path) \(Self.notificationService)")
        let home = try HarnessTemporaryDirectory.make(prefix: "GnomeShellServer")
        var started: [ChildProcess] = []
        var systemBus: TestBus?
        do {
            let system = try await TestBus()
            systemBus = system
            // The logind template connects to the system bus: this private one.
            var systemEnvironment = system.environment
            systemEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = system.address
            let logind = try await system.startOwner(
                of: "org.freedesktop.login1", executable: ToolRequirement.require("/usr/bin/python3"),
                arguments: ["-m", "dbusmock", "--system", "--template", "logind"], environment: systemEnvironment, timeout: startTimeout)
            started.append(logind)
            var environment = try Self.prepareHome(home, bus: bus)
            let applicationsFolder = home.appendingPathComponent(".local/share/applications")
            try FileManager.default.createDirectory(at: applicationsFolder, withIntermediateDirectories: true)
            for (name, contents) in applications {
                try contents.write(to: applicationsFolder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = system.address
            let process = try await bus.startOwner(
                of: GnomeShellExtension.busName, executable: shell,
                arguments: ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800"],
                environment: environment, timeout: startTimeout)
            started.append(process)
            notificationServicePID = try await Self.activateNotifications(on: bus, shell: process, timeout: startTimeout)
            self.process = process
            self.logind = logind
            self.systemBus = system
            self.bus = bus
            self.home = home
        } catch {
            for process in started.reversed() { await process.kill() }
            await systemBus?.stop()
            try? FileManager.default.removeItem(at: home)
            throw error
        }
    }

    deinit {
        process.send(SIGKILL)
        logind.send(SIGKILL)
        kill(notificationServicePID, SIGKILL)
        try? FileManager.default.removeItem(at: home)
    }

    /// Writes the extension and its settings under `home` and returns the shell's environment.
    private static func prepareHome(_ home: URL, bus: TestBus) throws -> [String: String] {
        var environment = try HarnessLifecycle.homeEnvironment(home, from: bus.environment)
        environment["GSETTINGS_BACKEND"] = "keyfile"
        let extensionFolder = home.appendingPathComponent(".local/share/gnome-shell/extensions/\(GnomeShellExtension.uuid)")
        let settingsFolder = home.appendingPathComponent(".config/glib-2.0/settings")
        for folder in [extensionFolder, settingsFolder] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try GnomeShellExtension.metadata.write(to: extensionFolder.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
        try GnomeShellExtension.script.write(to: extensionFolder.appendingPathComponent("extension.js"), atomically: true, encoding: .utf8)
        try GnomeShellExtension.settings.write(to: settingsFolder.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
        return environment
    }

    /// Activates `org.gnome.Shell.Notifications` with a Ping and waits until it owns
    /// `org.freedesktop.Notifications`; returns its PID.
    private static func activateNotifications(on bus: TestBus, shell: ChildProcess, timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        let milliseconds = String(timeout.harnessNanoseconds / 1_000_000)
        try await bus.run("dbus-send", [
            "--session", "--print-reply", "--reply-timeout=\(milliseconds)", "--dest=org.gnome.Shell.Notifications",
            "/org/gnome/Shell/Notifications", "org.freedesktop.DBus.Peer.Ping",
        ], timeout: timeout).check()
        while true {
            if let owner = try await bus.ownerPID(of: "org.freedesktop.Notifications") { return owner }
            guard ContinuousClock.now < deadline, shell.isRunning else {
                throw HarnessError.startFailed(
                    program: "org.gnome.Shell.Notifications", reason: "it never owned org.freedesktop.Notifications",
                    log: shell.standardError)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the activated service by PID (the bus daemon, its parent, reaps it): `SIGTERM`,
    /// then `SIGKILL` if it still runs after `grace`.
    private static func stopService(_ pid: Int32, grace: Duration) async {
        guard kill(pid, SIGTERM) == 0 else { return }
        let deadline = ContinuousClock.now + grace
        while kill(pid, 0) == 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        kill(pid, SIGKILL)
    }

    /// Calls `method` of the harness's extension with `arguments` (`dbus-send` syntax).
    @discardableResult
    func callExtension(_ method: String, _ arguments: [String] = []) async throws -> CommandResult {
        try await bus.run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=\(GnomeShellExtension.busName)", GnomeShellExtension.objectPath,
            "\(GnomeShellExtension.busName).\(method)",
        ] + arguments).check()
    }

    /// The notifications in the message tray, in id order.
    public func list() async throws -> [GnomeNotification] {
        let output = try await callExtension("List").standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try JSONDecoder().decode([GnomeNotification].self, from: Data(output.utf8)).sorted { $0.id < $1.id }
        } catch {
            throw HarnessError.unexpectedOutput(command: "Harness.List", output: output, reason: "\(error)")
        }
    }

    /// Waits until the tray holds exactly `count` notifications.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` at the deadline.
    @discardableResult
    public func waitForList(count: Int, timeout: Duration = .seconds(15)) async throws -> [GnomeNotification] {
        var current: [GnomeNotification] = []
        return try await HarnessLifecycle.poll("waiting for GNOME Shell to hold \(count)", timeout: timeout, detail: { "\(current)" }) {
            current = try await list()
            return current.count == count ? current : nil
        }
    }

    /// Clicks the body of notification `id`: `default` when it has one (ActionInvoked), and
    /// closes it (reason 2) unless it is resident. Without a `default` action GNOME opens the
    /// app and closes every notification of that source.
    public func activate(id: UInt32) async throws {
        try await callExtension("Activate", ["uint32:\(id)"])
    }

    /// Clicks the button labelled `label` of notification `id`.
    public func invokeAction(id: UInt32, label: String) async throws {
        try await callExtension("InvokeAction", ["uint32:\(id)", "string:\(label)"])
    }

    /// The notifications the shell shows for `appID` through `org.gtk.Notifications`, by id.
    public func listGtk(appID: String) async throws -> [GnomeGtkNotification] {
        let output = try await callExtension("ListGtk", ["string:\(appID)"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try JSONDecoder().decode([GnomeGtkNotification].self, from: Data(output.utf8)).sorted { $0.id < $1.id }
        } catch {
            throw HarnessError.unexpectedOutput(command: "Harness.ListGtk", output: output, reason: "\(error)")
        }
    }

    /// Waits until the shell shows exactly `count` notifications for `appID` through
    /// `org.gtk.Notifications`, and `matching` holds for them.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` at the deadline.
    @discardableResult
    public func waitForGtkList(
        appID: String, count: Int, timeout: Duration = .seconds(15), matching: @Sendable ([GnomeGtkNotification]) -> Bool = { _ in true }
    ) async throws -> [GnomeGtkNotification] {
        var current: [GnomeGtkNotification] = []
        return try await HarnessLifecycle.poll(
            "waiting for GNOME Shell to show \(count) of \(appID)", timeout: timeout, detail: { "\(current)" }
        ) {
            current = try await listGtk(appID: appID)
            return current.count == count && matching(current) ? current : nil
        }
    }

    /// Clicks the body of `appID`'s notification `id` (`org.gtk.Notifications`): the shell
    /// activates its default action, and closes it.
    public func activateGtk(appID: String, id: String) async throws {
        try await callExtension("ActivateGtk", ["string:\(appID)", "string:\(id)"])
    }

    /// Clicks the button labelled `label` of `appID`'s notification `id`, which then closes.
    public func invokeGtkAction(appID: String, id: String, label: String) async throws {
        try await callExtension("InvokeGtkAction", ["string:\(appID)", "string:\(id)", "string:\(label)"])
    }

    /// Closes notification `id` as its close button does (reason 2).
    public func dismiss(id: UInt32) async throws {
        try await callExtension("Dismiss", ["uint32:\(id)"])
    }

    /// Stops the shell, the notification service, logind and the system bus (`SIGTERM`,
    /// then `SIGKILL` after `grace`), and removes the temporary home.
    public func stop(grace: Duration = .seconds(3)) async {
        await process.stop(grace: grace)
        await Self.stopService(notificationServicePID, grace: grace)
        await logind.stop(grace: grace)
        await systemBus.stop()
        try? FileManager.default.removeItem(at: home)
    }
}
