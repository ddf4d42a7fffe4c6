import DBus
import Foundation

/// The center's remote notification state: its connector, the record it registered with,
/// and the app's change handler.
struct RemotePushSide: Sendable {
    /// The connector, once registering started it.
    var connector: UnifiedPushConnector?
    /// The connection the center opened for the connector, when it could not share the
    /// application interface's; closed with the center.
    var ownConnection: DBusConnection?
    /// The keys, token, distributor and endpoint (kept in `push.json`).
    var record: RemotePushRecord?
    /// ``UNUserNotificationCenter/remoteNotificationRegistrationHandler``.
    var handler: (@MainActor @Sendable (RemoteNotificationRegistration.Change) -> Void)?
}
