import Foundation
import FreedesktopNotifications

// Server signals become responses. Only events from the current owner of the name reach
// here (the client checks the sender), and only ids this engine posted on that owner count.
// Each notification answers once, whatever the order or repetition of the signals.
extension NotificationEngine {
    func handle(_ event: NotificationEvent) {
        switch event {
        case .actionInvoked(let id, let key, let server):
            withEntry(ServerKey(server: server, id: id), event) { entry in respond(&entry, actionKey: key, text: nil) }
        case .replied(let id, let text, let server):
            withEntry(ServerKey(server: server, id: id), event) { entry in respond(&entry, actionKey: nil, text: text) }
        case .activationToken(let id, let token, let server):
            withEntry(ServerKey(server: server, id: id), event) { entry in entry.activationToken = token }
        case .closed(let id, let reason, let server):
            closed(ServerKey(server: server, id: id), reason: reason, event: event)
        case .serverChanged(let oldOwner, _):
            if let oldOwner { dropServer(oldOwner) }
        case .disconnected:
            for server in Set(delivered.values.map(\.key.server)) { dropServer(server) }
        }
    }

    /// Runs `change` on the live (or just closed) notification behind `key`; holds the event
    /// while a Notify is in flight, since its reply may not have told us the id yet.
    private func withEntry(_ key: ServerKey, _ event: NotificationEvent, _ change: (inout DeliveredEntry) -> Void) {
        if let identifier = serverIndex[key], var entry = delivered[identifier] {
            change(&entry)
            delivered[identifier] = entry
        } else if var entry = closing[key] {
            change(&entry)
            closing[key] = entry
        } else {
            hold(event)
        }
    }

    private func hold(_ event: NotificationEvent) {
        guard notifiesInFlight > 0, heldEvents.count < 1024 else { return }
        heldEvents.append(event)
    }

    /// After a Notify reply: replays the held events (their ids may be known now); with no
    /// Notify in flight, what is still unknown belongs to someone else and is dropped.
    func releaseHeldEvents() {
        let events = heldEvents
        heldEvents = []
        for event in events { handle(event) }
        if notifiesInFlight == 0 { heldEvents = [] }
    }

    private func respond(_ entry: inout DeliveredEntry, actionKey: String?, text: String?) {
        guard !entry.responded else { return }
        entry.responded = true
        entry.dismissPending = false
        let notification = entry.notification
        let category = categories[notification.request.content.categoryIdentifier]
        let textAction = category?.actions.first { $0 is UNTextInputNotificationAction }
        let response: UNNotificationResponse
        if let text {
            response = UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: textAction?.identifier ?? NotificationAction.inlineReplyKey,
                userText: text, activationToken: entry.activationToken)
        } else if actionKey == NotificationAction.defaultKey {
            response = UNNotificationResponse(
                notification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier,
                activationToken: entry.activationToken)
        } else if let actionKey, let action = category?.actions.first(where: { $0.identifier == actionKey }),
                  action is UNTextInputNotificationAction {
            // A text-input action shown as a plain button (no inline reply on this server).
            response = UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: actionKey, userText: "", activationToken: entry.activationToken)
        } else {
            response = UNNotificationResponse(
                notification: notification, actionIdentifier: actionKey ?? "", activationToken: entry.activationToken)
        }
        route(response)
    }

    private func closed(_ key: ServerKey, reason: NotificationCloseReason, event: NotificationEvent) {
        guard let identifier = serverIndex[key], var entry = delivered[identifier] else {
            if closing[key] == nil { hold(event) }
            return
        }
        if reason == .expired, capabilityCache?.capabilities.contains(.persistence) == true { return }
        serverIndex.removeValue(forKey: key)
        delivered.removeValue(forKey: identifier)
        let category = categories[entry.notification.request.content.categoryIdentifier]
        entry.dismissPending = reason == .dismissed && !entry.responded
            && category?.options.contains(.customDismissAction) == true
        retire(entry)
        scheduleSave()
    }

    /// Keeps a closed notification for the grace period, so that a late action still counts
    /// and later signals for its id are absorbed, then lets it go.
    func retire(_ entry: DeliveredEntry) {
        var entry = entry
        entry.closedAt = clock.now
        closing[entry.key] = entry
        let key = entry.key
        Task {
            try? await Task.sleep(for: Self.closeGracePeriod)
            self.finishClosing(key)
        }
    }

    /// The grace period is over: a pending dismissal is delivered now, and later signals for
    /// this id are ignored.
    private func finishClosing(_ key: ServerKey) {
        guard let entry = closing.removeValue(forKey: key) else { return }
        releaseAttachments(of: entry.notification.request)
        guard entry.dismissPending, !entry.responded else { return }
        deliverResponse(UNNotificationResponse(
            notification: entry.notification, actionIdentifier: UNNotificationDismissActionIdentifier,
            activationToken: entry.activationToken))
    }

    /// The server instance is gone: its ids mean nothing any more.
    func dropServer(_ server: String) {
        var dropped: [UNNotificationRequest] = []
        for (identifier, entry) in delivered where entry.key.server == server {
            delivered.removeValue(forKey: identifier)
            serverIndex.removeValue(forKey: entry.key)
            dropped.append(entry.notification.request)
        }
        closing = closing.filter { $0.key.server != server }
        for request in dropped { releaseAttachments(of: request) }
        if capabilityCache?.server == server { capabilityCache = nil }
        scheduleSave()
    }
}
