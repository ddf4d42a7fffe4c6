/// The target of an `app.*` action the portal engine adds: which notification and which of
/// its actions a click means, as the one string parameter the app side's
/// `ActivateAction("notification-response", [<s id>], platform_data)` takes
/// (``ApplicationInterface/notificationResponseAction``).
///
/// The text is `portal:<action>:<identifier>`: `<action>` is the portal action name
/// (``PortalInterface/defaultAction`` or ``PortalInterface/actionName(at:)``, neither holds a
/// colon) and `<identifier>` the request's identifier, as it is (it may hold colons). It comes
/// back from a bus peer, so ``init(parsing:)`` reads it defensively: bounded, typed, and only
/// the two action forms the engine makes.
package struct PortalResponseID: Sendable, Hashable {
    /// The portal action name: `default` or `action.<n>`.
    package var action: String
    /// The request identifier of the notification.
    package var identifier: String

    static let prefix = "portal:"
    /// The longest text read, in bytes (the app side bounds its strings the same way).
    package static let maximumBytes = 4096

    package init(action: String, identifier: String) {
        self.action = action
        self.identifier = identifier
    }

    /// Reads a target; `nil` for anything the engine did not make: another prefix, no
    /// colon after the action, an action of another form, an empty identifier, or text longer
    /// than ``maximumBytes``.
    package init?(parsing text: String) {
        guard text.utf8.count <= Self.maximumBytes, text.hasPrefix(Self.prefix) else { return nil }
        let rest = text.dropFirst(Self.prefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let action = String(rest[..<colon])
        let identifier = String(rest[rest.index(after: colon)...])
        guard action == PortalInterface.defaultAction || PortalInterface.actionIndex(of: action) != nil, !identifier.isEmpty else {
            return nil
        }
        self.init(action: action, identifier: identifier)
    }

    /// The target's text.
    package var text: String {
        Self.prefix + action + ":" + identifier
    }
}
