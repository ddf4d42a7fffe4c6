import Dispatch

/// A method call waiting for its reply, keyed by serial in ``ConnectionCore/pendingCalls``.
struct PendingCall {
    let member: String
    let timeout: Duration
    let deadline: DispatchTime
    let complete: (Result<DBusMessage, DBusError>) -> Void
}

/// Lets a task's cancellation find the call it started, whose serial is known only on the queue.
final class CallToken: @unchecked Sendable {
    var serial: UInt32?
}

extension ConnectionCore {
    /// Sends `bytes` as a call and registers `complete` for its reply; on the queue.
    ///
    /// The reply cannot be dispatched before this work item ends, so registering here is in
    /// place before any reply can be seen. `complete` runs on the queue exactly once: with the
    /// reply, the remote error, a timeout, or the disconnect.
    func startCall(
        _ bytes: [UInt8], member: String, timeout: Duration, token: CallToken? = nil,
        complete: @escaping (Result<DBusMessage, DBusError>) -> Void
    ) {
        guard isOpen else { return complete(.failure(.disconnected)) }
        let serial = allocateSerial()
        token?.serial = serial
        let deadline = DispatchTime.now() + timeout.dispatchInterval
        pendingCalls[serial] = PendingCall(member: member, timeout: timeout, deadline: deadline, complete: complete)
        do {
            try transmit(bytes, serial: serial)
        } catch {
            pendingCalls.removeValue(forKey: serial)
            return complete(.failure(error))
        }
        if armedDeadline.map({ deadline < $0 }) ?? true { armDeadlineTimer(at: deadline) }
    }

    /// The async form of ``startCall(_:member:timeout:token:complete:)``, cancellable.
    func call(_ message: DBusMessage, timeout: Duration) async throws -> DBusMessage {
        let bytes = try message.marshal(serial: 0)
        let member = message.member ?? "method"
        let token = CallToken()
        // The reply travels through a lock rather than inside the continuation: the result is
        // the same, and ThreadSanitizer (which cannot see the continuation's hand-over on Linux,
        // swiftlang/swift#57803) sees the lock's ordering.
        let outcome = Locked<Result<DBusMessage, DBusError>?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                performNow { [self] in
                    startCall(bytes, member: member, timeout: timeout, token: token) { result in
                        outcome.withLock { $0 = result }
                        DescriptorLoop.afterReport { continuation.resume() }
                    }
                }
            }
        } onCancel: {
            perform { [self] in
                guard let serial = token.serial, let call = pendingCalls.removeValue(forKey: serial) else { return }
                call.complete(.failure(.cancelled))
            }
        }
        guard let result = outcome.withLock({ $0 }) else { throw DBusError.cancelled }
        return try result.get()
    }

    /// Completes the call that `reply` answers; `false` when no call of ours waits for it.
    func completeCall(with reply: DBusMessage) -> Bool {
        guard let serial = reply.replySerial, let call = pendingCalls.removeValue(forKey: serial) else { return false }
        if reply.kind == .error {
            call.complete(.failure(.remote(name: reply.errorName ?? "", message: reply.errorText)))
        } else {
            call.complete(.success(reply))
        }
        return true
    }

    // MARK: - One timer for all deadlines
    //
    // The timer stays armed at the earliest deadline it was given, even when that call has
    // already been answered: moving a dispatch timer wakes libdispatch's manager thread, so
    // it moves only for an earlier deadline. When it fires it expires what is due and moves
    // to the next pending deadline, or, with nothing pending, stops: an idle connection has
    // no timer.

    private func armDeadlineTimer(at deadline: DispatchTime) {
        let timer: any DispatchSourceTimer
        if let existing = deadlineTimer {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [unowned self] in expireCalls() }
            timer.resume()
            deadlineTimer = timer
        }
        timer.schedule(deadline: deadline)
        armedDeadline = deadline
    }

    func disarmDeadlineTimer() {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        armedDeadline = nil
    }

    private func expireCalls() {
        let now = DispatchTime.now()
        armedDeadline = nil
        var expired: [PendingCall] = []
        var earliest: DispatchTime?
        for (serial, call) in pendingCalls {
            if call.deadline <= now {
                expired.append(call)
                pendingCalls.removeValue(forKey: serial)
            } else if earliest.map({ call.deadline < $0 }) ?? true {
                earliest = call.deadline
            }
        }
        if let earliest { armDeadlineTimer(at: earliest) } else { armedDeadline = nil }
        for call in expired { call.complete(.failure(.timedOut(member: call.member, after: call.timeout))) }
    }
}

extension Duration {
    /// The duration as libdispatch takes it: negative is zero, too long is `.never`.
    package var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow, seconds >= 0 else { return seconds < 0 ? .nanoseconds(0) : .never }
        return .nanoseconds(Int(nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }
}
