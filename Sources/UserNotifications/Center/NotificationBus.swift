import DBus

/// Which bus the center uses. A Linux addition: Apple has one system service.
public enum NotificationBus: Sendable, Hashable {
    /// The session bus of the desktop (`DBUS_SESSION_BUS_ADDRESS`).
    case session
    /// A bus at an explicit address: a private bus for tests, or one a headless tool started.
    case address(String)

    package var dbusBus: DBusBus {
        switch self {
        case .session: .session
        case .address(let address): .address(address)
        }
    }
}
