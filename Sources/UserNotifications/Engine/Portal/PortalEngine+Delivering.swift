import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation

// A delivery: the host's options, `AddNotification` with the portal's features, the entry in
// the engine's own list; a trigger that fires delivers the same way; `ActionInvoked` from the
// portal's owner becomes the delegate's response.
extension PortalEngine {
    /// Shows `request` as the host's options say; returns once the portal took it (or once
    /// the options showed nothing). Deliveries of one identifier go one at a time, in the
    /// order they came (``PortalDeliveryLine``).
    func deliver(_ request: UNNotificationRequest, date: Date) async throws(NotificationDeliveryError) {
        await line.enter(request.identifier)
        defer { line.leave(request.identifier) }
        let request = request.resolvingDeferredLocalizations()
        let notification = UNNotification(date: date, request: request)
        let options = await presentation(of: notification)
        guard options.showsBanner || options.showsInList else { return }
        let features = await features()
        let relaunches = await servesApplicationInterface()
        let (category, replacing) = state.withLock { state in
            (state.categories[request.content.categoryIdentifier], state.delivered[request.identifier] != nil)
        }
        let actions = category?.actions ?? []
        var delivery = PortalPayload(identity: identity, features: features)
            .delivery(for: request, category: category, options: options, replacing: replacing)
        // Every descriptor is closed once the call returned or failed, whatever happened.
        defer { delivery.closeDescriptors() }
        // A new nonce for each delivery: a target of a notification this one replaced is not taken.
        let nonce = relaunches ? PortalResponseID.makeNonce() : nil
        if let nonce {
            let textInput = Set(actions.indices.filter { actions[$0] is UNTextInputNotificationAction })
            delivery.activatingApplication(identifier: request.identifier, nonce: nonce, textInputIndices: textInput)
        }
        do {
            let message = try PortalNotificationSpec.Call.addNotification(.init(id: request.identifier, notification: delivery.dictionary))
                .message(to: PortalInterface.busName, path: PortalInterface.path)
            _ = try await connection.call(message, timeout: Self.callDeadline)
        } catch DBusError.remote(let name, let text) {
            throw .serverFailed("\(name): \(text)")
        } catch {
            throw .noNotificationServer(String(describing: error))
        }
        let delivered = PortalDelivered(notification: notification, actions: actions, nonce: nonce)
        let dropped: String? = state.withLock { state in
            state.delivered[request.identifier] = delivered
            guard state.delivered.count > Self.maximumDelivered else { return nil }
            let oldest = state.delivered.values.min { ($0.notification.date, $0.identifier) < ($1.notification.date, $1.identifier) }
            return oldest.flatMap { state.delivered.removeValue(forKey: $0.identifier)?.identifier }
        }
        if let dropped {
            SubsystemLog.center.logger.info(
                "the oldest notification left the delivered list, which holds at most \(Self.maximumDelivered)",
                metadata: ["identifier": "\(TerminalText.singleLine(dropped))"])
        }
        stateChanged()
        tellContentExtensionShown(notification)
    }

    /// Whether the app id is a bus name with an owner or a D-Bus service: then the app serves
    /// `org.freedesktop.Application` and actions can relaunch it. The service files are read
    /// once (the first delivery asks the bus for its activatable names); the owner is asked
    /// each time until it is seen, then kept (a center serves until it goes away).
    func servesApplicationInterface() async -> Bool {
        let (known, activatable) = state.withLock { ($0.servesApplicationInterface, $0.applicationActivatable) }
        if known { return true }
        guard ApplicationInterface.objectPath(for: identity.id) != nil else { return false }
        var serves: Bool
        if let activatable {
            serves = activatable
        } else {
            let names = try? await connection.listActivatableNames()
            serves = names?.contains(identity.id) == true
            if let names { state.withLock { $0.applicationActivatable = names.contains(identity.id) } }
        }
        if !serves { serves = (try? await connection.nameOwner(of: identity.id)) != nil }
        if serves { state.withLock { $0.servesApplicationInterface = true } }
        return serves
    }

