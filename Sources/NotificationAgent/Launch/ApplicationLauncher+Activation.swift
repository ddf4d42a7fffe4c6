import DBus
import UserNotifications

extension ApplicationLauncher {
    /// Calls `org.freedesktop.Application.ActivateAction` on `appID` at its object path.
    func activate(appID: String, action: String, parameter: DBusValue?, activationToken: String?) async throws(ApplicationLaunchError) {
        let path = try ApplicationObjectPath.path(for: appID)
        do {
            let message = try ApplicationSpec.Call.activateAction(.init(
                actionName: action, parameter: parameter.map { [$0] } ?? [], platformData: Self.platformData(activationToken: activationToken)
            )).message(to: appID, path: path)
            _ = try await connection.call(message, timeout: timeout)
        } catch let error as DBusError {
            throw .dbus(appID: appID, error)
        } catch {
            throw .dbus(appID: appID, .malformed("\(error)"))
        }
    }

    /// `platform_data`: the token under both names that apps read, or nothing.
    static func platformData(activationToken: String?) -> [String: DBusValue] {
        guard let activationToken else { return [:] }
        return ["activation-token": .string(activationToken), "desktop-startup-id": .string(activationToken)]
    }
}
