import DesktopNotificationsSupport

/// One delivery at a time per identifier: a delivery enters the identifier's line before it
/// asks the delegate and calls the service, and leaves it once its call returned or failed;
/// later deliveries of the same identifier wait their turn, first come first served. So two
/// adds of one identifier in a burst never interleave their delegate questions and service
/// calls, and the later content is the one the service shows and the engine records.
final class DeliveryLine: Sendable {
    /// The deliveries waiting, by identifier; an identifier is present while one is under way.
    private let lines = Locked<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Returns once the delivery may go ahead: at once, with no suspension, when no delivery
    /// of `identifier` is under way.
    func enter(_ identifier: String) async {
        let entered = lines.withLock { lines in
            guard lines[identifier] == nil else { return false }
            lines[identifier] = []
            return true
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lines.withLock { lines in
                guard lines[identifier] != nil else {
                    lines[identifier] = []
                    return true
                }
                lines[identifier]?.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the delivery under way: the next in line goes ahead.
    func leave(_ identifier: String) {
        let next: CheckedContinuation<Void, Never>? = lines.withLock { lines in
            guard var waiting = lines[identifier] else { return nil }
            guard !waiting.isEmpty else {
                lines[identifier] = nil
                return nil
            }
            let next = waiting.removeFirst()
            lines[identifier] = waiting
            return next
        }
        next?.resume()
    }
}
