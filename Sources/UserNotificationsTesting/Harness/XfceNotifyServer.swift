import Foundation
public import FreedesktopNotifications

/// One notification window of xfce4-notifyd on the X display, as `xdotool` reports it.
public struct XfceNotificationWindow: Sendable, Hashable {
    /// The X window id; a later notification has a larger one.
    public var window: Int
    /// The left edge, in screen pixels.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a window description, for example one a test expects.
    public init(window: Int, x: Int, y: Int, width: Int, height: Int) {
        self.window = window
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// xfce4-notifyd under an ``XvfbDisplay``, on a ``TestBus``, with its settings daemon
/// (`xfconfd`) on the same bus, in a temporary home.
///
/// The harness writes xfce4-notifyd's settings (nothing expires, no fading) and a theme
/// whose buttons all measure ``buttonWidth`` by ``buttonHeight``, so that a test can click
/// them with `xdotool` by position: xfce4-notifyd draws a button for each action that has a
/// label, in action order, right-aligned, along the bottom of the window. The `default`
/// action is such a button too, and none when its label is empty; a click elsewhere on the
/// window dismisses it and invokes nothing.
public final class XfceNotifyServer: Sendable {
    /// The `xfce4-notifyd` process.
    public let process: ChildProcess
    /// The `xfconfd` process that serves its settings.
    public let settingsDaemon: ChildProcess
    /// The bus it serves on.
    public let bus: TestBus
    /// The display it draws on.
    public let display: XvfbDisplay

    private let processes: HarnessProcesses

    /// The PID of `xfce4-notifyd`.
    public var pid: Int32 { process.pid }

    /// The width of every button in the harness's theme, in pixels.
    public static let buttonWidth = 100
    /// The height of every button in the harness's theme.
    public static let buttonHeight = 40
    /// From one button's left edge to the next one's (the width plus xfce's spacing), as
    /// measured with the harness's theme on Debian 12 (xfce4-notifyd 0.7.3).
    static let buttonPitch = 115
    /// From the window's right and bottom edges to the button row (measured likewise).
    static let buttonInset = 18

    /// xfce4-notifyd's settings: the harness's theme, no expiry of its own, no fading.
    public static let settings = """
        <?xml version="1.0" encoding="UTF-8"?>
        <channel name="xfce4-notifyd" version="1.0">
          <property name="theme" type="string" value="Harness"/>
          <property name="expire-timeout" type="int" value="0"/>
          <property name="do-fadeout" type="bool" value="false"/>
          <property name="do-slideout" type="bool" value="false"/>
          <property name="initial-opacity" type="double" value="1.0"/>
          <property name="do-not-disturb" type="bool" value="false"/>
        </channel>

        """

    /// The theme: square windows, and buttons of one size whatever their label.
    public static let theme = """
        #XfceNotifyWindow { border-radius: 0; border-width: 0; }
        #XfceNotifyWindow button { min-width: \(buttonWidth)px; min-height: \(buttonHeight)px; padding: 0; margin: 0; border-width: 0; }

        """

    /// Writes the settings and theme into a temporary home, starts `xfconfd` and then
    /// `xfce4-notifyd` on `display` and `bus`, and waits until it owns
    /// `org.freedesktop.Notifications`.
    ///
    /// - Throws: ``MissingToolError`` without xfce4-notifyd, xfconf or xdotool;
    ///   ``HarnessError/startFailed(program:reason:log:)`` or
    ///   ``HarnessError/timedOut(operation:after:detail:)`` when either does not start.
    public init(bus: TestBus, display: XvfbDisplay, startTimeout: Duration = .seconds(30)) async throws {
        let notifyd = try ToolRequirement.requireLibraryProgram("xfce4/notifyd/xfce4-notifyd")
        let xfconfd = try ToolRequirement.requireLibraryProgram("xfce4/xfconf/xfconfd")
        _ = try ToolRequirement.require("xdotool")
        let processes = try HarnessProcesses(prefix: "XfceNotifyServer")
        let home = processes.folder
        do {
            let environment = try Self.prepareHome(home, bus: bus, display: display)
            settingsDaemon = processes.adopt(try await bus.startOwner(
                of: "org.xfce.Xfconf", executable: xfconfd, environment: environment, timeout: startTimeout))
            process = processes.adopt(try await bus.startOwner(
                of: "org.freedesktop.Notifications", executable: notifyd, environment: environment, timeout: startTimeout))
            self.bus = bus
            self.display = display
            self.processes = processes
        } catch {
            await processes.stop()
            throw error
        }
    }

    /// Writes the settings and the theme under `home` and returns the environment both
    /// programs run with.
    private static func prepareHome(_ home: URL, bus: TestBus, display: XvfbDisplay) throws -> [String: String] {
        var environment = try HarnessLifecycle.homeEnvironment(home, from: bus.environment)
        environment["DISPLAY"] = display.display
        environment["GDK_BACKEND"] = "x11"
        environment["GTK_THEME"] = "Adwaita"
        let channels = home.appendingPathComponent(".config/xfce4/xfconf/xfce-perchannel-xml")
        let themeFolder = home.appendingPathComponent(".local/share/themes/Harness/xfce-notify-4.0")
        for folder in [channels, themeFolder] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try settings.write(to: channels.appendingPathComponent("xfce4-notifyd.xml"), atomically: true, encoding: .utf8)
        try theme.write(to: themeFolder.appendingPathComponent("gtk.css"), atomically: true, encoding: .utf8)
        return environment
    }

    /// Runs `xdotool` with `arguments` on this server's display.
    @discardableResult
    public func xdotool(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> CommandResult {
        try await bus.run("xdotool", arguments, environment: ["DISPLAY": display.display], timeout: timeout)
    }

    /// The notification windows on screen, oldest first.
    public func windows() async throws -> [XfceNotificationWindow] {
        var search = try await xdotool(["search", "--onlyvisible", "--classname", "xfce4-notifyd"])
        // A window that closes while xdotool looks at it fails the search with BadWindow: look again.
        for _ in 0..<5 where !search.succeeded && search.standardError.contains("BadWindow") {
            search = try await xdotool(["search", "--onlyvisible", "--classname", "xfce4-notifyd"])
        }
        // xdotool exits 1 when it finds nothing.
        guard search.succeeded else {
            guard search.standardOutput.isEmpty, search.standardError.isEmpty else { throw HarnessError.commandFailed(search) }
            return []
        }
        var windows: [XfceNotificationWindow] = []
        for id in search.standardOutput.split(separator: "\n").compactMap({ Int($0) }).sorted() {
            let shell = try await xdotool(["getwindowgeometry", "--shell", String(id)])
            // A window that closed since the search has no geometry any more.
            guard shell.succeeded else { continue }
            windows.append(try Self.window(id, geometry: shell.standardOutput))
        }
        return windows
    }

    /// Parses `xdotool getwindowgeometry --shell` (`X=`, `Y=`, `WIDTH=`, `HEIGHT=` lines).
    ///
    /// - Throws: ``HarnessError/unexpectedOutput(command:output:reason:)`` when one is missing.
    public static func window(_ id: Int, geometry: String) throws -> XfceNotificationWindow {
        var values: [String: Int] = [:]
        for line in geometry.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"] else {
            throw HarnessError.unexpectedOutput(command: "xdotool getwindowgeometry --shell \(id)", output: geometry, reason: "no geometry")
        }
        return XfceNotificationWindow(window: id, x: x, y: y, width: width, height: height)
    }

    /// Waits until exactly `count` notification windows are on screen and keep their size
    /// for 100 ms (xfce4-notifyd maps a window, then sizes it).
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` at the deadline.
    @discardableResult
    public func waitForWindows(count: Int, timeout: Duration = .seconds(15)) async throws -> [XfceNotificationWindow] {
        let deadline = ContinuousClock.now + timeout
        var previous: [XfceNotificationWindow]?
        while true {
            let current = try await windows()
            if current.count == count, current == previous { return current }
            previous = current
            guard ContinuousClock.now < deadline else {
                throw HarnessError.timedOut(
                    operation: "waiting for \(count) xfce4-notifyd windows", after: timeout, detail: "on screen: \(current)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Clicks the screen at (`x`, `y`) with the first mouse button.
    public func click(x: Int, y: Int) async throws {
        try await xdotool(["mousemove", "--sync", String(x), String(y), "click", "1"]).check()
    }

    /// Clicks `window` away from its buttons: xfce4-notifyd closes it (reason 2, dismissed)
    /// and invokes no action.
    public func clickBody(of window: XfceNotificationWindow) async throws {
        try await click(x: window.x + 20, y: window.y + 20)
    }

    /// Clicks the button of action `key` in `window`, which shows `actions` (as sent with
    /// Notify): one button for each action with a label.
    ///
    /// - Throws: ``HarnessError/unexpectedOutput(command:output:reason:)`` when `key` has no button.
    public func clickButton(for key: String, among actions: [NotificationAction], in window: XfceNotificationWindow) async throws {
        let buttons = actions.filter { !$0.label.isEmpty }.map(\.key)
        guard let index = buttons.firstIndex(of: key) else {
            throw HarnessError.unexpectedOutput(command: "clickButton", output: "\(key) among \(buttons)", reason: "no such button")
        }
        let fromRight = buttons.count - 1 - index
        let x = window.x + window.width - Self.buttonInset - Self.buttonWidth / 2 - fromRight * Self.buttonPitch
        let y = window.y + window.height - Self.buttonInset - Self.buttonHeight / 2
        try await click(x: x, y: y)
    }

    /// Stops xfce4-notifyd and xfconfd (`SIGTERM`, then `SIGKILL` after `grace`) and
    /// removes the temporary home.
    public func stop(grace: Duration = .seconds(2)) async {
        await processes.stop(grace: grace)
    }
}
