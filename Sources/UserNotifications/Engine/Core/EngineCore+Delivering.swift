import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

// A delivery: the host's options, the server's capabilities (once per server), the `Notify`
// posted through the channel, and its reply taken in order with the signals (``handle(_:)``).
// Deliveries of one identifier go one at a time, so an update knows the id it replaces.
extension EngineCore {
    /// Delivers `request`; with `presentation`, the host is not asked (its app answered
    /// already, before the request reached the agent).
    func deliver(
        _ request: UNNotificationRequest, date: Date, waiter: EngineAnswer<Result<Void, any Error>>?,
        presentation: UNNotificationPresentationOptions? = nil, kept: UNNotificationRequest? = nil
    ) {
        let request = request.resolvingDeferredLocalizations()
        let delivery = Delivery(
            tag: nextTag(), notification: UNNotification(date: date, request: request),
            folders: folders(of: request), waiter: waiter, presentation: presentation, kept: kept)
        ledger.retain(delivery.folders)
        if deliveries.enqueue(delivery) { begin(delivery.tag) }
    }

    /// Asks the host how to present it: at once without a delegate, else on the main actor.
    ///
    /// The main actor posts the `Notify` itself when the engine prepared it (a ticket: the
    /// server's capabilities known, and nothing the arguments depend on changed since, see
    /// ``PostTicket``); otherwise its answer comes back through the inbox and wakes the caller
    /// of `add`, which takes it and posts.
    private func begin(_ tag: UInt64) {
        guard let delivery = deliveries[tag] else { return }
        if let options = delivery.presentation { return presented(tag, options: options) }
        guard let host else { return presented(tag, options: UNUserNotificationCenter.defaultPresentationOptions) }
        if let options = host.presentationOptionsWithoutAsking { return presented(tag, options: options) }
        let waiter = delivery.waiter
        let ticket = issueTicket(for: delivery, host: host)
        host.askPresentationOptions(for: delivery.notification) { [self] options in
            if let ticket, options.showsBanner || options.showsInList, claim(ticket) {
                return post(ticket, options: options)
            }
            submitAndWake(.presented(tag: tag, options), waiter)
        }
    }

    /// Prepares the `Notify` of `delivery` for whoever gets the delegate's answer: marked as
    /// posted and its caller registered for the reply, as ``post(_:capabilities:)`` does, before
    /// anyone can post it. `nil` when the server's capabilities are not known yet.
    private func issueTicket(for delivery: Delivery, host: any EngineHost) -> PostTicket? {
        guard let cache = capabilityCache, cache.server == owner else { return nil }
        let request = delivery.notification.request
        let intercepted = host.hasContentExtension(forCategory: request.content.categoryIdentifier)
        let ticket = PostTicket(
            tag: delivery.tag, notification: delivery.notification, category: categories[request.content.categoryIdentifier],
            capabilities: cache.capabilities,
            replacesID: delivered.replacementID(for: request.identifier, on: owner), intercepted: intercepted)
        deliveries.update(delivery.tag) { $0.intercepted = intercepted }
        deliveries.markPosted(delivery.tag)
        if let waiter = delivery.waiter { wakeOnReply(delivery.tag, waiter) }
        postTickets.withLock { $0[request.identifier] = ticket }
        return ticket
    }

    /// Takes the ticket for posting; `false` when it was voided (something its arguments
    /// depend on changed) and the engine must post.
    private nonisolated func claim(_ ticket: PostTicket) -> Bool {
        postTickets.withLock { tickets in
            guard tickets[ticket.request.identifier]?.tag == ticket.tag else { return false }
            tickets.removeValue(forKey: ticket.request.identifier)
            return true
        }
    }

    /// Posts a claimed ticket with the delegate's options, from the thread that has them.
    private nonisolated func post(_ ticket: PostTicket, options: UNNotificationPresentationOptions) {
        let content = ticket.request.content
        if options.contains(.badge), let badge = content.badge { updateBadge(badge.intValue, for: ticket.request.identifier) }
        send(
            TransportPost(
                notification: ticket.notification, category: ticket.category, options: options, replacesID: ticket.replacesID,
                resident: ticket.intercepted, capabilities: ticket.capabilities),
            tag: ticket.tag)
    }

    /// Sends delivery `tag` through the transport: the one place both ways of posting meet. A
    /// sound the server will not play (``EventSound``) is kept to be played once the server
    /// accepts the notification (``posted(_:_:owner:)``): on every delivery, an update in place
    /// too, as Apple plays a request's sound each time it is delivered. (GNOME Shell 43, which
    /// plays the sound itself, replays it for an update only when the sound changed.)
    private nonisolated func send(_ post: TransportPost, tag: UInt64) {
        transport.post(post, tag: tag) { sound in soundsToPlay.withLock { $0[tag] = sound } }
    }

