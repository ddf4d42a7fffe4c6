import Foundation
import FreedesktopNotifications

/// The engine in the app's own process: pending requests and their scheduler, the delivered
/// list, the mapping to the wire and back, and persistence.
///
/// One inbox carries both the center's calls (in call order) and the notification client's
/// channel (its events and the replies to its posts, in the order the socket gave them), and
/// one loop on this actor takes them one at a time: order is kept by construction, never
/// repaired. Slow work (the delegate's answer, a server round trip) runs off the loop and
/// comes back as a call on the actor or an item of the channel.
actor InProcessEngine: NotificationEngine {
    /// A late `ActionInvoked` after its `NotificationClosed` still counts within this time.
    static let closeGracePeriod: Duration = .milliseconds(250)

    nonisolated let identity: ApplicationIdentity
    nonisolated let client: NotificationsClient
    nonisolated let clock: any NotificationClock
    private let hostReference: EngineHostReference
    /// The app served; `nil` once it has gone.
    var host: (any EngineHost)? { hostReference.host }
    let store: StateFile<EngineState>?
    let attachmentStore: AttachmentStore?
    private nonisolated let inbox: AsyncStream<EngineInput>.Continuation
    var channel: NotificationChannel?
    var scheduler: PendingScheduler<String>?

    var categories: [String: UNNotificationCategory] = [:]
    var pending = PendingTable()
    var delivered = DeliveredTable()
    var deliveries = DeliveryQueue()
    var ledger = AttachmentLedger()
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []
    /// The owner of the notification service as of the last channel item.
    var owner: String?
    /// The capabilities of the server that answered `GetCapabilities` last.
    var capabilityCache: (server: String, capabilities: Set<NotificationCapability>)?
    private var lastTag: UInt64 = 0

    var saveScheduled = false
    /// When the state was last written (``scheduleSave()``).
    var lastSave: ContinuousClock.Instant?
    /// The state as this engine last read it from its file or wrote it there, which the merge
    /// at each save compares against; `nil` until the file was read, and nothing is written
    /// before.
    var savedBaseline: EngineState?
    /// Why the state could not be kept at the last attempt; `nil` after a success.
    var stateProblem: (any Error)?

    /// Makes the engine and starts its loop, which ends with ``close()``.
    ///
    /// - Parameter stateDirectory: where state is kept, or `nil` to keep none; a failure keeps
    ///   none and is reported (``writeStateNow()``).
    static func start(
        identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?
    ) -> InProcessEngine {
        let (inputs, inbox) = AsyncStream.makeStream(of: EngineInput.self)
        let engine = InProcessEngine(
            identity: identity, client: client, clock: clock, host: host, inbox: inbox, stateDirectory: stateDirectory)
        Task { await engine.run(inputs) }
        return engine
    }

    private init(
        identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock, host: EngineHostReference,
        inbox: AsyncStream<EngineInput>.Continuation, stateDirectory: Result<URL, InvalidApplicationIdentifierError>?
    ) {
        self.identity = identity
        self.client = client
        self.clock = clock
        self.hostReference = host
        self.inbox = inbox
        let folder = try? stateDirectory?.get()
        self.store = folder.map(EngineState.file(in:))
        self.attachmentStore = folder.map { AttachmentStore(root: $0.appendingPathComponent("attachments", isDirectory: true)) }
        if case .failure(let error) = stateDirectory { stateProblem = error }
    }

    /// Opens the channel, restores the saved state, then takes the inbox one input at a time.
    private func run(_ inputs: AsyncStream<EngineInput>) async {
        let inbox = self.inbox
        channel = client.openChannel { item in inbox.yield(.channel(item)) }
        scheduler = PendingScheduler(clock: clock) { [weak self] identifier, deadline in
            Task { await self?.fire(identifier, due: deadline) }
        }
        // Delivered notifications come back only while the server instance that shows them
        // still owns the name, which is known once the client has connected. Without a bus
        // the connection fails at once and they are dropped, as they should be.
        if store != nil {
            do {
                try await client.connect()
            } catch {
                CenterLog.logger.info("no notification service at start", metadata: ["error": CenterLog.describe(error)])
            }
        }
        if let stateProblem { recordStateProblem(stateProblem) }
        restore()
        for await input in inputs { take(input) }
        channel?.close()
        scheduler?.cancelAll()
        flushSave()
    }

    private func take(_ input: EngineInput) {
        switch input {
        case .add(let request, let waiter): accept(request, waiter: waiter)
        case .pendingRequests(let answer): answer.resume(returning: pending.requests)
        case .removePending(let identifiers): cancelPending(identifiers)
        case .deliveredNotifications(let answer): answer.resume(returning: delivered.notifications)
        case .removeDelivered(let identifiers): removeDelivered(identifiers ?? Array(delivered.live.keys))
        case .setCategories(let categories): replaceCategories(categories)
        case .categories(let answer): answer.resume(returning: Set(categories.values))
        case .setAuthorization(let status, let options): setAuthorization(status, options: options)
        case .authorization(let answer): answer.resume(returning: (authorizationStatus, authorizationOptions))
        case .writeStateNow(let answer): answer.resume(with: Result { try writeStateNow() })
        case .channel(let item): handle(item)
        }
    }

    func nextTag() -> UInt64 {
        lastTag += 1
        return lastTag
    }

    // MARK: - The interface

    nonisolated func add(_ request: UNNotificationRequest) async throws {
        try await withCheckedThrowingContinuation { inbox.yield(.add(request, $0)) }
    }

    nonisolated func pendingRequests() async -> [UNNotificationRequest] {
        await withCheckedContinuation { inbox.yield(.pendingRequests($0)) }
    }

    nonisolated func removePendingRequests(withIdentifiers identifiers: [String]?) {
        inbox.yield(.removePending(identifiers))
    }

    nonisolated func deliveredNotifications() async -> [UNNotification] {
        await withCheckedContinuation { inbox.yield(.deliveredNotifications($0)) }
    }

    nonisolated func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        inbox.yield(.removeDelivered(identifiers))
    }

    nonisolated func setCategories(_ categories: Set<UNNotificationCategory>) {
        inbox.yield(.setCategories(categories))
    }

    nonisolated func categories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { inbox.yield(.categories($0)) }
    }

    nonisolated func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        let granted = await serverReachable()
        inbox.yield(.setAuthorization(granted ? .authorized : .denied, options))
        return granted
    }

    nonisolated func authorization() async -> EngineAuthorization {
        let (status, options) = await withCheckedContinuation { inbox.yield(.authorization($0)) }
        return EngineAuthorization(status: status, options: options, capabilities: await currentCapabilities())
    }

    nonisolated func setBadgeCount(_ count: Int) async throws {
        do {
            try await client.setBadge(appID: identity.id, count: count)
        } catch {
            throw NotificationDeliveryError(error)
        }
    }

    nonisolated func writeStateNow() async throws {
        try await withCheckedThrowingContinuation { inbox.yield(.writeStateNow($0)) }
    }

    nonisolated func close() {
        inbox.finish()
    }

    // MARK: - Categories and authorization

    private func replaceCategories(_ categories: Set<UNNotificationCategory>) {
        self.categories = Dictionary(categories.map { ($0.identifier, $0) }) { first, _ in first }
        scheduleSave()
    }

    private func setAuthorization(_ status: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        authorizationStatus = status
        authorizationOptions = options
        scheduleSave()
    }

    /// Whether a server is reachable and the desktop lets the app notify.
    private nonisolated func serverReachable() async -> Bool {
        guard !GnomeNotificationSwitch.isTurnedOff(appID: identity.id) else { return false }
        do {
            return try await client.isServerAvailable()
        } catch {
            CenterLog.logger.info("no notification service reachable", metadata: ["error": CenterLog.describe(error)])
            return false
        }
    }

    /// The current server's capabilities (asked once per server instance), or `nil` with no
    /// server.
    func currentCapabilities() async -> Set<NotificationCapability>? {
        if let cache = capabilityCache, cache.server == owner ?? client.serverOwner { return cache.capabilities }
        do {
            let capabilities = Set(try await client.capabilities())
            if let server = client.serverOwner { capabilityCache = (server, capabilities) }
            return capabilities
        } catch {
            CenterLog.logger.info("the server's capabilities are not known", metadata: ["error": CenterLog.describe(error)])
            return nil
        }
    }
}
