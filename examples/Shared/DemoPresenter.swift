import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import UserNotifications

/// Chooses where the examples' notifications go: the desktop's notification server when
/// the session bus has one, else a terminal presenter on a private bus this process starts.
///
/// Everything it uses ships with the library (the private bus's configuration is compiled
/// in), so an example runs the same from a source checkout and as an installed program.
public enum DemoPresenter {
    /// How long an example waits for an answer (`DEMO_TIMEOUT` seconds, default 120).
    public static let timeoutSeconds = Int(ProcessInfo.processInfo.environment["DEMO_TIMEOUT"] ?? "") ?? 120

    /// The private bus, its connection and the presenter, kept for the life of the process.
    private static let kept = Locked<[AnyObject]>([])

    /// Exits with `status`. The private bus that ``prepare(appID:name:)`` may have started
    /// is stopped by its guard, by PID, once this process is gone, however it ends (Control-C
    /// and crashes too), so the center never sees its server leave before the example ends.
    public static func exit(_ status: Int32) async -> Never {
        Foundation.exit(status)
    }

    /// Configures `UNUserNotificationCenter.current()`; `true` when the terminal is used.
    public static func prepare(appID: String, name: String) async throws -> Bool {
        let identity = ApplicationIdentity(id: appID, displayName: name, icon: "dialog-information")
        if ProcessInfo.processInfo.environment["DEMO_TERMINAL"] == nil,
           (try? await NotificationsClient(bus: .session, callTimeout: .seconds(2)).isServerAvailable()) == true {
            UNUserNotificationCenter.configure(identity: identity, bus: .session, persistent: false)
            return false
        }
        print("No notification server on the session bus: showing notifications in this terminal.")
        let privateBus = try PrivateBus()
        let connection = try await DBusConnection.connect(to: .address(privateBus.address))
        let server = try await TerminalPresenter().start(on: connection)
        kept.withLock { $0 += [privateBus, connection, server] }
        UNUserNotificationCenter.configure(identity: identity, bus: .address(privateBus.address), persistent: false)
        return true
    }
}
