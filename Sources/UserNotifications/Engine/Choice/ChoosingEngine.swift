import DesktopNotificationsSupport

/// The engine of a center whose engine is still being chosen: it starts choosing at once and
/// takes the center's calls in the meantime, in call order, without blocking the caller; once
/// the choice is made they go to the chosen engine, one after the other, then every later call
/// goes straight there, and the center is told to call the chosen engine itself
/// (``whenSettled(_:)``).
final class ChoosingEngine: NotificationEngine {
    /// A call waiting for the choice: run on the chosen engine, it gives what resumes its
    /// caller (`nil` for a call that returns nothing), which the drain calls only once the
    /// queue's state says what the caller's next call will find.
    typealias Work = @Sendable (any NotificationEngine) async -> (@Sendable () -> Void)?

    private struct State: Sendable {
        var chosen: (engine: any NotificationEngine, kind: NotificationEngineKind, fallback: NotificationEngineFallback?)?
        var waiting: [Work] = []
        var draining = false
        var closed = false
        /// Told of the chosen engine once settled.
        var onSettled: (@Sendable (any NotificationEngine) -> Void)?
    }

    private let state = Locked(State())

    /// Starts `choose` now, which gives the engine, its kind, and why an engine tried before
    /// it was not used, if one was.
    init(choose: @escaping @Sendable () async -> (any NotificationEngine, NotificationEngineKind, NotificationEngineFallback?)) {
        Task { [self] in
            let (engine, kind, fallback) = await choose()
            adopt(engine, kind, fallback)
        }
    }

    /// The engine chosen, whether or not the calls made before have reached it yet (for calls
    /// that need no order with them, such as the agent's push registration, and for the test
    /// hooks, which await ``kind()`` first).
    var adoptedEngine: (any NotificationEngine)? {
        state.withLock { $0.chosen?.engine }
    }

    /// The chosen engine's agent engine, from the moment it is adopted.
    var agentEngine: AgentEngine? { adoptedEngine?.agentEngine }

    /// The kind chosen, once the calls made before this one have reached the chosen engine.
    func kind() async -> NotificationEngineKind {
        await run { [state] _ in state.withLock { $0.chosen?.kind } } ?? .inProcess
    }

    /// Why an engine tried before the chosen one was not used, once the calls made before this
    /// one have reached the chosen engine; `nil` when none was.
    func fallback() async -> NotificationEngineFallback? {
        await run { [state] _ in state.withLock { $0.chosen?.fallback } }
    }

    private func adopt(_ engine: any NotificationEngine, _ kind: NotificationEngineKind, _ fallback: NotificationEngineFallback?) {
        state.withLock { state in
            state.chosen = (engine, kind, fallback)
            state.draining = true
        }
        Task { await drain(engine) }
    }

    /// Runs the waiting calls on `engine`, one after the other. The drain ends, and later calls
    /// go straight to the engine, the moment the queue is empty; the last call's caller is
    /// resumed only after that, so that a caller who waited for the choice (``kind()``) and then
    /// calls again finds the engine, not the drain (which would run its calls one at a time).
    private func drain(_ engine: any NotificationEngine) async {
        var next = nextWork(for: engine)
        while let work = next {
            let resume = await work(engine)
            next = nextWork(for: engine)
            resume?()
        }
        if state.withLock({ $0.closed }) { engine.close() }
    }

    /// The next waiting call. When there is none, the drain is over for good (every later call
    /// finds the engine idle) and whoever waits for that (``whenSettled(_:)``) is told, before
    /// the last call's caller is resumed.
    private func nextWork(for engine: any NotificationEngine) -> Work? {
        let (work, settled) = state.withLock { state -> (Work?, (@Sendable (any NotificationEngine) -> Void)?) in
            guard state.waiting.isEmpty else { return (state.waiting.removeFirst(), nil) }
            state.draining = false
            defer { state.onSettled = nil }
            return (nil, state.onSettled)
        }
        settled?(engine)
        return work
    }

    /// Calls `body` with the chosen engine once the calls made before the choice have all
    /// reached it (at once when they have): from then on a call made here goes straight to that
    /// engine, so the center calls it itself.
    func whenSettled(_ body: @escaping @Sendable (any NotificationEngine) -> Void) {
        let engine: (any NotificationEngine)? = state.withLock { state in
            // Settled: chosen, and the calls made before have all reached it.
            guard let chosen = state.chosen, !state.draining else {
                state.onSettled = body
                return nil
            }
            return chosen.engine
        }
        if let engine { body(engine) }
    }

    /// The engine to call now, or `nil` after queueing `work` for when it is.
    private func engineNow(orQueue work: @escaping Work) -> (any NotificationEngine)? {
        state.withLock { state in
            if let chosen = state.chosen, !state.draining { return chosen.engine }
            state.waiting.append(work)
            return nil
        }
    }

    /// Queues `work` behind every call made before it; when the engine is chosen and idle,
    /// starts a drain so that calls made after it wait for it.
    private func queue(_ work: @escaping Work) {
        let engine: (any NotificationEngine)? = state.withLock { state in
            state.waiting.append(work)
            guard let chosen = state.chosen, !state.draining else { return nil }
            state.draining = true
            return chosen.engine
        }
        if let engine { Task { await drain(engine) } }
    }

    /// The answer of `work`, run in call order: at once when the engine is chosen and no
    /// earlier call waits, else after the calls queued before it.
    private func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable (any NotificationEngine) async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        if let engine = state.withLock({ $0.draining ? nil : $0.chosen?.engine }) { return try await work(engine) }
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue { engine in
                let result: Result<Value, Failure>
                do throws(Failure) {
                    result = .success(try await work(engine))
                } catch {
                    result = .failure(error)
                }
                return { continuation.resume(returning: result) }
            }
        }
        return try result.get()
    }

    /// Runs `work` on the caller's thread when the engine is chosen, else queues it.
    private func now(_ work: @escaping @Sendable (any NotificationEngine) -> Void) {
        if let engine = engineNow(orQueue: { engine in
            work(engine)
            return nil
        }) { work(engine) }
    }

    // MARK: - NotificationEngine

    func add(_ request: UNNotificationRequest) async throws {
        try await run { try await $0.add(request) }
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        await run { await $0.pendingRequests() }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        now { $0.removePendingRequests(withIdentifiers: identifiers) }
    }

    func deliveredNotifications() async -> [UNNotification] {
        await run { await $0.deliveredNotifications() }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        now { $0.removeDeliveredNotifications(withIdentifiers: identifiers) }
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) {
        now { $0.setCategories(categories) }
    }

    func contentExtensionsChanged() {
        now { $0.contentExtensionsChanged() }
    }

    func applicationInterfaceServed() {
        now { $0.applicationInterfaceServed() }
    }

    func categories() async -> Set<UNNotificationCategory> {
        await run { await $0.categories() }
    }

    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        await run { await $0.requestAuthorization(options: options) }
    }

    func authorization() async -> EngineAuthorization {
        await run { await $0.authorization() }
    }

    func setBadgeCount(_ count: Int) async throws {
        try await run { try await $0.setBadgeCount(count) }
    }

    func writeStateNow() async throws {
        try await run { try await $0.writeStateNow() }
    }

    func takeActivatedResponse(_ id: String, activationToken: String?, sender: String) async -> Bool {
        await run { await $0.takeActivatedResponse(id, activationToken: activationToken, sender: sender) }
    }

    func close() {
        let engine: (any NotificationEngine)? = state.withLock { state in
            state.closed = true
            return state.draining ? nil : state.chosen?.engine
        }
        engine?.close()
    }
}
