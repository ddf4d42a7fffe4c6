import DesktopNotificationsSupport

extension ConnectionCore {
    static let busName = "org.freedesktop.DBus"
    static let busPath = DBusObjectPath(unchecked: "/org/freedesktop/DBus")

    /// Whether a signal with `header` is for anyone here: a `NameOwnerChanged` from the bus,
    /// or a signal that a subscription's rules select and whose sender it trusts. Decided from
    /// the header alone, so that the body of a signal nobody wants is never decoded.
    func wantsSignal(_ header: MessageHeader) -> Bool {
        isNameOwnerChanged(header) || subscriptions.values.contains { accepts(header, body: nil, for: $0) }
    }

    /// Routes a signal to the subscriptions whose rules select it, in subscription order.
    func deliverSignal(_ message: DBusMessage, header: MessageHeader) {
        assertOnQueue()
        if isNameOwnerChanged(header), let arguments = try? message.arguments("sss"),
           let name = arguments[0].stringValue, let old = arguments[1].stringValue, let new = arguments[2].stringValue {
            updateOwner(of: name, from: old, to: new)
        }
        for id in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[id], accepts(header, body: message.body, for: subscription) else { continue }
            subscription.deliver(.signal(message))
        }
    }

    private func isNameOwnerChanged(_ header: MessageHeader) -> Bool {
        header.sender == Self.busName && header.path == Self.busPath && header.interface == Self.busName
            && header.member == "NameOwnerChanged" && header.signature == "sss"
    }

    /// Whether `subscription` takes the signal: one of its rules selects it (`body` nil: the
    /// arguments are not known yet) and, when it tracks an owner, that owner sent it.
    private func accepts(_ header: MessageHeader, body: [DBusValue]?, for subscription: SignalSubscription) -> Bool {
        guard subscription.rules.contains(where: { $0.matches(header, body: body) }) else { return false }
        guard let name = subscription.ownerName else { return true }
        guard let owner = trackedNames[name]?.owner else { return false }
        return header.sender == owner
    }

    private func updateOwner(of name: String, from old: String, to new: String) {
        guard trackedNames[name] != nil else { return }
        trackedNames[name]?.owner = new.isEmpty ? nil : new
        for id in subscriptions.keys.sorted() where subscriptions[id]?.ownerName == name {
            subscriptions[id]?.deliver(
                .ownerChanged(name: name, oldOwner: old.isEmpty ? nil : old, newOwner: new.isEmpty ? nil : new))
        }
    }

    /// Registers a subscription; deliveries start at once. On the queue.
    func addSubscription(_ subscription: SignalSubscription) {
        assertOnQueue()
        subscriptions[subscription.id] = subscription
        if let name = subscription.ownerName {
            trackedNames[name, default: TrackedName()].subscribers += 1
        }
    }

    /// Removes a subscription and its rules from the bus. On the queue.
    func removeSubscription(_ id: UInt64) {
        assertOnQueue()
        guard let subscription = subscriptions.removeValue(forKey: id) else { return }
        for rule in subscription.rules { removeMatch(rule) }
        guard let name = subscription.ownerName, var tracked = trackedNames[name] else { return }
        tracked.subscribers -= 1
        if tracked.subscribers > 0 {
            trackedNames[name] = tracked
        } else {
            trackedNames.removeValue(forKey: name)
            if let rule = tracked.ownerChangedRule { removeMatch(rule) }
        }
    }

    private func removeMatch(_ rule: DBusMatchRule) {
        guard isOpen else { return }
        do {
            let removeMatch = try busCall("RemoveMatch", [.string(rule.text)], flags: .noReplyExpected).outgoing()
            try transmit(removeMatch, serial: allocateSerial())
        } catch {
            // The bus keeps the rule until the connection closes: more signals, nothing lost.
            SubsystemLog.dbus.logger.debug("a match rule was not removed", metadata: ["error": "\(SubsystemLog.clean(error.description))"])
        }
    }

    func busCall(_ member: String, _ body: [DBusValue], flags: DBusMessage.Flags = []) throws(DBusError) -> DBusMessage {
        try .methodCall(
            destination: Self.busName, path: Self.busPath, interface: Self.busName,
            member: member, body: body, flags: flags)
    }

    /// The owner of a tracked name once known: subscribes to `NameOwnerChanged` first, then
    /// asks `GetNameOwner`; both replies are handled on the queue in arrival order, so a
    /// change that the bus reports after answering is never overwritten by the older answer.
    func resolveOwner(of name: String, timeout: Duration, _ done: @escaping (Result<String?, DBusError>) -> Void) {
        assertOnQueue()
        guard var tracked = trackedNames[name] else { return done(.failure(.disconnected)) }
        if tracked.resolved { return done(.success(tracked.owner)) }
        tracked.waiters.append(done)
        let start = !tracked.lookupStarted
        tracked.lookupStarted = true
        let rule = DBusMatchRule(
            sender: Self.busName, interface: Self.busName, member: "NameOwnerChanged",
            path: Self.busPath, arguments: [0: name])
        tracked.ownerChangedRule = rule
        trackedNames[name] = tracked
        guard start else { return }
        do {
            let addMatch = try busCall("AddMatch", [.string(rule.text)]).outgoing()
            let getOwner = try busCall("GetNameOwner", [.string(name)]).outgoing()
            startCall(addMatch, member: "AddMatch", timeout: timeout) { [self] result in
                if case .failure(let error) = result { finishResolving(name, .failure(error)) }
            }
            startCall(getOwner, member: "GetNameOwner", timeout: timeout) { [self] result in
                switch result {
                case .success(let reply):
                    finishResolving(name, .success(reply.body.first?.stringValue))
                case .failure(.remote(name: "org.freedesktop.DBus.Error.NameHasNoOwner", _)):
                    finishResolving(name, .success(nil))
                case .failure(let error):
                    finishResolving(name, .failure(error))
                }
            }
        } catch {
            finishResolving(name, .failure(error))
        }
    }

    private func finishResolving(_ name: String, _ result: Result<String?, DBusError>) {
        guard var tracked = trackedNames[name] else { return }
        let waiters = tracked.waiters
        tracked.waiters = []
        switch result {
        case .success(let owner):
            // The bus answered after sending every NameOwnerChanged that reached us before
            // this reply, so the answer is never older than what we hold.
            tracked.owner = owner
            tracked.resolved = true
        case .failure:
            tracked.lookupStarted = false
        }
        trackedNames[name] = tracked
        let outcome = result.map { _ in tracked.owner }
        for waiter in waiters { waiter(outcome) }
    }
}
