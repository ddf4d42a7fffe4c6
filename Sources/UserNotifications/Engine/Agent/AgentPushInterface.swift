import DBus
import DesktopNotificationsSupport
import Foundation

/// The agent's remote notification interface, version 1: `org.desktopnotifications.AgentPush1`
/// at the agent's object (``AgentInterface/path``), as `dbus/org.desktopnotifications.AgentPush1.xml`
/// describes it; the build generates ``AgentPush1Spec`` from the file.
///
/// An app connected to the agent (`Connect`) registers through it: the agent keeps the app's
/// Web Push keys and connection token in the app's agent folder (`push.json`), registers with
/// the distributor under the agent's own bus name, serves `org.unifiedpush.Connector2` for
/// every app (each app's token tells them apart), and adds each decrypted message to the app's
/// notifications, so that it arrives while the app is not running.
///
/// `Register` takes the app id and a dictionary (`distributor`, `description`, both optional
/// strings) and answers a dictionary (`endpoint`, `p256dh`, `auth`, `distributor`).
/// `Unregister` takes the app id.
package enum AgentPushInterface {
    /// The interface's name.
    package static let name = AgentPush1Spec.name
    /// The D-Bus error a refused registration is answered with; its message is the
    /// ``RemoteNotificationRegistrationError`` as JSON.
    package static let registrationErrorName = "org.desktopnotifications.AgentPush1.Error.Registration"

    /// The `<interface>` element of `org.desktopnotifications.AgentPush1`, as its file has it.
    package static let introspectionXML = AgentPush1Spec.introspectionXML

    /// `error` as the message of ``registrationErrorName``.
    package static func encode(_ error: RemoteNotificationRegistrationError) -> String {
        (try? JSONEncoder().encode(error)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The error an agent's answer carries: the registration error it encoded, else a bus error.
    package static func decode(_ error: any Error) -> RemoteNotificationRegistrationError {
        if case DBusError.remote(let name, let message) = error, name == registrationErrorName,
           let decoded = try? OutsideJSON.decode(RemoteNotificationRegistrationError.self, from: Data(message.utf8)) {
            return decoded
        }
        return .bus("\(AgentErrorName.decode(error))")
    }
}
