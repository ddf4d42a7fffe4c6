public import DBus

/// The Unity launcher-entry API (`com.canonical.Unity.LauncherEntry`), which docks and panels
/// (Ubuntu Dock, Plasma's task manager, Dash to Dock, Plank) read to show a count on an
/// application's icon.
public enum LauncherEntry {
    /// The interface of the `Update` signal.
    public static let interface = LauncherEntrySpec.name

    /// The `Update(s app_uri, a{sv} properties)` signal that shows `count` on the icon of
    /// application `appID` (its desktop-entry name), or hides the count when `count` is 0.
    public static func update(appID: String, count: Int) throws(NotificationsError) -> DBusMessage {
        guard !appID.isEmpty, !appID.utf8.contains(0) else {
            throw .invalidArgument(field: "application id", reason: "must be a non-empty desktop-entry name")
        }
        let properties: [String: DBusValue] = ["count": .int64(Int64(max(count, 0))), "count-visible": .boolean(count > 0)]
        do {
            return try LauncherEntrySpec.UpdateSignal(appURI: "application://\(appID).desktop", properties: properties)
                .message(path: path(for: appID))
        } catch {
            throw NotificationsError.from(error)
        }
    }

    /// An object path unique to the application: its id with every character outside
    /// `[A-Za-z0-9]` written as `_` and its byte in hex.
    static func path(for appID: String) throws -> DBusObjectPath {
        var element = ""
        for byte in appID.utf8 {
            let isAlphanumeric = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            element += isAlphanumeric ? String(UnicodeScalar(byte)) : "_" + String(byte, radix: 16)
        }
        return try DBusObjectPath("/com/canonical/unity/launcherentry/" + element)
    }
}

extension NotificationsClient {
    /// Shows `count` on the application's launcher icon (0 hides it) by broadcasting
    /// ``LauncherEntry/update(appID:count:)`` on the client's connection.
    public func setBadge(appID: String, count: Int) async throws(NotificationsError) {
        let signal = try LauncherEntry.update(appID: appID, count: count)
        let connection = try await connect()
        do {
            try connection.send(signal)
        } catch {
            throw NotificationsError.from(error)
        }
    }
}
