import Foundation
import FreedesktopNotifications

/// The center's machinery: pending requests and their scheduler, the delivered list, the
/// mapping to the wire and back, and persistence. One actor, so every change is serial.
actor NotificationEngine {
    /// How the engine asks the app (the center's delegate, on the main actor).
    struct Presenter: Sendable {
        var willPresent: @Sendable (UNNotification) async -> UNNotificationPresentationOptions
        /// On the main actor, where the delegate is told: the response queue's consumer
        /// lives there, so a response costs one hop, not two.
        var didReceive: @MainActor @Sendable (UNNotificationResponse) async -> Void
        /// A notification was posted (for the content extension of its category).
        var shown: @Sendable (UNNotification) async -> Void
        /// The content extension's answer for a response; `nil` without one.
        var intercept: @Sendable (UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption?
        /// Whether a category has a content extension.
        var hasContentExtension: @Sendable (String) -> Bool
    }

    /// A late `ActionInvoked` after its `NotificationClosed` still counts within this time.
    static let closeGracePeriod: Duration = .milliseconds(250)

    let identity: ApplicationIdentity
    let client: NotificationsClient
    let clock: any NotificationClock
    private let presenter: Presenter
    let store: StateFile<EngineState>?
    let attachmentStore: AttachmentStore?
    var scheduler: PendingScheduler<String>!

    var categories: [String: UNNotificationCategory] = [:]
    var pending: [String: PendingEntry] = [:]
    var delivered: [String: DeliveredEntry] = [:]
    var closing: [ServerKey: DeliveredEntry] = [:]
    var serverIndex: [ServerKey: String] = [:]
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []

    var notifiesInFlight = 0
    /// Identifiers whose delivery is under way, and who waits for each.
    var deliveringIdentifiers: Set<String> = []
    var deliveryWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Identifiers withdrawn while their delivery was under way.
    var withdrawOnArrival: Set<String> = []
    var heldEvents: [NotificationEvent] = []
    var capabilityCache: (server: String, capabilities: Set<NotificationCapability>)?
    private var responses: AsyncStream<UNNotificationResponse>.Continuation?
    var saveScheduled = false
    /// When the state was last written (``scheduleSave()``).
    var lastSave: ContinuousClock.Instant?
    /// The state as this center last read it from its file or wrote it there, which the merge
    /// at each save compares against; `nil` until the file was read, and nothing is written
    /// before.
    var savedBaseline: EngineState?
    /// Why the state could not be kept at the last attempt; `nil` after a success.
    var stateProblem: (any Error)?
    private var startup: Task<Void, Never>?

    /// - Parameter stateDirectory: where state is kept, or `nil` to keep none; a failure keeps
    ///   none and is reported (``writeStateNow()``).
    init(identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock,
         presenter: Presenter, stateDirectory: Result<URL, InvalidApplicationIdentifierError>?) {
        self.identity = identity
        self.client = client
        self.clock = clock
        self.presenter = presenter
        let folder = try? stateDirectory?.get()
        self.store = folder.map(EngineState.file(in:))
        self.attachmentStore = folder.map { AttachmentStore(root: $0.appendingPathComponent("attachments", isDirectory: true)) }
        if case .failure(let error) = stateDirectory { stateProblem = error }
    }

    /// Subscribes to the server's events, starts the response queue and restores state;
    /// idempotent. Every public operation calls it first; calls that come while it runs wait
    /// for it.
    func start() async {
        if let startup { return await startup.value }
        let startup = Task { await self.startUp() }
        self.startup = startup
        await startup.value
    }

    private func startUp() async {
        scheduler = PendingScheduler(clock: clock) { [weak self] identifier, deadline in
            Task { await self?.fire(identifier, due: deadline) }
        }
        let events = client.events()
        Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
        let (stream, continuation) = AsyncStream.makeStream(
            of: UNNotificationResponse.self, bufferingPolicy: .bufferingOldest(Self.responseQueueLimit))
        responses = continuation
        let presenter = self.presenter
        Task { @MainActor in
            for await response in stream { await presenter.didReceive(response) }
        }
        // Delivered notifications come back only while the server instance that shows them
        // still owns the name, which is known once the client has connected. Without a bus
        // the connection fails at once and they are dropped, as they should be.
        if store != nil { _ = try? await client.connect() }
        if let stateProblem { recordStateProblem(stateProblem) }
        restore()
    }

    // MARK: - Adding

    /// Takes a request in: validates it, copies its attachments into the store, then
    /// schedules it, or says it is due now.
    ///
    /// - Returns: the request to deliver now (``deliverNow(_:)``), or `nil` when scheduled.
    func accept(_ request: UNNotificationRequest) async throws -> UNNotificationRequest? {
        await start()
        try Self.validate(request)
        let request = try storingAttachments(of: request)
        if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
            try schedule(request, trigger: trigger)
            return nil
        }
        await cancelPending([request.identifier])
        return request
    }

    /// The request with its attachments copied into the store (unchanged without a store).
    private func storingAttachments(of request: UNNotificationRequest) throws -> UNNotificationRequest {
        guard let attachmentStore, !request.content.attachments.isEmpty else { return request }
        let stored = try attachmentStore.store(request.content.attachments)
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        content.attachments = stored.attachments
        return UNNotificationRequest(identifier: request.identifier, content: content, trigger: request.trigger)
    }

    /// Removes the stored files of `request` unless a pending, delivered or closing
    /// notification still uses them.
    func releaseAttachments(of request: UNNotificationRequest) {
        guard let attachmentStore else { return }
        let folders = Set(request.content.attachments.compactMap(attachmentStore.folder(of:)))
        guard !folders.isEmpty else { return }
        var inUse = Set<URL>()
        let requests = pending.values.map(\.request) + delivered.values.map(\.notification.request)
            + closing.values.map(\.notification.request)
        for other in requests {
            for attachment in other.content.attachments {
                if let folder = attachmentStore.folder(of: attachment), folders.contains(folder) { inUse.insert(folder) }
            }
        }
        for folder in folders.subtracting(inUse) { attachmentStore.release(folder) }
    }

    /// Delivers a request accepted as due now. Its stored attachments go when it was not
    /// shown (the delegate said `[]`, or the server failed).
    func deliverNow(_ request: UNNotificationRequest) async throws {
        defer { releaseAttachments(of: request) }
        try await deliver(request, date: clock.now)
    }

    static func validate(_ request: UNNotificationRequest) throws {
        try request.trigger?.validate()
        let content = request.content
        let fields = [
            ("identifier", request.identifier), ("title", content.title), ("subtitle", content.subtitle),
            ("body", content.body), ("categoryIdentifier", content.categoryIdentifier),
            ("threadIdentifier", content.threadIdentifier),
        ]
        for (field, text) in fields where text.utf8.contains(0) {
            throw NotificationDeliveryError.invalidContent(field: field, reason: "contains a NUL character")
        }
        if !content.userInfo.isEmpty { _ = try NotificationContentSnapshot(content) }
    }

    private func schedule(_ request: UNNotificationRequest, trigger: UNNotificationTrigger) throws {
        let anchor = clock.now
        guard let next = trigger.nextFireDate(after: anchor, anchor: anchor, calendar: .current) else {
            throw UNError(.notificationInvalidNoDate, description: "the trigger never fires after \(anchor)")
        }
        let anchored = (trigger as? UNTimeIntervalNotificationTrigger)
            .map { UNNotificationRequest(identifier: request.identifier, content: request.content, trigger: $0.anchored(at: anchor)) }
            ?? request
        let replaced = pending[request.identifier]?.request
        pending[request.identifier] = PendingEntry(request: anchored, anchor: anchor, nextFire: next)
        scheduler.schedule(request.identifier, at: next)
        if let replaced { releaseAttachments(of: replaced) }
        scheduleSave()
    }

    private func fire(_ identifier: String, due: Date) async {
        guard let entry = pending[identifier], entry.nextFire == due, let trigger = entry.request.trigger else { return }
        if trigger.repeats,
           let next = trigger.nextFireDate(after: max(due, clock.now), anchor: entry.anchor, calendar: .current) {
            pending[identifier]?.nextFire = next
            scheduler.schedule(identifier, at: next)
        } else {
            pending.removeValue(forKey: identifier)
        }
        scheduleSave()
        // A delivery that fails here has nobody to report to; the request is not retried.
        try? await deliver(entry.request, date: due)
        releaseAttachments(of: entry.request)
    }

    // MARK: - Delivering

    /// Asks the delegate, then posts. Returns without posting when the options show nothing.
    ///
    /// Deliveries of one identifier happen one at a time, so an update always knows the id to
    /// replace; a withdrawal that comes while a delivery is on the wire closes it when it lands.
    private func deliver(_ request: UNNotificationRequest, date: Date) async throws {
        let request = request.resolvingDeferredLocalizations()
        let identifier = request.identifier
        while deliveringIdentifiers.contains(identifier) {
            await withCheckedContinuation { deliveryWaiters[identifier, default: []].append($0) }
        }
        deliveringIdentifiers.insert(identifier)
        withdrawOnArrival.remove(identifier)
        defer {
            deliveringIdentifiers.remove(identifier)
            for waiter in deliveryWaiters.removeValue(forKey: identifier) ?? [] { waiter.resume() }
        }
        let notification = UNNotification(date: date, request: request)
        let options = await presenter.willPresent(notification)
        if options.contains(.badge), let badge = request.content.badge {
            try? await client.setBadge(appID: identity.id, count: badge.intValue)
        }
        guard options.showsBanner || options.showsInList else { return }
        let capabilities = try await serverCapabilities()
        let category = categories[request.content.categoryIdentifier]
        let replaces = delivered[request.identifier].flatMap { $0.key.server == client.serverOwner ? $0.key.id : nil } ?? 0
        let bridge = NotificationBridge(identity: identity, capabilities: capabilities)
        var arguments = bridge.notifyRequest(for: request, category: category, options: options, replacesID: replaces)
        let intercepted = presenter.hasContentExtension(request.content.categoryIdentifier)
        if intercepted { arguments.hints.resident = true }
        notifiesInFlight += 1
        let posting: NotificationPosting
        do {
            posting = try await client.notify(arguments)
        } catch {
            notifiesInFlight -= 1
            withdrawOnArrival.remove(identifier)
            releaseHeldEvents()
            throw NotificationDeliveryError(error)
        }
        notifiesInFlight -= 1
        // The server that answered may be gone already: its NameOwnerChanged, which came after
        // the reply, can be handled first. Its notifications went with it; so does this one.
        guard client.serverOwner == posting.server else {
            withdrawOnArrival.remove(identifier)
            releaseHeldEvents()
            return
        }
        let previous = delivered[request.identifier]
        if let previous { serverIndex.removeValue(forKey: previous.key) }
        let key = ServerKey(server: posting.server, id: posting.id)
        delivered[request.identifier] = DeliveredEntry(notification: notification, key: key)
        if let previous { releaseAttachments(of: previous.notification.request) }
        serverIndex[key] = request.identifier
        releaseHeldEvents()
        scheduleSave()
        if intercepted { await presenter.shown(notification) }
        if withdrawOnArrival.remove(identifier) != nil { await removeDelivered([identifier]) }
    }

    private func serverCapabilities() async throws -> Set<NotificationCapability> {
        if let cache = capabilityCache, cache.server == client.serverOwner { return cache.capabilities }
        do {
            let capabilities = Set(try await client.capabilities())
            if let owner = client.serverOwner { capabilityCache = (owner, capabilities) }
            return capabilities
        } catch {
            throw NotificationDeliveryError(error)
        }
    }

    /// Current capabilities, or `nil` with no server.
    func currentCapabilities() async -> Set<NotificationCapability>? {
        await start()
        return try? await serverCapabilities()
    }

    // MARK: - Lists

    func pendingRequests() async -> [UNNotificationRequest] {
        await start()
        return pending.values.sorted { $0.nextFire < $1.nextFire }.map(\.request)
    }

    func cancelPending(_ identifiers: [String]) async {
        await start()
        var changed = false
        for identifier in identifiers {
            guard let removed = pending.removeValue(forKey: identifier) else { continue }
            scheduler.cancel(identifier)
            releaseAttachments(of: removed.request)
            changed = true
        }
        if changed { scheduleSave() }
    }

    func cancelAllPending() async {
        await start()
        let removed = pending.values.map(\.request)
        pending.removeAll()
        for request in removed { releaseAttachments(of: request) }
        scheduler.cancelAll()
        scheduleSave()
    }

    func deliveredNotifications() async -> [UNNotification] {
        await start()
        return delivered.values.map(\.notification).sorted { $0.date < $1.date }
    }

    /// Withdraws notifications: they leave the list at once, and each live one gets a
    /// `CloseNotification` (sent in the background; its `NotificationClosed` is ignored).
    func removeDelivered(_ identifiers: [String]) async {
        await start()
        let owner = client.serverOwner
        var ids: [UInt32] = []
        for identifier in identifiers {
            if deliveringIdentifiers.contains(identifier) { withdrawOnArrival.insert(identifier) }
            guard let entry = delivered.removeValue(forKey: identifier) else { continue }
            serverIndex.removeValue(forKey: entry.key)
            var closed = entry
            closed.responded = true
            retire(closed)
            if entry.key.server == owner { ids.append(entry.key.id) }
        }
        scheduleSave()
        guard !ids.isEmpty else { return }
        let client = self.client
        Task {
            for id in ids { try? await client.closeNotification(id: id) }
        }
    }

    func removeAllDelivered() async {
        await removeDelivered(Array(delivered.keys))
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) async {
        await start()
        self.categories = Dictionary(categories.map { ($0.identifier, $0) }) { first, _ in first }
        scheduleSave()
    }

    func currentCategories() async -> Set<UNNotificationCategory> {
        await start()
        return Set(categories.values)
    }

    func setAuthorization(_ status: UNAuthorizationStatus, options: UNAuthorizationOptions) async {
        await start()
        authorizationStatus = status
        authorizationOptions = options
        scheduleSave()
    }

    func setBadge(_ count: Int) async throws {
        await start()
        do {
            try await client.setBadge(appID: identity.id, count: count)
        } catch {
            throw NotificationDeliveryError(error)
        }
    }

    // MARK: - Responses

    /// Responses waiting for the delegate at the most; past it a response is dropped and
    /// logged (the delegate is then far behind: each one may take up to the response deadline).
    static let responseQueueLimit = 1024
    /// How many responses the full queue dropped (for tests; each is also logged).
    private(set) var droppedResponses = 0

    func deliverResponse(_ response: UNNotificationResponse) {
        guard case .dropped = responses?.yield(response) else { return }
        droppedResponses += 1
        CenterLog.logger.error(
            "response queue full; response dropped",
            metadata: ["identifier": "\(response.notification.request.identifier)", "action": "\(response.actionIdentifier)"])
    }

    /// Hands a response to the content extension of its category first (when there is one),
    /// then acts on its answer: keep showing, close, or close and tell the delegate.
    func route(_ response: UNNotificationResponse) {
        let category = response.notification.request.content.categoryIdentifier
        guard presenter.hasContentExtension(category) else { return deliverResponse(response) }
        let presenter = self.presenter
        Task {
            let option = await presenter.intercept(response) ?? .dismissAndForwardAction
            await self.apply(option, to: response)
        }
    }

    private func apply(_ option: UNNotificationContentExtensionResponseOption, to response: UNNotificationResponse) async {
        let identifier = response.notification.request.identifier
        switch option {
        case .doNotDismiss:
            // Resident notifications stay on screen; a later action counts again.
            delivered[identifier]?.responded = false
        case .dismiss:
            await removeDelivered([identifier])
        case .dismissAndForwardAction:
            await removeDelivered([identifier])
            deliverResponse(response)
        }
    }
}
