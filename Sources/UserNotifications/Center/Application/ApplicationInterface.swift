import DBus

/// `org.freedesktop.Application`, the interface through which a desktop or the per-user agent
/// activates an app by its app id (the Desktop Entry Specification's D-Bus activation): its
/// name, its introspection, where it is served, the action a notification response comes
/// with, and the bounds a center puts on what a caller sends it. `dbus/org.freedesktop.Application.xml`
/// describes it; the build generates ``ApplicationSpec`` (its members and signatures) from the file.
package enum ApplicationInterface {
    /// The interface name.
    package static let name = ApplicationSpec.name

    /// The action the agent activates for a notification response, with the response's id in
    /// the agent's queue as its one parameter (`s`). Named without GLib's `app.` prefix, as
    /// `ActivateAction` names an action of the app's own group.
    package static let notificationResponseAction = "notification-response"

    /// The longest action name, response id, URI or activation token taken, in bytes.
    package static let maximumStringBytes = 4096
    /// The most URIs one `Open` call may carry.
    package static let maximumURICount = 1024

    /// The `<interface>` element served by `Introspect`: `dbus/org.freedesktop.Application.xml`'s
    /// (``ApplicationSpec``).
    package static let introspectionXML = ApplicationSpec.introspectionXML

    /// The object path at which the app `id` serves the interface: `/` and the id with `.`
    /// replaced by `/` and `-` by `_` (`org.example.My-App` at `/org/example/My_App`); `nil`
    /// when `id` is not a well-known bus name, which a D-Bus activatable app's id must be.
    package static func objectPath(for id: String) -> DBusObjectPath? {
        guard DBusNames.isValidBusName(id), !id.hasPrefix(":") else { return nil }
        let mapped = id.map { character -> Character in
            switch character {
            case ".": "/"
            case "-": "_"
            default: character
            }
        }
        return try? DBusObjectPath("/" + String(mapped))
    }
}
