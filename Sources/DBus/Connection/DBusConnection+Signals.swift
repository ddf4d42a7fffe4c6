extension DBusConnection {
    /// Subscribes to the signals that match any of `rules`, delivered as a stream.
    ///
    /// The rules are installed on the bus before this returns, so a call made afterwards
    /// cannot outrun them. With `senderMustOwn`, the connection first follows that name's
    /// owner (`NameOwnerChanged`, then `GetNameOwner`) and delivers a signal only when its
    /// sender is the current owner; when the name has no owner, nothing is delivered. That is
    /// the defence against spoofed signals: any peer can send a signal straight to us, but
    /// only the owner's unique name appears as its sender.
    public func subscribe(to rules: [DBusMatchRule], senderMustOwn ownerName: String? = nil) async throws -> DBusSignalSubscription {
        let (events, continuation) = AsyncStream.makeStream(of: DBusSignalEvent.self)
        let handle = try await subscribe(to: rules, senderMustOwn: ownerName) { event in
            continuation.yield(event)
            if event == .disconnected { continuation.finish() }
        }
        continuation.onTermination = { _ in handle.cancel() }
        return DBusSignalSubscription(events: events, initialOwner: handle.initialOwner)
    }

    /// Subscribes to the signals that match any of `rules`; `handler` runs on the
    /// connection's executor for each event, in order, and must not block.
    ///
    /// This is the form with the least latency: no task hop between the socket and the
    /// handler. The rules and the owner tracking work as in ``subscribe(to:senderMustOwn:)``.
    public func subscribe(
        to rules: [DBusMatchRule], senderMustOwn ownerName: String? = nil,
        handler: @escaping @Sendable (DBusSignalEvent) -> Void
    ) async throws -> DBusSignalHandle {
        for rule in rules { try rule.validate() }
        if let ownerName, !DBusNames.isValidBusName(ownerName) { throw DBusError.invalidBusName(ownerName) }
        let subscription = SignalSubscription(rules: rules, ownerName: ownerName, deliver: handler)
        let core = self.core
        let id = subscription.id
        let cancel: @Sendable () -> Void = { core.perform { core.removeSubscription(id) } }
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            core.perform {
                guard core.isOpen else { return waiter.resume(throwing: DBusError.disconnected) }
                core.addSubscription(subscription)
                waiter.resume()
            }
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for rule in rules {
                    group.addTask { _ = try await self.callBus("AddMatch", [.string(rule.text)]) }
                }
                try await group.waitForAll()
            }
            var owner: String?
            if let ownerName { owner = try await resolveOwner(of: ownerName) }
            return DBusSignalHandle(cancelAction: cancel, initialOwner: owner)
        } catch {
            cancel()
            throw error
        }
    }

    private func resolveOwner(of name: String) async throws -> String? {
        let core = self.core
        let timeout = defaultTimeout
        return try await withCheckedThrowingContinuation { waiter in
            core.perform {
                core.resolveOwner(of: name, timeout: timeout) { waiter.resume(with: $0.mapError { $0 as any Error }) }
            }
        }
    }
}
