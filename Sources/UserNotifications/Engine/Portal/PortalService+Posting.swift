import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation

// A post: `AddNotification` with the portal's features, its targets carrying a new nonce when
// the app serves `org.freedesktop.Application`; `RemoveNotification`; `ActionInvoked` from the
// portal's owner read as a click.
extension PortalService {
    /// Sends `AddNotification`; returns once the portal took it, with the nonce the action
    /// targets carry (a new one for each post: a target of a notification this one replaced is
    /// not taken), or `nil` when the actions are plain names (``servesApplicationInterface()``).
    ///
    /// - Throws: ``NotificationDeliveryError``.
    func post(
        _ notification: UNNotification, category: UNNotificationCategory?, options: UNNotificationPresentationOptions, replacing: Bool
    ) async throws -> String? {
        let request = notification.request
        let features = await features()
        let relaunches = await servesApplicationInterface()
        var delivery = PortalPayload(identity: identity, features: features)
            .delivery(for: request, category: category, options: options, replacing: replacing)
        // Every descriptor is closed once the call returned or failed, whatever happened.
        defer { delivery.closeDescriptors() }
        let nonce = relaunches ? PortalResponseID.makeNonce() : nil
        if let nonce {
            let actions = category?.actions ?? []
            let textInput = Set(actions.indices.filter { actions[$0] is UNTextInputNotificationAction })
            delivery.activatingApplication(identifier: request.identifier, nonce: nonce, textInputIndices: textInput)
        }
        do {
            let message = try PortalNotificationSpec.Call.addNotification(.init(id: request.identifier, notification: delivery.dictionary))
                .message(to: PortalInterface.busName, path: PortalInterface.path)
            _ = try await connection.call(message, timeout: Self.callDeadline)
        } catch DBusError.remote(let name, let text) {
            throw NotificationDeliveryError.serverFailed("\(name): \(text)")
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
        return nonce
    }

    /// Whether the app id is a bus name with an owner or a D-Bus service: then the app serves
    /// `org.freedesktop.Application` and actions can relaunch it. The service files are read
    /// once (the first post asks the bus for its activatable names); the app's own center says
    /// when it starts serving (``applicationInterfaceServed()``); otherwise the owner is asked
    /// until it is seen, then kept (a center serves until it goes away), and an answer that
    /// there is none is believed for ``ownerRecheckInterval``: a run of posts asks once, not
    /// once each.
    func servesApplicationInterface() async -> Bool {
        let (known, activatable, absentAt) = seen.withLock { ($0.servesApplicationInterface, $0.applicationActivatable, $0.ownerAbsentAt) }
        if known { return true }
        if activatable == false, let absentAt, ContinuousClock.now - absentAt < Self.ownerRecheckInterval { return false }
        guard ApplicationInterface.objectPath(for: identity.id) != nil else { return false }
        var serves: Bool
        if let activatable {
            serves = activatable
        } else {
            let names = try? await connection.listActivatableNames()
            serves = names?.contains(identity.id) == true
            if let names { seen.withLock { $0.applicationActivatable = names.contains(identity.id) } }
        }
        if !serves {
            let asked = ContinuousClock.now
            serves = (try? await connection.nameOwner(of: identity.id)) != nil
            if !serves { seen.withLock { $0.ownerAbsentAt = asked } }
        }
        if serves { seen.withLock { $0.servesApplicationInterface = true } }
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

    /// `ActionInvoked(id, action, parameter)` from the portal's owner, as a click; `nil`,
    /// logged, for arguments of the wrong types, an action name the service does not make, or
    /// an `app.*` action whose target is not this service's for that id.
    static func click(actionInvoked message: DBusMessage) -> ServiceClick? {
        guard let signal = try? PortalNotificationSpec.ActionInvokedSignal(message.body) else {
            SubsystemLog.center.logger.warning("an ActionInvoked with unexpected arguments was ignored", metadata: ["signature": "\(message.bodySignature)"])
            return nil
        }
        let (id, action) = (signal.id, signal.action)
        let parameter = PortalActionParameter(signal.parameter)
        guard action == PortalPayload.Delivery.applicationAction else {
            return click(id: id, action: action, parameter: parameter, nonce: nil)
        }
        // An app.* action relayed as the signal (the 1.16 frontend does so for its backend's
        // click): the target says which action of which notification, with its nonce.
        guard let target = parameter.target.flatMap(PortalResponseID.init(parsing:)), target.identifier == id else {
            SubsystemLog.center.logger.info(
                "an ActionInvoked for an app action without a target of this engine was ignored", metadata: ["identifier": "\(TerminalText.singleLine(id))"])
            return nil
        }
        return click(id: id, action: target.action, parameter: parameter, nonce: target.nonce)
    }

    /// The click of the portal action `action` (`default` or `action.<n>`) on the notification
    /// `id`; `nil`, logged, for another action name.
    static func click(id: String, action: String, parameter: PortalActionParameter, nonce: String?) -> ServiceClick? {
        let chosen: ServiceClick.Action
        if action == PortalInterface.defaultAction {
            chosen = .defaultAction
        } else if let index = PortalInterface.actionIndex(of: action) {
            chosen = .button(index)
        } else {
            SubsystemLog.center.logger.info(
                "an action this engine did not make was ignored",
                metadata: ["identifier": "\(TerminalText.singleLine(id))", "action": "\(TerminalText.singleLine(action))"])
            return nil
        }
        return ServiceClick(
            identifier: id, action: chosen, userText: parameter.replyText, activationToken: parameter.activationToken, nonce: nonce)
    }
}
