import DesktopNotificationsSupport
import Dispatch

/// A method call waiting for its reply, keyed by serial in ``ConnectionCore/pendingCalls``.
struct PendingCall {
    let member: String
    let timeout: Duration
    let complete: (Result<DBusMessage, DBusError>) -> Void
}

/// Lets a task's cancellation find the call it started, whose serial is known only on the queue.
final class CallToken: @unchecked Sendable {
    var serial: UInt32?
}

extension ConnectionCore {
    /// Sends `outgoing` as a call and registers `complete` for its reply; on the queue.
    ///
    /// The reply cannot be dispatched before this work item ends, so registering here is in
    /// place before any reply can be seen. `complete` runs on the queue exactly once: with the
    /// reply, the remote error, a timeout, or the disconnect.
    func startCall(
        _ outgoing: OutgoingMessage, member: String, timeout: Duration, token: CallToken? = nil,
        complete: @escaping (Result<DBusMessage, DBusError>) -> Void
    ) {
        assertOnQueue()
        guard isOpen else { return complete(.failure(.disconnected)) }
        let serial = allocateSerial()
        token?.serial = serial
        let call = PendingCall(member: member, timeout: timeout, complete: complete)
        pendingCalls.add(call, for: serial, after: timeout)
        do {
            try transmit(outgoing, serial: serial)
        } catch {
            pendingCalls.remove(serial)
            return complete(.failure(error))
        }
    }

    /// The async form of ``startCall(_:member:timeout:token:complete:)``, cancellable.
    func call(_ message: DBusMessage, timeout: Duration) async throws -> DBusMessage {
        let outgoing = try message.outgoing()
        let member = message.member ?? "method"
        let token = CallToken()
        // The reply travels through a lock rather than inside the continuation: the result is
        // the same, and ThreadSanitizer (which cannot see the continuation's hand-over on Linux,
        // swiftlang/swift#57803) sees the lock's ordering.
        let outcome = Locked<Result<DBusMessage, DBusError>?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                performNow { [self] in
                    startCall(outgoing, member: member, timeout: timeout, token: token) { result in
                        outcome.withLock { $0 = result }
                        DescriptorLoop.afterReport { continuation.resume() }
                    }
                }
            }
        } onCancel: {
            perform { [self] in
                guard let serial = token.serial, let call = pendingCalls.remove(serial) else { return }
                call.complete(.failure(.cancelled))
            }
        }
        guard let result = outcome.withLock({ $0 }) else { throw DBusError.cancelled }
        return try result.get()
    }

    /// Completes the call that `reply` answers; `false` when no call of ours waits for it.
    func completeCall(with reply: DBusMessage) -> Bool {
        assertOnQueue()
        guard let serial = reply.replySerial, let call = pendingCalls.remove(serial) else { return false }
        if reply.kind == .error {
            call.complete(.failure(.remote(name: reply.errorName ?? "", message: reply.errorText)))
        } else {
            call.complete(.success(reply))
        }
        return true
    }
}
