import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

// The client's channel, in the order the socket gave it: replies to posts, and server signals
// that become responses. Only signals from the current owner of the name reach here (the
// client checks the sender), and only ids this engine posted on that owner count. Each
// notification answers once, whatever the order or repetition of the signals.
extension EngineCore {
    func handle(_ item: TransportItem) {
        if item.owner != owner { voidTickets() }
        owner = item.owner
        switch item.kind {
        case .posted(let tag, let outcome):
            posted(tag, outcome, owner: item.owner)
        case .event(let event):
            handle(event)
        case .click(let click):
            take(click)
        case .serviceRestarted:
            voidTickets()
            capabilityCache = nil
        }
    }

    func handle(_ event: NotificationEvent) {
        switch event {
        case .actionInvoked(let id, let key, let server):
            respond(ServerKey(server: server, id: id), event, actionKey: key, text: nil)
        case .replied(let id, let text, let server):
            respond(ServerKey(server: server, id: id), event, actionKey: nil, text: text)
        case .activationToken(let id, let token, let server):
            let key = ServerKey(server: server, id: id)
            if !delivered.update(key, { $0.activationToken = token }) { holdEarly(key, event) }
        case .closed(let id, let reason, let server):
            closed(ServerKey(server: server, id: id), reason: reason, event: event)
        case .serverChanged(let oldOwner, let newOwner):
            if let oldOwner { dropServer(oldOwner) }
            if newOwner != nil, undeliveredAfterAcceptance != nil { retryKept() }
        case .disconnected:
            for server in delivered.servers { dropServer(server) }
        }
    }

    /// A signal for an id no reply has named yet: kept while a `Notify` is on the wire (its
    /// reply may name it), else it is somebody else's.
    private func holdEarly(_ key: ServerKey, _ event: NotificationEvent) {
        guard deliveries.postsInFlight > 0 else { return }
        if !deliveries.holdEarly(EarlySignal(key: key, event: event)) {
            SubsystemLog.center.logger.warning(
                "too many signals before their Notify reply; the oldest was dropped",
                metadata: ["limit": "\(DeliveryQueue.earlyLimit)"])
        }
    }

    private func respond(_ key: ServerKey, _ event: NotificationEvent, actionKey: String?, text: String?) {
        var response: UNNotificationResponse?
        let known = delivered.update(key) { entry in
            guard !entry.responded else { return }
            entry.responded = true
            entry.dismissPending = false
            let category = categories[entry.notification.request.content.categoryIdentifier]
            response = NotificationBridge.response(to: entry, category: category, actionKey: actionKey, text: text)
        }
        guard known else { return holdEarly(key, event) }
        if let response { route(response) }
    }

    private func closed(_ key: ServerKey, reason: NotificationCloseReason, event: NotificationEvent) {
        guard let entry = delivered.liveEntry(at: key) else {
            if !delivered.knows(key) { holdEarly(key, event) }
            return
        }
        if reason == .expired, capabilityCache?.server == key.server,
           capabilityCache?.capabilities.contains(.persistence) == true {
            return
        }
        let category = categories[entry.notification.request.content.categoryIdentifier]
        voidTicket(entry.identifier)
        delivered.close(entry.identifier) { entry in
            entry.dismissPending = reason == .dismissed && !entry.responded
                && category?.options.contains(.customDismissAction) == true
        }
        startGracePeriod(key)
        scheduleSave()
    }

    /// The server instance is gone: its ids mean nothing any more.
    func dropServer(_ server: String) {
        voidTickets()
        let dropped = delivered.dropServer(server)
        for entry in dropped { ledger.release(entry.notification.request) }
        if capabilityCache?.server == server { capabilityCache = nil }
        guard !dropped.isEmpty else { return }
        SubsystemLog.center.logger.info(
            "the notification server went away; its notifications left the delivered list",
            metadata: ["server": "\(TerminalText.singleLine(server))", "identifiers": "\(dropped.map(\.identifier).sorted())"])
        scheduleSave()
    }

    // MARK: - Clicks of a service

    /// Takes a click a service reported (``ServiceTransport``): the response for the listed
    /// notification it names, which then leaves the list (the services withdraw an activated
    /// notification and say nothing after), handed to the category's content extension first,
    /// when there is one, else to the delegate. A click on a text-input action is a
    /// ``UNTextInputNotificationResponse`` with the text the service sent (empty when none).
    ///
    /// A click for a notification the engine does not list is handed on as the response it
    /// archives (``ServiceClick/archived``), when it carries one. Returns `false` (and logs)
    /// when no listed notification has that identifier or that action and the click archives
    /// none, or when the click names a nonce that is not the notification's.
    @discardableResult
    func take(_ click: ServiceClick) -> Bool {
        guard let entry = delivered[click.identifier],
              let action = actionIdentifier(click.action, of: entry) else {
            if let archived = click.archived {
                route(archived)
                return true
            }
            SubsystemLog.center.logger.info(
                "an action for no shown notification was ignored", metadata: ["identifier": "\(TerminalText.singleLine(click.identifier))"])
            return false
        }
        if let nonce = click.nonce {
            guard let expected = entry.nonce, PortalResponseID.nonce(nonce, matches: expected) else {
                SubsystemLog.center.logger.warning(
                    "a notification response whose target does not carry the notification's nonce was refused",
                    metadata: ["identifier": "\(TerminalText.singleLine(click.identifier))"])
                return false
            }
        }
        voidTicket(entry.identifier)
        delivered.remove(entry.identifier)
        ledger.release(entry.notification.request)
        scheduleSave()
        let category = categories[entry.notification.request.content.categoryIdentifier]
        if category?.actions.first(where: { $0.identifier == action }) is UNTextInputNotificationAction {
            route(UNTextInputNotificationResponse(
                notification: entry.notification, actionIdentifier: action, userText: click.userText ?? "",
                activationToken: click.activationToken))
        } else {
            route(UNNotificationResponse(
                notification: entry.notification, actionIdentifier: action, activationToken: click.activationToken))
        }
        return true
    }

    /// The action identifier `action` stands for on `entry`: a button by its place among its
    /// category's actions.
    private func actionIdentifier(_ action: ServiceClick.Action, of entry: DeliveredEntry) -> String? {
        switch action {
        case .defaultAction: return UNNotificationDefaultActionIdentifier
        case .named(let identifier): return identifier
        case .button(let index):
            let actions = categories[entry.notification.request.content.categoryIdentifier]?.actions ?? []
            return actions.indices.contains(index) ? actions[index].identifier : nil
        }
    }

    // MARK: - Responses

    /// Hands `response` to its category's content extension first, when there is one, and acts
    /// on its answer (``apply(_:to:)``); else the host takes it. A service has closed its
    /// notification already, so there the extension decides only whether the delegate is told.
    private func route(_ response: UNNotificationResponse) {
        host?.route(response) { option in await self.apply(option, to: response) }
    }

    /// Acts on a content extension's answer to `response`: keep showing, close, or close and
    /// tell the delegate.
    private func apply(_ option: UNNotificationContentExtensionResponseOption, to response: UNNotificationResponse) {
        let identifier = response.notification.request.identifier
        switch option {
        case .doNotDismiss:
            // Resident notifications stay on screen; a later action counts again.
            delivered.update(identifier: identifier) { $0.responded = false }
        case .dismiss:
            removeDelivered([identifier])
        case .dismissAndForwardAction:
            removeDelivered([identifier])
            host?.receive(response)
        }
    }
}
