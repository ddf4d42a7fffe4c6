import DBus
import UserNotifications

/// The object path at which an app exports `org.freedesktop.Application`, by the Desktop
/// Entry Specification's D-Bus activation section: `/` and the app id with `.` replaced by
/// `/` and `-` by `_` (`org.example.My-App` is served at `/org/example/My_App`), the rule a
/// center serving the interface follows too (`ApplicationInterface.objectPath(for:)`).
package enum ApplicationObjectPath {
    /// The path for `appID`.
    ///
    /// - Throws: ``ApplicationLaunchError/invalidApplicationID(_:)`` when `appID` is not a
    ///   well-known bus name, which a D-Bus-activatable app's id must be.
    package static func path(for appID: String) throws(ApplicationLaunchError) -> DBusObjectPath {
        guard let path = ApplicationInterface.objectPath(for: appID) else { throw .invalidApplicationID(appID) }
        return path
    }
}
