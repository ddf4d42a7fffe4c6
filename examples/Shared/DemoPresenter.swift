import DBus
import Foundation
import FreedesktopNotifications
import UserNotifications
import UserNotificationsTesting

/// Chooses where the examples' notifications go: the desktop's notification server when
/// the session bus has one, else a terminal presenter on a private bus this process starts.
public enum DemoPresenter {
    /// How long an example waits for an answer (`DEMO_TIMEOUT` seconds, default 120).
    public static let timeoutSeconds = Int(ProcessInfo.processInfo.environment["DEMO_TIMEOUT"] ?? "") ?? 120

    private static let kept = KeptAlive()

    /// Configures `UNUserNotificationCenter.current()`; `true` when the terminal is used.
    public static func prepare(appID: String, name: String) async throws -> Bool {
        let identity = ApplicationIdentity(id: appID, displayName: name, icon: "dialog-information")
        if ProcessInfo.processInfo.environment["DEMO_TERMINAL"] == nil,
           (try? await NotificationsClient(bus: .session, callTimeout: .seconds(2)).isServerAvailable()) == true {
            UNUserNotificationCenter.configure(identity: identity, bus: .session, persistent: false)
            return false
        }
        print("No notification server on the session bus: showing notifications in this terminal.")
        let bus = try await TestBus()
        let connection = try await DBusConnection.connect(to: .address(bus.address))
        let server = try await TerminalPresenter().start(on: connection)
        kept.keep(bus, connection, server)
        UNUserNotificationCenter.configure(identity: identity, bus: .address(bus.address), persistent: false)
        return true
    }
}

/// Holds the private bus and the presenter for the life of the process.
final class KeptAlive: @unchecked Sendable {
    private var objects: [AnyObject] = []
    private let lock = NSLock()

    func keep(_ objects: AnyObject...) {
        lock.lock()
        self.objects.append(contentsOf: objects)
        lock.unlock()
    }
}
