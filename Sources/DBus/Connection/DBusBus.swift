#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which bus a ``DBusConnection`` connects to.
public enum DBusBus: Sendable, Hashable {
    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket
    /// exists. There is deliberately no X11 autolaunch: a process without a session bus gets
    /// ``DBusError/noBusAddress(_:)`` at once.
    case session
    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS`, else `/var/run/dbus/system_bus_socket`.
    case system
    /// An explicit address such as `unix:path=/tmp/bus` (a private test bus).
    case address(String)

    /// The address string to connect to.
    public func resolveAddress() throws(DBusError) -> String {
        switch self {
        case .address(let address):
            return address
        case .system:
            return environment("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/var/run/dbus/system_bus_socket"
        case .session:
            if let address = environment("DBUS_SESSION_BUS_ADDRESS") { return address }
            if let runtime = environment("XDG_RUNTIME_DIR"), access("\(runtime)/bus", F_OK) == 0 {
                return "unix:path=\(runtime)/bus"
            }
            throw .noBusAddress("DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
        }
    }

    private func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
