import DBus

extension AgentEngine {
    /// Adds a request with a trigger through the ``AgentAddPacker``: it leaves as `Add` when no add is on its way, or packed with the adds made meanwhile into
    /// one `AddRequests`.
    func addPacked(_ record: AgentPayload.Record, bytes: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            packer.add(record, bytes: bytes) { continuation.resume(with: $0) }
        }
    }

    /// Sends `batch` in its place (`Add` for one request, `AddRequests` for more) and gives
    /// each add its answer; `answered` follows.
    func sendPacked(_ batch: AgentAddPacker.Batch, answered: @escaping @Sendable () -> Void) {
        let call = packedCall(batch.items)
        let message: DBusMessage
        do {
            message = try self.message(call)
        } catch {
            outbox.fill(batch.place) {}
            Self.finish(batch.items, with: .failure(error))
            return answered()
        }
        startCall(message, at: batch.place, timeout: Self.callDeadline) { [weak self] result in
            switch result {
            case .success(let reply):
                Self.finish(batch.items, with: .success(Self.results(of: reply, call: call, count: batch.items.count)))
                answered()
            case .failure(let error):
                guard let self else {
                    Self.finish(batch.items, with: .failure(AgentErrorName.decode(error)))
                    return answered()
                }
                Task {
                    await self.sendAgain(batch.items, call: call, after: error)
                    answered()
                }
            }
        }
    }

    /// The call that carries `items`.
    private func packedCall(_ items: [AgentAddPacker.Item]) -> Agent1Spec.Call {
        items.count == 1
            ? .add(.init(appID: identity.id, request: items[0].record))
            : .addRequests(.init(appID: identity.id, requests: items.map(\.record)))
    }

    /// After a refused packed call: an agent that no longer knows the app (restarted) gets it
    /// connected again and the call once more; any other failure is every add's answer.
    private func sendAgain(_ items: [AgentAddPacker.Item], call packed: Agent1Spec.Call, after error: DBusError) async {
        let typed = AgentErrorName.decode(error)
        guard case NotificationAgentError.unknownApp = typed else {
            return Self.finish(items, with: .failure(typed))
        }
        do {
            try connected(try await call(connectCall()))
            takeResponses()
            let reply = try await call(packed)
            Self.finish(items, with: .success(Self.results(of: reply, call: packed, count: items.count)))
        } catch {
            Self.finish(items, with: .failure(error))
        }
    }

    /// Each add's answer in `reply`: none for `Add` (taken), or `AddRequests`' (error name,
    /// message) pairs, empty names for the requests taken. An answer of another count or shape
    /// fails every add.
    private static func results(of reply: DBusMessage, call: Agent1Spec.Call, count: Int) -> [(any Error)?] {
        guard case .addRequests = call else { return [nil] }
        guard case .array(_, let items)? = try? Agent1Spec.AddRequestsReply(reply.body).results, items.count == count else {
            return Array(repeating: NotificationAgentError.failed("the agent's AddRequests answer does not match its \(count) requests"), count: count)
        }
        return items.map { item -> (any Error)? in
            guard case .structure(let pair) = item, pair.count == 2, let name = pair[0].stringValue, let text = pair[1].stringValue else {
                return NotificationAgentError.failed("the agent's AddRequests answer is malformed")
            }
            return name.isEmpty ? nil : AgentErrorName.decode(DBusError.remote(name: name, message: text))
        }
    }

    /// Gives each add its answer: the error at its index, or the failure of the whole call.
    private static func finish(_ items: [AgentAddPacker.Item], with outcome: Result<[(any Error)?], any Error>) {
        for (index, item) in items.enumerated() {
            switch outcome {
            case .success(let errors):
                if let error = errors[index] { item.done(.failure(error)) } else { item.done(.success(())) }
            case .failure(let error):
                item.done(.failure(error))
            }
        }
    }
}
