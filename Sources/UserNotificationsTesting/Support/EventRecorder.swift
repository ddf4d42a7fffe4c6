import DesktopNotificationsSupport

/// Records the elements of an async sequence as they come, so a test can wait for the
/// next one with a deadline and then check that nothing else arrived.
public final class EventRecorder<Element: Sendable>: Sendable {
    private struct State {
        var received: [Element] = []
        var consumed = 0
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts consuming `sequence`.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let consumer = Task { [weak self] in
            do {
                for try await element in sequence {
                    guard let self else { return }
                    update { $0.received.append(element) }
                }
            } catch {}
            self?.update { $0.finished = true }
        }
        task.withLock { $0 = consumer }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    private func update(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Everything received so far.
    public var all: [Element] { state.withLock { $0.received } }

    /// How many elements arrived that neither `next` nor `drain` has returned yet.
    public var pending: Int { state.withLock { $0.received.count - $0.consumed } }

    /// Returns, without waiting, every element not returned yet, and counts them as returned.
    public func drain() -> [Element] {
        state.withLock { state in
            defer { state.consumed = state.received.count }
            return Array(state.received[state.consumed...])
        }
    }

    /// The next element not yet returned by `next`, waiting at most `timeout`.
    public func next(timeout: Duration = .seconds(5)) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let element: Element? = state.withLock { state in
                guard state.consumed < state.received.count else { return nil }
                defer { state.consumed += 1 }
                return state.received[state.consumed]
            }
            if let element { return element }
            if state.withLock({ $0.finished }) || ContinuousClock.now >= deadline { return nil }
            await waitForChange(until: deadline)
        }
    }

    /// The next `count` elements (fewer when the deadline passes first).
    public func next(_ count: Int, timeout: Duration = .seconds(5)) async -> [Element] {
        let deadline = ContinuousClock.now + timeout
        var result: [Element] = []
        while result.count < count, let element = await next(timeout: deadline - ContinuousClock.now) {
            result.append(element)
        }
        return result
    }

    /// Waits `quiet` and returns what arrived in that time beyond what `next` returned
    /// (expected empty when a test checks that nothing more comes).
    public func extra(after quiet: Duration = .milliseconds(200)) async -> [Element] {
        try? await Task.sleep(for: quiet)
        return state.withLock { Array($0.received[$0.consumed...]) }
    }

    private func waitForChange(until deadline: ContinuousClock.Instant) async {
        let timer = Task {
            try? await Task.sleep(until: deadline)
            self.update { _ in }
        }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.consumed < state.received.count || state.finished { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        timer.cancel()
    }
}
