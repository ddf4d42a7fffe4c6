import DBus
import DesktopNotificationsSupport
import Logging
import UserNotifications

/// Launches an app to hand it a notification response while it is not running, as Apple's
/// system launches an app when a person taps one of its notifications.
///
/// The app's desktop entry decides how: with `DBusActivatable=true` the launcher calls
/// `org.freedesktop.Application.ActivateAction(action, [parameter], platform_data)` on the
/// app id's bus name, which the bus starts from its service file when needed; otherwise it
/// starts the entry's `Exec` (field codes expanded with no files or URLs) as a detached process.
/// An activation token from the click reaches the app either way: as `activation-token` and
/// `desktop-startup-id` in `platform_data`, or as `XDG_ACTIVATION_TOKEN` and
/// `DESKTOP_STARTUP_ID` in the environment.
///
/// ## The action
///
/// The agent calls action ``notificationResponseAction`` (`notification-response`) with the
/// response as its parameter. `ActivateAction` names an action of the app's action group
/// without GLib's `app.` prefix: GLib's notification backends post buttons as detailed
/// `app.NAME` actions and GNOME Shell strips `app.` before it calls `ActivateAction(NAME, [target],
/// platform_data)`, so a GApplication that adds a `notification-response` action to itself
/// (GTK: `app.notification-response`) receives what the agent sends.
///
/// Logged (`SubsystemLog.agent`): the app id, the way it was launched, the program and its
/// PID. Never the action's parameter, which carries what the person answered.
package struct ApplicationLauncher: Sendable {
    /// The action name the agent uses for a notification response.
    package static let notificationResponseAction = ApplicationInterface.notificationResponseAction

    /// Where desktop entries are looked up.
    package let directories: XDGDataDirectories
    /// The environment a spawned app gets (the token variables are set or removed per launch),
    /// whose `PATH` finds a program named without a path.
    package let environment: [String: String]
    /// The session bus, for `ActivateAction`.
    package let connection: DBusConnection
    /// The deadline of an `ActivateAction` call, starting the app included (dbus-daemon's own
    /// activation timeout is 25 s).
    package let timeout: Duration

    /// Creates a launcher.
    ///
    /// - Parameters:
    ///   - environment: The environment of launched apps; its `XDG_DATA_HOME`,
    ///     `XDG_DATA_DIRS` and `HOME` also choose where desktop entries are looked up.
    ///   - connection: The session bus connection that calls `ActivateAction`.
    ///   - timeout: The deadline of each `ActivateAction` call.
    package init(environment: [String: String], connection: DBusConnection, timeout: Duration = .seconds(25)) {
        self.directories = XDGDataDirectories(environment: environment)
        self.environment = environment
        self.connection = connection
        self.timeout = timeout
    }

    /// Launches `appID` for `action` with `parameter`.
    ///
    /// - Parameters:
    ///   - action: The action to activate (D-Bus activation only; an Exec launch cannot carry
    ///     it, and the app takes the queued response from the agent when it starts).
    ///   - parameter: The action's parameter, or `nil` for none.
    ///   - activationToken: The token from the notification server's `ActivationToken`
    ///     signal, which lets the app take focus.
    /// - Throws: ``ApplicationLaunchError``.
    @discardableResult
    package func launch(
        appID: String, action: String, parameter: DBusValue?, activationToken: String?
    ) async throws(ApplicationLaunchError) -> ApplicationLaunch {
        let located = try directories.desktopEntry(for: appID)
        let entry = located.entry
        guard entry.type == "Application" else { throw .notAnApplication(path: located.path, type: entry.type) }
        if entry.isDBusActivatable {
            try await activate(appID: appID, action: action, parameter: parameter, activationToken: activationToken)
            SubsystemLog.agent.logger.info("launched by ActivateAction", metadata: ["app": "\(appID)", "action": "\(action)"])
            return .activated(busName: appID)
        }
        let (pid, arguments) = try spawn(located, activationToken: activationToken)
        SubsystemLog.agent.logger.info(
            "launched by Exec", metadata: ["app": "\(appID)", "program": "\(arguments.first ?? "")", "pid": "\(pid)"])
        return .spawned(pid: pid, arguments: arguments)
    }
}
