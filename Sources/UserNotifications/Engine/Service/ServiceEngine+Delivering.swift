import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation

// A delivery: the host's options, the service's post, the entry in the engine's own list; a
// trigger that fires delivers the same way. A click the service reports becomes the delegate's
// response, through the category's content extension first when it has one.
extension ServiceEngine {
    /// Shows `request` as the host's options say; returns once the service took it (or once
    /// the options showed nothing). Deliveries of one identifier go one at a time, in the
    /// order they came (``DeliveryLine``): the later content is the one shown and listed.
    ///
    /// The caller holds `request`'s stored attachments for the delivery
    /// (``AttachmentLedger/hold(_:)``); the delivery releases that hold when it ends, and the
    /// listed notification holds them from then on.
    ///
    /// - Throws: what the service's post throws (``NotificationService/post(_:category:options:replacing:)``).
    func deliver(_ request: UNNotificationRequest, date: Date) async throws {
        defer { state.withLock { $0.ledger.release(request) } }
        await line.enter(request.identifier)
        defer { line.leave(request.identifier) }
        let request = request.resolvingDeferredLocalizations()
        let notification = UNNotification(date: date, request: request)
        let options = await presentation(of: notification)
        guard options.showsBanner || options.showsInList else { return }
        let (category, replacing) = state.withLock { state in
            (state.categories[request.content.categoryIdentifier], state.delivered[request.identifier] != nil)
        }
        let nonce = try await service.post(notification, category: category, options: options, replacing: replacing)
        await playSound(of: notification, options: options)
        let delivered = ServiceDelivered(notification: notification, actions: category?.actions ?? [], nonce: nonce)
        let dropped = state.withLock { state in
            state.ledger.hold(request)
            if let previous = state.delivered.record(delivered) {
                state.ledger.release(previous.notification.request)
            }
            let dropped = state.delivered.trim(to: Self.maximumDelivered)
            for entry in dropped { state.ledger.release(entry.notification.request) }
            return dropped
        }
        for dropped in dropped {
            SubsystemLog.center.logger.info(
                "the oldest notification left the delivered list, which holds at most \(Self.maximumDelivered)",
                metadata: ["identifier": "\(TerminalText.singleLine(dropped.identifier))"])
        }
        stateChanged()
        tellContentExtensionShown(notification)
    }

    /// Plays the sound of `notification`, which the service took, when the service plays none
    /// (no `sound` capability; ``EventSound/init(content:options:)``): on every delivery, an
    /// update in place too, as the in-process engine does for a server without `sound`.
    private func playSound(of notification: UNNotification, options: UNNotificationPresentationOptions) async {
        guard let sound = EventSound(content: notification.request.content, options: options),
              await !service.capabilities().contains(.sound) else { return }
        EventSoundPlayer.shared.play(sound, appID: identity.id, identifier: notification.request.identifier)
    }

    /// The options the host gives `notification`, after setting the badge they ask for (a
    /// failure there is logged).
    func presentation(of notification: UNNotification) async -> UNNotificationPresentationOptions {
        let options = await host?.presentationOptions(for: notification) ?? UNUserNotificationCenter.defaultPresentationOptions
        if options.contains(.badge), let badge = notification.request.content.badge {
            do {
                try await setBadgeCount(badge.intValue)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the badge of a notification was not set",
                    metadata: ["identifier": "\(notification.request.identifier)", "error": SubsystemLog.describe(error)])
            }
        }
        return options
    }

    /// Takes a click the service reported: the response for the listed notification it names,
    /// which then leaves the list, handed to the category's content extension first, when
    /// there is one, else to the delegate (``route(_:)``). A click on a text-input action is a
    /// ``UNTextInputNotificationResponse`` with the text the service sent (empty when none).
    ///
    /// A click for a notification the engine does not list is handed on as the response it
    /// archives (``ServiceClick/archived``), when it carries one. Returns `false` (and logs)
    /// when no listed notification has that identifier or that action and the click archives
    /// none, or when the click names a nonce that is not the notification's.
    @discardableResult
    func take(_ click: ServiceClick) -> Bool {
        enum Outcome { case answered(ServiceDelivered, String), unknown, wrongNonce }
        let outcome: Outcome = state.withLock { state in
            guard let entry = state.delivered[click.identifier], let action = entry.actionIdentifier(click.action) else { return .unknown }
            if let nonce = click.nonce {
                guard let expected = entry.actionNonce, PortalResponseID.nonce(nonce, matches: expected) else { return .wrongNonce }
            }
            state.delivered.remove(click.identifier)
            state.ledger.release(entry.notification.request)
            return .answered(entry, action)
        }
        switch outcome {
        case .answered(let entry, let action):
            stateChanged()
            if entry.textInputIdentifiers.contains(action) {
                route(UNTextInputNotificationResponse(
                    notification: entry.notification, actionIdentifier: action, userText: click.userText ?? "",
                    activationToken: click.activationToken))
            } else {
                route(UNNotificationResponse(notification: entry.notification, actionIdentifier: action, activationToken: click.activationToken))
            }
            return true
        case .unknown:
            if let archived = click.archived {
                route(archived)
                return true
            }
            SubsystemLog.center.logger.info(
                "an action for no shown notification was ignored", metadata: ["identifier": "\(TerminalText.singleLine(click.identifier))"])
            return false
        case .wrongNonce:
            SubsystemLog.center.logger.warning(
                "a notification response whose target does not carry the notification's nonce was refused",
                metadata: ["identifier": "\(TerminalText.singleLine(click.identifier))"])
            return false
        }
    }
}
