import DBus
import DesktopNotificationsSupport
import Foundation

extension AgentEngine {
    /// Follows the agent's `Response` signal, sent by the current owner of the agent's name
    /// alone, and the owner's changes: a new owner (the agent restarted) gets the app connected
    /// again and is asked for the responses it kept.
    func followResponses() async throws {
        let rule = DBusMatchRule(
            interface: AgentInterface.name, member: AgentInterface.responseSignal, path: AgentInterface.path,
            signature: Agent1Spec.Signal.response.signature)
        let handle = try await connection.subscribe(to: [rule], senderMustOwn: AgentInterface.busName) { [weak self] event in
            self?.take(event)
        }
        ledger.withLock { $0.agentOwner = handle.initialOwner }
        keep(signals: handle)
    }

    private func take(_ event: DBusSignalEvent) {
        switch event {
        case .signal(let message):
            guard let signal = try? Agent1Spec.ResponseSignal(message.body), signal.appID == identity.id else { return }
            tell(ledger.withLock { $0.received(AgentResponseEntry(id: signal.responseID, record: signal.response)) })
        case .ownerChanged(_, _, let newOwner):
            let stale = ledger.withLock { ledger in
                ledger.agentOwner = newOwner
                return newOwner != nil && newOwner != ledger.connectedOwner
            }
            if stale { reconnect() }
        case .disconnected:
            SubsystemLog.center.logger.warning("the connection to the notification agent closed")
        }
    }

    /// Connects the app to the agent's current owner and takes the responses it kept.
    func reconnect() {
        sendConnect()
        takeResponses()
    }

    /// Sends `Connect` to the agent's current owner, and records (or logs) its answer.
    func sendConnect() {
        let message: DBusMessage
        do {
            message = try self.message(connectCall())
        } catch {
            return SubsystemLog.center.logger.error("Connect could not be built", metadata: ["error": SubsystemLog.describe(error)])
        }
        startCall(message) { [weak self] result in
            switch result {
            case .success(let reply):
                do {
                    try self?.connected(reply)
                } catch {
                    SubsystemLog.center.logger.warning(
                        "the notification agent that took the name speaks another interface version; the center's calls fail until one of its own does",
                        metadata: ["error": SubsystemLog.describe(error)])
                }
            case .failure(let error):
                SubsystemLog.center.logger.warning("the agent refused Connect", metadata: ["error": SubsystemLog.describe(AgentErrorName.decode(error))])
            }
        }
    }

    /// Takes the kept responses because the app was activated for response `id`
    /// (`org.freedesktop.Application.ActivateAction`), with its activation token; at once, with
    /// no call, when `id` was told already (the center took it when it started). Whoever
    /// `sender` is, only what the agent keeps for the app is taken.
    func takeActivatedResponse(_ id: String, activationToken: String?, sender: String) async -> Bool {
        if ledger.withLock({ $0.hasTold(id) }) { return true }
        if let activationToken { ledger.withLock { $0.activated(for: id, token: activationToken) } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            takeResponses { continuation.resume() }
        }
        return true
    }

    /// Asks the agent for the responses it kept and tells them, in order, each once; then
    /// calls `then`, also when the agent did not answer or the call could not be built.
    func takeResponses(then: (@Sendable () -> Void)? = nil) {
        let message: DBusMessage
        do {
            message = try self.message(.takeResponses(.init(appID: identity.id)))
        } catch {
            // An agent of another interface version is asked nothing; that was logged at Connect.
            SubsystemLog.center.logger.warning("the agent's kept responses were not asked for", metadata: ["error": SubsystemLog.describe(error)])
            then?()
            return
        }
        ledger.withLock { $0.takeStarted() }
        startCall(message) { [weak self] result in
            defer { then?() }
            guard let self else { return }
            var entries: [AgentResponseEntry] = []
            switch result {
            case .success(let reply):
                entries = Self.entries(in: reply)
            case .failure(let error):
                SubsystemLog.center.logger.warning("the agent did not give its kept responses", metadata: ["error": SubsystemLog.describe(AgentErrorName.decode(error))])
            }
            tell(ledger.withLock { $0.takeEnded(with: entries) })
        }
    }

    /// The `(id, record)` pairs of a `TakeResponses` answer; none when it is malformed.
    private static func entries(in reply: DBusMessage) -> [AgentResponseEntry] {
        guard case .array(_, let items)? = try? Agent1Spec.TakeResponsesReply(reply.body).responses else { return [] }
        return items.compactMap { item in
            guard case .structure(let pair) = item, pair.count == 2, let id = pair[0].stringValue,
                let record = try? AgentPayload.Record.reading(pair[1])
            else { return nil }
            return AgentResponseEntry(id: id, record: record)
        }
    }

    /// Hands each response to the host and acknowledges them to the agent; with no host (the
    /// center is gone) nothing is acknowledged, and the agent keeps them for the next center.
    private func tell(_ entries: [AgentResponseEntry]) {
        guard !entries.isEmpty, let host = host.host else { return }
        for entry in entries {
            do {
                host.receive(try AgentPayload.response(from: entry.record, activationToken: entry.activationToken))
            } catch {
                SubsystemLog.center.logger.error("a response from the agent did not decode; dropped", metadata: ["error": SubsystemLog.describe(error)])
            }
        }
        send(.acknowledgeResponses(.init(appID: identity.id, responseIDs: entries.map(\.id))))
    }
}
