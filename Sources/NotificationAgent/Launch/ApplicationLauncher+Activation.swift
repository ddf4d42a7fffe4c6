import DBus
import UserNotifications

extension ApplicationLauncher {
    /// Calls `org.freedesktop.Application.ActivateAction` on `appID` at its object path.
    func activate(appID: String, action: String, parameter: DBusValue?, activationToken: String?) async throws(ApplicationLaunchError) {
        let path = try ApplicationObjectPath.path(for: appID)
        do {
            let message = try DBusMessage.methodCall(
                destination: appID, path: path, interface: ApplicationSpec.name, member: ApplicationSpec.Method.activateAction.rawValue,
                body: [
                    .string(action),
                    .array(element: .variant, parameter.map { [.variant($0)] } ?? []),
                    Self.platformData(activationToken: activationToken),
                ])
            _ = try await connection.call(message, timeout: timeout)
        } catch let error as DBusError {
            throw .dbus(appID: appID, error)
        } catch {
            throw .dbus(appID: appID, .malformed("\(error)"))
        }
    }

    /// `platform_data`: the token under both names that apps read, or nothing.
    static func platformData(activationToken: String?) -> DBusValue {
        guard let activationToken else { return .variantDictionary([]) }
        return .variantDictionary([
            ("activation-token", .string(activationToken)),
            ("desktop-startup-id", .string(activationToken)),
        ])
    }
}