    /// Sends `RemoveNotification` without waiting: the portal answers nothing useful, and
    /// the call keeps its place before any later `AddNotification`.
    func withdraw(_ identifier: String) {
        do {
            let message = try PortalNotificationSpec.Call.removeNotification(.init(id: identifier))
                .message(to: PortalInterface.busName, path: PortalInterface.path, flags: .noReplyExpected)
            try connection.send(message)
        } catch {
            SubsystemLog.center.logger.info("RemoveNotification was not sent", metadata: ["identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
        }
    }

    /// `ActionInvoked(id, action, parameter)` from the portal's owner: the response for the
    /// notification it names, which then leaves the list. Unknown ids and action names, and
    /// arguments of the wrong types, are logged and dropped.
    func actionInvoked(_ message: DBusMessage) {
        guard let signal = try? PortalNotificationSpec.ActionInvokedSignal(message.body) else {
            return SubsystemLog.center.logger.warning("an ActionInvoked with unexpected arguments was ignored", metadata: ["signature": "\(message.bodySignature)"])
        }
        let (id, action) = (signal.id, signal.action)
        let parameter = PortalActionParameter(signal.parameter)
        guard action == PortalPayload.Delivery.applicationAction else {
            _ = answer(id: id, action: action, parameter: parameter)
            return
        }
        // An app.* action relayed as the signal (the 1.16 frontend does so for its backend's
        // click): the target says which action of which notification, with its nonce.
        guard let target = parameter.target.flatMap(PortalResponseID.init(parsing:)), target.identifier == id else {
            return SubsystemLog.center.logger.info("an ActionInvoked for an app action without a target of this engine was ignored", metadata: ["identifier": "\(TerminalText.singleLine(id))"])
        }
        _ = answer(id: id, action: target.action, parameter: parameter, nonce: target.nonce)
    }

    /// The response to the portal action `action` on the notification `id`, handed to the
    /// category's content extension first, when there is one, else to the delegate
    /// (``route(_:)``); the notification leaves the list. Returns `false` (and logs) when no listed
    /// notification has that id or that action, or, for a target's click (`nonce` given), when
    /// `nonce` is not the notification's: a target of a notification replaced since, or a
    /// forger's guess.
    func answer(id: String, action: String, parameter: PortalActionParameter, nonce: String? = nil) -> Bool {
        enum Outcome { case answered(PortalDelivered, String), unknown, wrongNonce }
        let outcome: Outcome = state.withLock { state in
            guard let entry = state.delivered[id], let identifier = Self.actionIdentifier(action, of: entry) else { return .unknown }
            if let nonce {
                guard let expected = entry.actionNonce, PortalResponseID.nonce(nonce, matches: expected) else { return .wrongNonce }
            }
            state.delivered.removeValue(forKey: id)
            return .answered(entry, identifier)
        }
        let entry: PortalDelivered, identifier: String
        switch outcome {
        case .answered(let answered, let action):
            (entry, identifier) = (answered, action)
        case .unknown:
            SubsystemLog.center.logger.info("an action for no shown notification was ignored", metadata: ["identifier": "\(TerminalText.singleLine(id))"])
            return false
        case .wrongNonce:
            SubsystemLog.center.logger.warning(
                "a notification response whose target does not carry the notification's nonce was refused",
                metadata: ["identifier": "\(TerminalText.singleLine(id))"])
            return false
        }
        stateChanged()
        let response: UNNotificationResponse
        if entry.textInputIdentifiers.contains(identifier) {
            response = UNTextInputNotificationResponse(
                notification: entry.notification, actionIdentifier: identifier, userText: parameter.replyText ?? "",
                activationToken: parameter.activationToken)
        } else {
            response = UNNotificationResponse(
                notification: entry.notification, actionIdentifier: identifier, activationToken: parameter.activationToken)
        }
        route(response)
        return true
    }

    /// The action identifier a portal action name stands for on `entry`, or `nil`.
    static func actionIdentifier(_ action: String, of entry: PortalDelivered) -> String? {
        if action == PortalInterface.defaultAction { return UNNotificationDefaultActionIdentifier }
        guard let index = PortalInterface.actionIndex(of: action), index < entry.actionIdentifiers.count else { return nil }
        return entry.actionIdentifiers[index]
    }
}
