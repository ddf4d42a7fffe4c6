import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// Reads the Do Not Disturb switch of the notification server that runs (``DoNotDisturbSource``),
/// chosen by the name it gives in `GetServerInformation`.
package enum DoNotDisturbReader {
    static let notificationsName = NotificationsSpec.name
    static let notificationsPath = "/org/freedesktop/Notifications"
    /// The mode mako's documentation uses for Do Not Disturb.
    package static let makoMode = "do-not-disturb"

    /// The status on `connection`'s bus. A switch that fails to answer is logged and gives
    /// an unknown status from that source.
    ///
    /// - Parameter gnomeKeyfile: read GNOME's setting from this GSettings keyfile instead of
    ///   the session's settings (for tests).
    package static func read(on connection: DBusConnection, gnomeKeyfile: String? = nil) async -> DoNotDisturbStatus {
        let name: String
        do {
            let call = try NotificationsSpec.Call.getServerInformation.message(to: notificationsName, path: try DBusObjectPath(notificationsPath))
            name = try NotificationsSpec.GetServerInformationReply(try await connection.call(call, timeout: .seconds(5)).body).name
        } catch {
            return DoNotDisturbStatus(isOn: nil, source: .noServer)
        }
        let source = source(forServer: name)
        do {
            return DoNotDisturbStatus(isOn: try await isOn(source, on: connection, gnomeKeyfile: gnomeKeyfile), source: source)
        } catch {
            SubsystemLog.center.logger.error(
                "the Do Not Disturb switch did not answer",
                metadata: ["source": "\(source.rawValue)", "error": SubsystemLog.describe(error)])
            return DoNotDisturbStatus(isOn: nil, source: source)
        }
    }

    /// The switch of the server that calls itself `name`.
    package static func source(forServer name: String) -> DoNotDisturbSource {
        switch name.lowercased() {
        case "gnome-shell": .gnomeShowBanners
        case "plasma": .plasmaInhibited
        case "dunst": .dunstPaused
        case "mako": .makoMode
        case "xfce notify daemon", "xfce4-notifyd": .xfceSetting
        default: .unsupported
        }
    }

    private static func isOn(_ source: DoNotDisturbSource, on connection: DBusConnection, gnomeKeyfile: String?) async throws -> Bool? {
        switch source {
        case .gnomeShowBanners:
            return GnomeNotificationSwitch.showsBanners(keyfile: gnomeKeyfile).map { !$0 }
        case .plasmaInhibited:
            return try await property(notificationsName, "Inhibited", on: connection)?.boolValue
        case .dunstPaused:
            return try await property("org.dunstproject.cmd0", "paused", on: connection)?.boolValue
        case .makoMode:
            let call = try MakoSpec.Call.listModes.message(to: notificationsName, path: try DBusObjectPath("/fr/emersion/Mako"))
            return try MakoSpec.ListModesReply(try await connection.call(call, timeout: .seconds(5)).body).modes.contains(makoMode)
        case .xfceSetting:
            do {
                let call = try XfconfSpec.Call.getProperty(.init(channel: "xfce4-notifyd", property: "/do-not-disturb"))
                    .message(to: "org.xfce.Xfconf", path: try DBusObjectPath("/org/xfce/Xfconf"))
                return try XfconfSpec.GetPropertyReply(try await connection.call(call, timeout: .seconds(5)).body).value.boolValue
            } catch DBusError.remote(let name, _) where name.hasSuffix("PropertyNotFound") {
                // Never set: xfce4-notifyd's default, off.
                return false
            }
        case .unsupported, .noServer:
            return nil
        }
    }

    private static func property(_ interface: String, _ name: String, on connection: DBusConnection) async throws -> DBusValue? {
        let call = try PropertiesSpec.Call.get(.init(interfaceName: interface, propertyName: name))
            .message(to: notificationsName, path: try DBusObjectPath(notificationsPath))
        return try PropertiesSpec.GetReply(try await connection.call(call, timeout: .seconds(5)).body).value
    }
}
