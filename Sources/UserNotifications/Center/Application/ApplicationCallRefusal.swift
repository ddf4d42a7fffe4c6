/// A call of `org.freedesktop.Application` the center refuses: the D-Bus error it answers with.
struct ApplicationCallRefusal: Error, Sendable, Hashable {
    /// The D-Bus error name.
    var name: String
    /// The error's text, for the caller.
    var message: String

    /// `org.freedesktop.DBus.Error.InvalidArgs`: arguments of the wrong type, too long, or too many.
    static func invalidArguments(_ message: String) -> Self {
        Self(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// `org.freedesktop.DBus.Error.NotSupported`: a notification response for a center whose
    /// notifications the agent does not keep.
    static func notSupported(_ message: String) -> Self {
        Self(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }
}
