import DBus
import Foundation

// A delivery: the host's options, `AddNotification` with the portal's features, the entry in
// the engine's own list; a trigger that fires delivers the same way; `ActionInvoked` from the
// portal's owner becomes the delegate's response.
extension PortalEngine {
    /// Shows `request` as the host's options say; returns once the portal took it (or once
    /// the options showed nothing).
    func deliver(_ request: UNNotificationRequest, date: Date) async throws(NotificationDeliveryError) {
        let request = request.resolvingDeferredLocalizations()
        let notification = UNNotification(date: date, request: request)
        let options = await presentation(of: notification)
        guard options.showsBanner || options.showsInList else { return }
        let features = await features()
        let (category, replacing) = state.withLock { state in
            (state.categories[request.content.categoryIdentifier], state.delivered[request.identifier] != nil)
        }
        let entries = PortalPayload(identity: identity, features: features)
            .entries(for: request, category: category, options: options, replacing: replacing)
        do {
            let message = try DBusMessage.methodCall(
                destination: PortalInterface.busName, path: PortalInterface.path, interface: PortalInterface.interface,
                member: "AddNotification", body: [.string(request.identifier), .variantDictionary(entries)])
            _ = try await connection.call(message, timeout: Self.callDeadline)
        } catch DBusError.remote(let name, let text) {
            throw .serverFailed("\(name): \(text)")
        } catch {
            throw .noNotificationServer(String(describing: error))
        }
        let actions = category?.actions ?? []
        let delivered = PortalDelivered(
            notification: notification, actionIdentifiers: actions.map(\.identifier),
            textInputIdentifiers: Set(actions.filter { $0 is UNTextInputNotificationAction }.map(\.identifier)))
        state.withLock { $0.delivered[request.identifier] = delivered }
    }

    /// Sends `RemoveNotification` without waiting: the portal answers nothing useful, and
    /// the call keeps its place before any later `AddNotification`.
    func withdraw(_ identifier: String) {
        do {
            let message = try DBusMessage.methodCall(
                destination: PortalInterface.busName, path: PortalInterface.path, interface: PortalInterface.interface,
                member: "RemoveNotification", body: [.string(identifier)], flags: .noReplyExpected)
            try connection.send(message)
        } catch {
            CenterLog.logger.info("RemoveNotification was not sent", metadata: ["identifier": "\(identifier)", "error": CenterLog.describe(error)])
        }
    }

    /// `ActionInvoked(id, action, parameter)` from the portal's owner: the response for the
    /// notification it names, which then leaves the list. Unknown ids and action names, and
    /// arguments of the wrong types, are logged and dropped.
    func actionInvoked(_ message: DBusMessage) {
        guard let arguments = try? message.arguments("ssav"), let id = arguments[0].stringValue,
              let action = arguments[1].stringValue else {
            return CenterLog.logger.warning("an ActionInvoked with unexpected arguments was ignored", metadata: ["signature": "\(message.bodySignature)"])
        }
        let parameter = PortalActionParameter(arguments[2])
        let answered: (PortalDelivered, String)? = state.withLock { state in
            guard let entry = state.delivered[id], let identifier = Self.actionIdentifier(action, of: entry) else { return nil }
            state.delivered.removeValue(forKey: id)
            return (entry, identifier)
        }
        guard let (entry, identifier) = answered else {
            return CenterLog.logger.info("an ActionInvoked for no shown notification was ignored", metadata: ["identifier": "\(id)"])
        }
        let response: UNNotificationResponse
        if entry.textInputIdentifiers.contains(identifier) {
            response = UNTextInputNotificationResponse(
                notification: entry.notification, actionIdentifier: identifier, userText: parameter.replyText ?? "",
                activationToken: parameter.activationToken)
        } else {
            response = UNNotificationResponse(
                notification: entry.notification, actionIdentifier: identifier, activationToken: parameter.activationToken)
        }
        host?.receive(response)
    }

    /// The action identifier a portal action name stands for on `entry`, or `nil`.
    static func actionIdentifier(_ action: String, of entry: PortalDelivered) -> String? {
        if action == PortalInterface.defaultAction { return UNNotificationDefaultActionIdentifier }
        guard let index = PortalInterface.actionIndex(of: action), index < entry.actionIdentifiers.count else { return nil }
        return entry.actionIdentifiers[index]
    }
}
