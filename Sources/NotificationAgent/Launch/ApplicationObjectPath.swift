import DBus

/// The object path at which an app exports `org.freedesktop.Application`, by the Desktop
/// Entry Specification's D-Bus activation section: `/` and the app id with `.` replaced by
/// `/` and `-` by `_` (`org.example.My-App` is served at `/org/example/My_App`).
package enum ApplicationObjectPath {
    /// The path for `appID`.
    ///
    /// - Throws: ``ApplicationLaunchError/invalidApplicationID(_:)`` when `appID` is not a
    ///   well-known bus name, which a D-Bus-activatable app's id must be.
    package static func path(for appID: String) throws(ApplicationLaunchError) -> DBusObjectPath {
        guard DBusNames.isValidBusName(appID), !appID.hasPrefix(":") else { throw .invalidApplicationID(appID) }
        let mapped = appID.map { character -> Character in
            switch character {
            case ".": "/"
            case "-": "_"
            default: character
            }
        }
        do {
            return try DBusObjectPath("/" + String(mapped))
        } catch {
            throw .invalidApplicationID(appID)
        }
    }
}
