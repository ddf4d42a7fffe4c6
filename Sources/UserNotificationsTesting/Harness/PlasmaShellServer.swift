import Foundation

/// KDE Plasma 5's notification server (plasmashell's notifications applet), headless: KWin
/// with a virtual framebuffer (`kwin_wayland --virtual`), the activity manager plasmashell
/// refuses to start without, then `plasmashell`, on a ``TestBus`` in a temporary home.
///
/// Debian installs `kwin_wayland` with the file capability `cap_sys_resource`; where that
/// capability is outside the bounding set (a container), executing it fails with `EPERM`,
/// so the harness runs a copy of the program, which carries no capability.
///
/// Plasma has no tool or interface that clicks its notifications. With `accessible: true`
/// the harness also runs an accessibility bus (`at-spi-bus-launcher`) and plasmashell with
/// Qt's accessibility on, so ``PlasmaPopupDriver`` can press the popup's buttons and type
/// into its reply field over AT-SPI, as a screen reader would.
public final class PlasmaShellServer: Sendable {
    /// `plasmashell`.
    public let process: ChildProcess
    /// `kwin_wayland`, the compositor plasmashell draws on.
    public let compositor: ChildProcess
    /// `kactivitymanagerd`.
    public let activityManager: ChildProcess
    /// The bus it serves on.
    public let bus: TestBus

    private let processes: HarnessProcesses

    /// The PID of `plasmashell`.
    public var pid: Int32 { process.pid }

    /// Starts the three in order and waits until plasmashell owns
    /// `org.freedesktop.Notifications`.
    ///
    /// - Parameters:
    ///   - bus: the bus plasmashell serves on.
    ///   - startTimeout: how long each part may take to start.
    ///   - accessible: also start an accessibility bus on `bus` and expose plasmashell's
    ///     controls over AT-SPI (for ``PlasmaPopupDriver``).
    /// - Throws: ``MissingToolError`` without kwin-wayland, plasma-workspace, plasma-desktop,
    ///   kactivitymanagerd or qtwayland5 (and at-spi2-core when `accessible`);
    ///   ``HarnessError`` when a part does not start.
    public init(bus: TestBus, startTimeout: Duration = .seconds(90), accessible: Bool = false) async throws {
        let kwin = try ToolRequirement.require("kwin_wayland")
        let plasmashell = try ToolRequirement.require("plasmashell")
        let activityManager = try ToolRequirement.requireLibraryProgram("libexec/kactivitymanagerd")
        try ToolRequirement.requireDataFile("/usr/share/plasma/shells/org.kde.plasma.desktop", package: "plasma-desktop")
        let accessibilityBus = accessible ? try ToolRequirement.requireLibraryProgram("at-spi-bus-launcher") : nil
        let processes = try HarnessProcesses(prefix: "PlasmaShellServer")
        let home = processes.folder
        do {
            let kwinCopy = home.appendingPathComponent("kwin_wayland")
            try await BuiltProduct.copyExecutable(kwin, to: kwinCopy)
            var environment = try HarnessLifecycle.homeEnvironment(home, from: bus.environment)
            environment["XDG_SESSION_TYPE"] = "wayland"
            environment["QT_QPA_PLATFORM"] = "wayland"
            // The gallery captures KWin's output through org.kde.KWin.ScreenShot2, which
            // otherwise answers only programs whose desktop entries ask for it.
            environment["KWIN_SCREENSHOT_NO_PERMISSION_CHECKS"] = "1"
            if let accessibilityBus {
                environment["QT_ACCESSIBILITY"] = "1"
                environment["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
                // It owns org.a11y.Bus on `bus` and starts its own dbus-daemon and registry,
                // which it stops when it is stopped.
                _ = processes.adopt(try await bus.startOwner(
                    of: "org.a11y.Bus", executable: accessibilityBus, arguments: ["--launch-immediately"],
                    environment: environment, timeout: startTimeout))
            }
            let compositor = processes.adopt(try ChildProcess(
                executable: kwinCopy,
                arguments: ["--virtual", "--no-lockscreen", "--socket", "wayland-plasma", "--width", "1280", "--height", "800"],
                environment: environment))
            let runtime = home.appendingPathComponent("run").path
            _ = try await HarnessLifecycle.poll("waiting for kwin_wayland's socket", timeout: startTimeout, detail: { compositor.standardError }) {
                guard compositor.isRunning else {
                    throw HarnessError.startFailed(program: "kwin_wayland", reason: "it exited", log: compositor.standardError)
                }
                return FileManager.default.fileExists(atPath: runtime + "/wayland-plasma") ? true : nil
            }
            environment["WAYLAND_DISPLAY"] = "wayland-plasma"
            self.activityManager = processes.adopt(try await bus.startOwner(
                of: "org.kde.ActivityManager", executable: activityManager, environment: environment, timeout: startTimeout))
            process = processes.adopt(try await bus.startOwner(
                of: "org.freedesktop.Notifications", executable: plasmashell, arguments: ["--no-respawn"],
                environment: environment, timeout: startTimeout))
            self.compositor = compositor
            self.bus = bus
            self.processes = processes
        } catch {
            await processes.stop()
            throw error
        }
    }

    /// Stops plasmashell, the activity manager and KWin (`SIGTERM`, then `SIGKILL` after
    /// `grace`) and removes the temporary home.
    public func stop(grace: Duration = .seconds(3)) async {
        await processes.stop(grace: grace)
    }
}

/// A private bus and Plasma's notification server on it; stopped by PID in reverse order.
public struct PlasmaDesktop: Sendable {
    public let testBus: TestBus
    public let plasma: PlasmaShellServer

    /// Starts the two, runs `body`, and stops them whether `body` throws or not.
    ///
    /// - Parameters:
    ///   - accessible: see ``PlasmaShellServer/init(bus:startTimeout:accessible:)``.
    ///   - body: what runs while Plasma serves.
    public static func run(accessible: Bool = false, _ body: (PlasmaDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus()
        let plasma = try await HarnessLifecycle.start(
            { try await PlasmaShellServer(bus: testBus, accessible: accessible) }, cleanUp: { await testBus.stop() })
        try await HarnessLifecycle.run(PlasmaDesktop(testBus: testBus, plasma: plasma), body) { await $0.stop() }
    }

    /// Stops Plasma and the bus.
    public func stop() async {
        await plasma.stop()
        await testBus.stop()
    }
}