    /// Voids the ticket of `identifier`, before a change that its `Notify` depends on.
    func voidTicket(_ identifier: String) {
        postTickets.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    /// Voids every ticket, before a change that every `Notify` depends on (the server, its
    /// capabilities, the categories).
    func voidTickets() {
        postTickets.withLock { $0.removeAll() }
    }

    func presented(_ tag: UInt64, options: UNNotificationPresentationOptions) {
        guard let delivery = deliveries[tag] else { return }
        voidTicket(delivery.identifier)
        let content = delivery.notification.request.content
        if options.contains(.badge), let badge = content.badge { updateBadge(badge.intValue, for: delivery.identifier) }
        guard options.showsBanner || options.showsInList else { return finish(tag, .success(())) }
        let intercepted = host?.hasContentExtension(forCategory: content.categoryIdentifier) ?? false
        deliveries.update(tag) { delivery in
            delivery.options = options
            delivery.intercepted = intercepted
        }
        if let cache = capabilityCache, cache.server == owner {
            return post(tag, capabilities: cache.capabilities)
        }
        awaitCapabilities(tag)
    }

    /// Posts delivery `tag` once the server's capabilities are known. One `GetCapabilities`
    /// is on its way at a time, and the deliveries that wait for it are posted in the order
    /// they came: an app's adds are shown in the order it made them even when the agent
    /// answered each before posting it (a `GetCapabilities` per delivery, each in a task of its
    /// own, could post them in any order).
    private func awaitCapabilities(_ tag: UInt64) {
        if capabilityWaiters != nil {
            capabilityWaiters?.append(tag)
            return
        }
        capabilityWaiters = [tag]
        let transport = self.transport
        Task {
            let result: Result<(capabilities: [NotificationCapability], server: String?), NotificationsError>
            do throws(NotificationsError) {
                result = .success(try await transport.capabilityAnswer())
            } catch {
                result = .failure(error)
            }
            self.capabilitiesArrived(result)
        }
    }

    /// The answer to the `GetCapabilities` that deliveries wait for: each is posted, in order,
    /// or fails with its error. The capabilities are kept as those of the server that answered,
    /// which is not the current one when the name changed owner meanwhile: the next delivery
    /// then asks the new one.
    private func capabilitiesArrived(
        _ result: Result<(capabilities: [NotificationCapability], server: String?), NotificationsError>
    ) {
        let waiting = capabilityWaiters ?? []
        capabilityWaiters = nil
        switch result {
        case .success(let answer):
            let capabilities = Set(answer.capabilities)
            learned(capabilities, of: answer.server)
            for tag in waiting { post(tag, capabilities: capabilities) }
        case .failure(let error):
            for tag in waiting { finish(tag, .failure(NotificationDeliveryError(error))) }
        }
    }

    /// Keeps `capabilities` as those of `server`, the server that answered (which need not
    /// own the name by now); nothing is kept without one.
    func learned(_ capabilities: Set<NotificationCapability>, of server: String?) {
        guard let server else { return }
        voidTickets()
        capabilityCache = (server, capabilities)
    }

    private func post(_ tag: UInt64, capabilities: Set<NotificationCapability>) {
        guard let delivery = deliveries[tag] else { return }
        let request = delivery.notification.request
        let post = TransportPost(
            notification: delivery.notification, category: categories[request.content.categoryIdentifier], options: delivery.options,
            replacesID: delivered.replacementID(for: request.identifier, on: owner), resident: delivery.intercepted,
            capabilities: capabilities)
        deliveries.markPosted(tag)
        if let waiter = delivery.waiter { wakeOnReply(tag, waiter) }
        send(post, tag: tag)
    }

    /// The reply to a delivery's `Notify`, in its place among the signals.
    func posted(_ tag: UInt64, _ outcome: Result<(posting: NotificationPosting, nonce: String?), any Error>, owner: String?) {
        let sound = soundsToPlay.withLock { $0.removeValue(forKey: tag) }
        guard let delivery = deliveries[tag] else { return }
        let posting: NotificationPosting
        let nonce: String?
        switch outcome {
        case .failure(let error):
            return finish(tag, .failure(error))
        case .success(let answer):
            (posting, nonce) = answer
        }
        // The server that answered may be gone already (its NameOwnerChanged came first):
        // its notifications went with it, and so does this one.
        guard posting.server == owner else { return finish(tag, .success(())) }
        if let sound { EventSoundPlayer.shared.play(sound, appID: identity.id, identifier: delivery.identifier) }
        let key = ServerKey(server: posting.server, id: posting.id)
        ledger.retain(delivery.folders)
        if let previous = delivered.record(DeliveredEntry(notification: delivery.notification, key: key, nonce: nonce)) {
            ledger.release(previous.notification.request)
        }
        trimDelivered()
        for early in deliveries.takeEarly(for: key) { handle(early.event) }
        scheduleSave()
        if delivery.withdrawOnArrival { removeDelivered([delivery.identifier]) }
        guard delivery.intercepted, let host else { return finish(tag, .success(())) }
        // The content extension hears of it before `add` returns, as it did before the reply.
        let notification = delivery.notification
        Task {
            await host.contentExtensionShown(notification)
            self.finish(tag, .success(()))
        }
    }

    /// Ends a delivery: its waiter is told, its hold on the attachments released, and the next
    /// delivery of its identifier starts.
    func finish(_ tag: UInt64, _ outcome: Result<Void, any Error>) {
        guard let (finished, next) = deliveries.finish(tag) else { return }
        // A mark of retryKept() is for the delivery under way then, whichever it was: it goes
        // with it (a kept request's delivery that starts after it tries the new server anyway).
        let retry = keptRetries.remove(finished.identifier) != nil
        forgetReplyWaiter(tag)
        ledger.release(folders: finished.folders)
        if let waiter = finished.waiter {
            waiter.resolve(outcome)
        } else if let kept = finished.kept {
            keptDeliveryEnded(kept, outcome, retry: retry)
        } else if case .failure(let error) = outcome {
            SubsystemLog.center.logger.error(
                "a notification whose trigger fired was not delivered",
                metadata: ["identifier": "\(finished.identifier)", "error": SubsystemLog.describe(error)])
        }
        if let next { begin(next.tag) }
    }

    private nonisolated func updateBadge(_ count: Int, for identifier: String) {
        let transport = self.transport
        let appID = identity.id
        Task {
            do {
                try await transport.setBadge(appID: appID, count: count)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the badge of a notification was not set",
                    metadata: ["identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
            }
        }
    }

    // MARK: - Withdrawing

    /// Withdraws notifications: they leave the list at once, and each live one is withdrawn
    /// through the transport (a `CloseNotification`, whose `NotificationClosed` finds it
    /// already answered). One on its way is withdrawn as soon as its id is known. With
    /// `unlisted`, an identifier the engine does not list is withdrawn too when the transport
    /// ``NotificationTransport/withdrawsUnlisted`` (GNOME keeps an earlier launch's).
    func removeDelivered(_ identifiers: [String], unlisted: Bool = false) {
        let withdrawsUnlisted = unlisted && transport.withdrawsUnlisted
        var seen = Set<String>()
        var withdrawn: [TransportWithdrawal] = []
        for identifier in identifiers where seen.insert(identifier).inserted {
            _ = deliveries.withdrawOnArrival(identifier)
            voidTicket(identifier)
            guard let entry = delivered.close(identifier, { $0.responded = true }) else {
                if withdrawsUnlisted { withdrawn.append(TransportWithdrawal(id: nil, identifier: identifier)) }
                continue
            }
            startGracePeriod(entry.key)
            if entry.key.server == owner { withdrawn.append(TransportWithdrawal(id: entry.key.id, identifier: identifier)) }
        }
        transport.withdraw(withdrawn)
        scheduleSave()
    }

    /// Removes the oldest notifications past the transport's bound
    /// (``NotificationTransport/deliveredBound``) from the list; they stay on screen as the
    /// server decides.
    func trimDelivered() {
        guard let bound = transport.deliveredBound else { return }
        for entry in delivered.trim(to: bound) {
            ledger.release(entry.notification.request)
            SubsystemLog.center.logger.info(
                "the oldest notification left the delivered list, which holds at most \(bound)",
                metadata: ["identifier": "\(TerminalText.singleLine(entry.identifier))"])
        }
    }

    /// Keeps a closed notification for the grace period, so that a late action still counts
    /// and later signals for its id are absorbed, then lets it go.
    func startGracePeriod(_ key: ServerKey) {
        Task {
            try? await Task.sleep(for: Self.closeGracePeriod)
            self.finishClosing(key)
        }
    }

    /// The grace period is over: a pending dismissal is delivered now, and later signals for
    /// this id are ignored.
    private func finishClosing(_ key: ServerKey) {
        guard let entry = delivered.finishClosing(key) else { return }
        ledger.release(entry.notification.request)
        guard entry.dismissPending, !entry.responded else { return }
        host?.receive(UNNotificationResponse(
            notification: entry.notification, actionIdentifier: UNNotificationDismissActionIdentifier,
            activationToken: entry.activationToken))
    }
}
